// What AWS has under the spec's name, and whose it is: the tags on the object (or, where AWS cannot
// tag it, the controller's own record: ownership-of.ts), never status, decide (ownership.ts); an
// untagged object counts as this object's own only as the create its sealed intent recorded
// (create-intent.ts).
import type { Observation } from "../../services/service-module.ts";
import { judgeAckMade, takeoverKey } from "../ack-takeover.ts";
import { type CreateIntent, createdSinceAbsent, unfinishedCreate } from "../create-intent.ts";
import { judgeOwnership } from "../ownership.ts";
import type { Found, Target } from "../reconcile-plan.ts";
import type { Attempt } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";
import { locate } from "./locate.ts";
import { ownershipTagsOf } from "./ownership-of.ts";

/** This reconcile's own create answered that it made the object, after a read found nothing. */
export interface JustCreated {
  readonly absentAt: Date;
  readonly answeredAt: Date;
}

/**
 * Reads and judges the object. `justCreated` (see ownership.ts, createdSinceAbsent): then only
 * what AWS decides is read, and an untagged object's creation time need not be asked for. The
 * spec returned names the object found: for a kind named by an ID AWS assigns, with that ID
 * (locate.ts); otherwise the spec given.
 */
export async function observe<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  spec: Spec,
  target: Target,
  intent: CreateIntent | undefined,
  justCreated?: JustCreated,
): Promise<{ observation: Observation<Observed>; found: Found; spec: Spec }> {
  const m = env.module;
  // A kind named by an ID AWS assigns, not known yet: the object tagged as this resource's (locate.ts).
  const { observation, spec: named } =
    m.assigned !== undefined && m.identifier(spec) === ""
      ? await locate(env, a, conn, spec, m.assigned)
      : {
          observation:
            justCreated && m.readCreated
              ? await m.readCreated(conn.client, spec, target.region, conn.call)
              : await m.read(conn.client, spec, conn.call),
          spec,
        };
  if (!observation.found) return { observation, found: observation, spec: named };
  const tags = await ownershipTagsOf(env, a, target, observation.observed);
  const judged = judgeOwnership(tags, a.owner);
  // Where AWS cannot tag it, "untagged" means the controller's records name no owner.
  const ownership =
    judged.kind === "untagged" && m.untaggable === true ? { ...judged, by: "record" as const } : judged;
  let unfinished = false;
  // Only kinds whose create can leave an untagged object (createdAt) finish one; for the
  // others an untagged object is never their own create's.
  if (ownership.kind === "untagged" && intent !== undefined && m.createdAt) {
    unfinished =
      (justCreated !== undefined &&
        createdSinceAbsent(
          intent,
          target,
          justCreated.absentAt,
          justCreated.answeredAt,
          env.intentWindowMs,
        )) ||
      unfinishedCreate(intent, target, await m.createdAt(conn.client, named, conn.call), env.intentWindowMs);
  }
  // Untagged by crossrole: ACK's, and approved for takeover? (ack-takeover.ts)
  const ack =
    ownership.kind === "untagged"
      ? judgeAckMade(tags, a.owner, m.kind.service, env.takeover?.approvedUid(takeoverKey(a.owner)))
      : undefined;
  return {
    observation,
    found: { found: true, ownership, unfinishedCreate: unfinished, ...(ack ? { ack } : {}) },
    spec: named,
  };
}
