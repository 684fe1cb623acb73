// What status records, written only when it changed: ACK's conditions for where the reconcile
// is (ack-conditions.ts), status.ackResourceMetadata for the decided target, and kind fields.
// Steps say it in their Outcome (result.ts); settle.ts writes it, once per reconcile. Never what
// the kind's own CRD refuses (write-check.ts).

import { partitionOf } from "../../resolver/known-regions.ts";
import { conditionsEqual } from "../../runtime/conditions.ts";
import { canonicalJson } from "../../toolkit/canonical-json.ts";
import { timeStepSync } from "../../toolkit/step-times.ts";
import { iamRoleSelectedFor, nextConditions, type SyncState } from "../ack-conditions.ts";
import type { Target } from "../reconcile-plan.ts";
import { checkStatusWrite, WriteRefused } from "../write-check.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import type { AckResourceMetadata } from "./object-store.ts";
import { type Outcome, requeue } from "./result.ts";

/**
 * Whether `wanted` is what the apiserver already stores. The apiserver hands objects back with
 * keys sorted and prunes nulls (the schema declares no nullable status field), so a plain
 * JSON.stringify comparison saw a change on every reconcile and patched status each time.
 */
function sameAsStored(wanted: unknown, stored: unknown): boolean {
  return (
    canonicalJson(wanted, { omitNullMembers: true }) === canonicalJson(stored, { omitNullMembers: true })
  );
}

/**
 * The status to write for `state`, or undefined when the stored one already says it all. Throws
 * WriteRefused for what the kind's own CRD refuses: a 422 would come back on every retry.
 */
function statusToWrite<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  state: SyncState,
  metadata: AckResourceMetadata | undefined,
  extra: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  const stored = a.obj.status;
  const conditions = nextConditions(
    stored?.conditions,
    state,
    iamRoleSelectedFor(a.decision),
    a.obj.metadata.generation,
    env.now(),
    a.decision.warnings,
    env.module.lateInitializes === true,
    a.references,
  );
  const metaChanged = metadata !== undefined && !sameAsStored(metadata, stored?.ackResourceMetadata);
  const extraChanged =
    extra !== undefined && Object.entries(extra).some(([k, v]) => !sameAsStored(v, stored?.[k]));
  if (conditionsEqual(stored?.conditions, conditions) && !metaChanged && !extraChanged) return undefined;
  const status = { conditions, ...(metadata ? { ackResourceMetadata: metadata } : {}), ...extra };
  const refused = checkStatusWrite({ kind: env.kindName, parseStatus: env.module.parseStatus, status });
  if (refused) throw new WriteRefused(refused);
  return status;
}

/** Writes conditions (and metadata, extra fields) only when something changed (settle.ts). */
export async function writeStatus<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  state: SyncState,
  metadata?: AckResourceMetadata,
  extra?: Readonly<Record<string, unknown>>,
): Promise<void> {
  const status = timeStepSync("comparison", () => statusToWrite(env, a, state, metadata, extra));
  if (status === undefined) return;
  // The answer carries the new resourceVersion the finalizer patches are checked against.
  a.obj = await env.store.writeStatus(a.obj, status, false, a.call.signal);
  env.selfWrites?.record(a.key, a.obj);
}

/** status.ackResourceMetadata for the decided target: ARN, account, region, identity. */
export function metadataAt<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
  target: Target,
  /** What AWS has, where read: its answered ARN, for a kind whose ARN cannot be composed. */
  observed?: Observed,
): AckResourceMetadata {
  const decision = a.decision;
  const last = decision.chain.at(-1);
  const answered = observed === undefined ? undefined : env.module.answeredArn?.(observed);
  return {
    // No ARN before AWS named the object (a KMS key not made yet).
    ...(env.module.assigned !== undefined && env.module.identifier(spec) === ""
      ? {}
      : { arn: answered ?? env.module.arn(spec, target.region, target.account) }),
    ownerAccountID: target.account,
    region: target.region,
    partition: partitionOf(target.region),
    ...(decision.selector
      ? {
          iamRoleSelector: {
            selectorName: decision.selector.name,
            resourceVersion: decision.selector.resourceVersion,
          },
        }
      : {}),
    identity: {
      source: decision.source ?? "default",
      roleARN: decision.roleARN,
      sessionName: last?.parameters.sessionName ?? null,
    },
  };
}

/** While AWS is working on the object: progressing status with AWS's words, a later look. */
export function whileBusy<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
  target: Target,
  observed: Observed,
  extraStatus: Readonly<Record<string, unknown>>,
): Outcome | undefined {
  const busy = env.module.busy?.(observed);
  if (!busy) return undefined;
  return requeue(busy.requeueAfterMs ?? 10_000, {
    state: { kind: "progressing", reason: busy.reason, message: busy.message },
    metadata: metadataAt(env, a, spec, target, observed),
    extra: { ...extraStatus, ...env.module.statusFrom?.(observed) },
  });
}
