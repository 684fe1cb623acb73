// Step 3 of a deletion: plan (read-only and retain need no identity) → connect → [locked]
// observe → delete only what this object owns → drop the finalizer. A create of this object's
// that may still land holds the object (DeletePending) until it lands and is deleted, or its
// window closes; what is not ours is never deleted, and says so in a Retained Event.
import { hasFinalizer } from "../../runtime/finalizers.ts";
import { pendingCreate } from "../create-intent.ts";
import { planDelete, planFinalize } from "../reconcile-plan.ts";
import { deletionInUse } from "../references.ts";
import type { Attempt } from "./attempt.ts";
import { connectInRecordedAccount, lockKey, targetOf } from "./connect.ts";
import type { Env } from "./env.ts";
import { awsFailure, objectGone } from "./failure.ts";
import { intentIn, pollUntil } from "./intent.ts";
import { observe } from "./observe.ts";
import { policiesOf, specOf } from "./prepare.ts";
import { done, failed, isOutcome, type Outcome, requeue } from "./result.ts";
import { writeStatus } from "./status.ts";

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
    return release(env, a);
  }
  if (plan.do === "blocked") {
    if (plan.state.kind === "terminal") return failed(plan.state);
    return failed(plan.state, plan.requeue ? env.waitRequeueMs : "none");
  }
  // A referenced object (a subnet group) outlives its referrers in AWS (references.ts).
  const referrersOf = env.references?.referrersOf;
  const inUse = referrersOf
    ? deletionInUse(
        referrersOf(env.kindName, a.ref.namespace, a.ref.name),
        `${env.kindName} ${a.ref.namespace}/${a.ref.name}`,
        a.decision.account,
      )
    : null;
  if (inUse) return failed(inUse, env.waitRequeueMs);
  const given = specOf(env, a, policies);
  if (isOutcome(given)) return given;
  const { spec } = given;
  const conn = await connectInRecordedAccount(env, a, true);
  if (isOutcome(conn)) return conn;
  const target = targetOf(env, spec, conn.account, a.decision.region ?? "");
  try {
    const outcome = await env.locks.run(lockKey(env, target), async (): Promise<Outcome | null> => {
      const recorded = await intentIn(env, a);
      if (isOutcome(recorded)) return recorded;
      const intent = recorded.kind === "verified" ? recorded.intent : undefined;
      const readAt = env.now();
      // Whether or not an ARN was ever recorded: look the name up in the decided account.
      const { found } = await observe(env, a, conn, spec, target, intent);
      const del = planDelete(found, target, pendingCreate(intent, target, readAt, env.intentWindowMs));
      if (del.do === "await") {
        await writeStatus(env, a, del.state);
        return requeue(pollUntil(env, del.until));
      }
      if (del.do === "keep") {
        env.store.event(a.obj, "Normal", "Retained", `Not deleted in AWS: ${del.why}`);
        return null;
      }
      if (del.do === "gone") return null;
      const result = await env.module.delete(conn.client, spec, conn.call, a.obj.metadata.annotations ?? {});
      env.store.event(
        a.obj,
        "Normal",
        "Deleted",
        `Deleted ${env.module.arn(spec, target.region, target.account)} in account ${target.account}${result === "not-found" ? " (it was already gone)" : ""}`,
      );
      return null;
    });
    if (outcome) return outcome;
  } catch (err) {
    if (objectGone(err)) throw err;
    return awsFailure(env, err, spec, "DeleteFailed");
  }
  return release(env, a);
}

/** Lets the object go: the finalizer dropped, and this controller's records of it with it. */
async function release<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<Outcome> {
  await env.store.removeFinalizer(a.obj, env.finalizer, a.call.signal);
  env.tracker.forget(a.key);
  env.selfWrites?.forget(a.key);
  return done;
}
