// Step 3 of a deletion: plan (read-only and retain need no identity) → connect → [locked]
// observe → delete only what this object owns → drop the finalizer. A create of this object's
// that may still land holds the object (DeletePending) until it lands and is deleted, or its
// window closes; what is not ours is never deleted, and says so in a Retained Event.
import { hasFinalizer } from "../../runtime/finalizers.ts";
import type { FailureState } from "../ack-conditions.ts";
import { type CreateIntent, pendingCreate } from "../create-intent.ts";
import { planDelete, planFinalize, type Target } from "../reconcile-plan.ts";
import { tombstoneFor } from "../records/tombstones.ts";
import { deletionInUse } from "../references.ts";
import type { Attempt } from "./attempt.ts";
import { connectInRecordedAccount, lockKey, targetOf } from "./connect.ts";
import type { Env } from "./env.ts";
import { awsFailure, endsReconcile } from "./failure.ts";
import { intentIn, pollUntil } from "./intent.ts";
import { observe } from "./observe.ts";
import { ownedObjectAt } from "./ownership-of.ts";
import { policiesOf, specOf } from "./prepare.ts";
import { done, failed, isOutcome, type Outcome, requeue } from "./result.ts";

export async function finalize<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<Outcome> {
  if (!hasFinalizer(a.obj, env.finalizer)) return done;
  const policies = policiesOf(env, a);
  if (isOutcome(policies)) return policies;
  const plan = planFinalize(policies, a.decision);
  if (plan.do === "release") {
    env.store.event(a.obj, "Normal", "Retained", `Not deleted in AWS: ${plan.why}`);
    return release(env, a, "retained");
  }
  if (plan.do === "blocked") {
    if (plan.state.kind === "terminal") return failed(plan.state);
    return failed(plan.state, plan.requeue ? env.waitRequeueMs : "none");
  }
  const given = specOf(env, a, policies);
  if (isOutcome(given)) return given;
  const { spec } = given;
  const conn = await connectInRecordedAccount(env, a, true);
  if (isOutcome(conn)) return conn;
  // A referenced object (a subnet group) outlives the referrers placed in it in AWS (references.ts).
  const inUse = await heldByReferrers(env, a, conn.account);
  if (inUse) return failed(inUse, env.waitRequeueMs);
  const target = targetOf(env, a, spec, conn.account, a.decision.region ?? "");
  try {
    const outcome = await env.locks.run(lockKey(env, target), async (): Promise<Outcome | null> => {
      const recorded = await intentIn(env, a);
      if (isOutcome(recorded)) return recorded;
      const intent = recorded.kind === "verified" ? recorded.intent : undefined;
      const readAt = env.now();
      // Whether or not an ARN was ever recorded: look the name up in the decided account.
      // Named by an ID AWS assigned: the spec naming the object found (locate.ts).
      const { found, spec: named } = await observe(env, a, conn, spec, target, intent);
      const del = planDelete(found, target, pendingCreate(intent, target, readAt, env.intentWindowMs));
      if (del.do === "await") return requeue(pollUntil(env, del.until), { state: del.state });
      if (del.do === "keep") {
        env.store.event(a.obj, "Normal", "Retained", `Not deleted in AWS: ${del.why}`);
        return null;
      }
      if (del.do === "delete") {
        const result = await env.module.delete(
          conn.client,
          named,
          conn.call,
          a.obj.metadata.annotations ?? {},
        );
        env.store.event(
          a.obj,
          "Normal",
          "Deleted",
          `Deleted ${env.module.arn(named, target.region, target.account)} in account ${target.account}${result === "not-found" ? " (it was already gone)" : ""}`,
        );
      }
      // A create this object never saw confirmed may still land after it is let go.
      if (intent) await keepTombstone(env, a, intent, target);
      return null;
    });
    if (outcome) return outcome;
  } catch (err) {
    if (endsReconcile(err)) throw err;
    return awsFailure(env, err, spec, "DeleteFailed");
  }
  return release(env, a, target);
}

/**
 * Keeps a tombstone of an unconfirmed create intent for as long as its create can still land
 * (records/tombstones.ts): the records controller deletes what it makes then.
 */
async function keepTombstone<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  intent: CreateIntent,
  target: Target,
): Promise<void> {
  if (env.tombstones === undefined) return;
  if (
    intent.name !== target.name ||
    intent.ownerAccountID !== target.account ||
    intent.region !== target.region
  )
    return;
  const { group, version } = env.resourceType;
  const tombstone = tombstoneFor(
    {
      apiVersion: group === "" ? version : `${group}/${version}`,
      owner: a.owner,
      ...(a.obj.metadata.labels ? { labels: a.obj.metadata.labels } : {}),
      ...(a.obj.metadata.annotations ? { annotations: a.obj.metadata.annotations } : {}),
      spec: a.obj.spec,
      decision: a.decision,
    },
    intent,
    env.now(),
    env.intentWindowMs,
  );
  if (tombstone) await env.tombstones.keep(tombstone, a.call.signal);
}

/**
 * Why the deletion waits for referrers the controller placed in this object in AWS (references.ts,
 * deletionInUse), or null. The records are read from the apiserver, and only when someone
 * references the object at all.
 */
async function heldByReferrers<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  account: string,
): Promise<FailureState | null> {
  const refs = env.references;
  if (refs?.referrersOf === undefined) return null;
  // A resource naming itself (a security group's rule) holds nothing of its own deletion.
  const referrers = refs
    .referrersOf(env.kindName, a.ref.namespace, a.ref.name)
    ?.filter((r) => r.uid !== a.owner.uid);
  const uses =
    referrers === undefined || referrers.length === 0 || refs.uses === undefined
      ? new Map()
      : await refs.uses.of(a.owner.uid, a.call.signal);
  return deletionInUse(referrers, uses, `${env.kindName} ${a.ref.namespace}/${a.ref.name}`, {
    account,
    region: a.decision.region ?? "",
  });
}

/** Lets the object go: the finalizer dropped, and this controller's records of it with it. */
async function release<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  /**
   * Where its object was when the deletion looked (deleted, gone, or another's: the record of an
   * untaggable one is asked for there), or "retained": kept in AWS by its policy.
   */
  object: Target | "retained",
): Promise<Outcome> {
  // Its uses of references and its record as a referenced object go first: kept, they hold nothing.
  await env.references?.uses?.forgetReferrer(a.owner.uid, new Set(), a.call.signal);
  await env.references?.uses?.forgetReferenced(a.owner.uid, a.call.signal);
  // An untaggable object it owned: its record goes with it, or, retained, stays as its tags would.
  if (env.module.untaggable === true && object === "retained")
    await env.owned?.retain(a.owner.uid, a.call.signal);
  else if (env.module.untaggable === true && object !== "retained")
    await env.owned?.forget(a.owner.uid, ownedObjectAt(env, object), a.call.signal);
  await env.store.removeFinalizer(a.obj, env.finalizer, a.call.signal);
  env.tracker.forget(a.key);
  env.selfWrites?.forget(a.key);
  return done;
}
