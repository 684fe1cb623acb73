// Reconciles one managed AWS resource (any kind with a ServiceModule), ACK-style, as steps that
// each return an Outcome (result.ts); the decisions between them are pure (reconcile-plan.ts,
// ownership.ts, create-intent.ts), and every Kubernetes read and write goes through the
// ObjectStore (object-store.ts):
//
//   load → prepare → converge  → settle      (the object is live)
//   load →           finalize  → settle      (the object is being deleted)
//
// Safety rules (DESIGN §3.4–3.5, src/controller/README.md): nothing is called in AWS unless the
// decision is a clean `use`; status is a record, never an input (it can only stop a reconcile);
// the tags on the AWS object, not status, decide whether it is ours to update or delete.
import type { ReconcileContext, ReconcileRequest, Result } from "../../runtime/reconcile.ts";
import type { Attempt } from "./attempt.ts";
import { converge } from "./converge.ts";
import { type Env, envOf, type ReconcilerDeps } from "./env.ts";
import { objectGone } from "./failure.ts";
import { finalize } from "./finalize.ts";
import { load } from "./load.ts";
import { prepare } from "./prepare.ts";
import { failed, isOutcome, type Outcome } from "./result.ts";
import { settle } from "./settle.ts";

export function createResourceReconciler<Spec extends object, Observed, Client>(
  deps: ReconcilerDeps<Spec, Observed, Client>,
): (req: ReconcileRequest, ctx?: ReconcileContext) => Promise<Result> {
  const env = envOf(deps);
  return async function reconcile(req: ReconcileRequest, ctx?: ReconcileContext): Promise<Result> {
    const a = load(env, req, ctx);
    if (a === undefined) return {};
    if (!a.owner.uid) {
      // Every stored object has a UID; without one nothing could prove an AWS object ours.
      return settle(
        env,
        a,
        failed({ kind: "recoverable", reason: "NoUID", message: "the object has no metadata.uid" }),
      );
    }
    try {
      const outcome = a.obj.metadata.deletionTimestamp ? await finalize(env, a) : await sync(env, a);
      return await settle(env, a, outcome);
    } catch (err) {
      if (!objectGone(err)) throw err;
      // Deleted and released meanwhile (by another controller): nothing left to reconcile, but
      // what this attempt's create made must not stay behind.
      await a.onGone?.();
      env.tracker.forget(a.key);
      env.selfWrites?.forget(a.key);
      return {};
    }
  };
}

async function sync<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<Outcome> {
  const prepared = await prepare(env, a);
  return isOutcome(prepared) ? prepared : converge(env, a, prepared);
}
