// Step 1: the object from the cache and its decision under the current configuration snapshot
// (decision-memo.ts: resolved once for everything that asks). A decision that changed is said
// once: a log line (decision-tracker.ts) and Events.
import type { Logger } from "pino";
import type { Decision } from "../../resolver/types.ts";
import type { ReconcileContext, ReconcileRequest } from "../../runtime/reconcile.ts";
import { timeStepSync } from "../../toolkit/step-times.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import type { ManagedObject } from "./object-store.ts";

/** The attempt for `req`, or undefined when the object is gone (its records are dropped). */
export function load<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  req: ReconcileRequest,
  ctx?: ReconcileContext,
): Attempt | undefined {
  const obj = env.store.cached(req.namespace, req.name);
  const key = `${req.namespace}/${req.name}`;
  const cacheMayLag = env.selfWrites === undefined || env.selfWrites.awaitingEcho(key);
  if (!obj) {
    env.tracker.forget(key);
    env.selfWrites?.forget(key);
    return undefined;
  }
  const decision = timeStepSync("decision", () => env.decisions.decide(obj, env.config.snapshot()));
  const identityNote = announce(env, obj, key, decision);
  const log = (ctx?.log ?? env.logger) as Logger;
  return {
    ...(identityNote === undefined ? {} : { identityNote }),
    obj,
    decision,
    ref: { namespace: req.namespace, kind: env.kindName, name: req.name },
    key,
    owner: { kind: env.kindName, namespace: req.namespace, name: req.name, uid: obj.metadata.uid ?? "" },
    call: { ...(ctx?.signal ? { signal: ctx.signal } : {}), log },
    log,
    cacheMayLag,
  };
}

/**
 * One log line and Events when the decision changed (DESIGN §3.3, §4). The IdentitySelected
 * Event of an object never placed anywhere is not written here but returned: its first reconcile
 * says it in the Event of the create that follows (one Event, not two, per new resource), or at
 * its end when it creates nothing (settle.ts).
 */
function announce<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  obj: ManagedObject,
  key: string,
  decision: Decision,
): string | undefined {
  if (!env.tracker.record(key, decision)) return undefined;
  let owed: string | undefined;
  if (decision.outcome === "use" && !decision.drift) {
    const last = decision.chain.at(-1);
    const note = `Using ${decision.roleARN ?? "the controller's own credentials"} (${decision.source}${last ? `: ${last.kind} ${last.name}` : ""}) in account ${decision.account ?? "of the caller"}, region ${decision.region}`;
    // Never placed (status is a record: this only decides which Event says it).
    if (obj.status?.ackResourceMetadata?.arn === undefined) owed = note;
    else env.store.event(obj, "Normal", "IdentitySelected", note);
  }
  for (const warning of decision.warnings) env.store.event(obj, "Warning", warning.reason, warning.message);
  return owed;
}
