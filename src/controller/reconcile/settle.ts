// The last step of every reconcile: its Outcome (result.ts) as the runtime's Result, and the one
// place status is written (only when it changed): where it is (synced, on its way) with what it
// records, or a failure (conditions, and any fields it carries) with a Warning Event, which then
// ends as a TerminalError (not retried), a Reported error (backoff) or a requeue.
import { type Result as ReconcileResult, ReportedError, TerminalError } from "../../runtime/reconcile.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import type { Outcome } from "./result.ts";
import { writeStatus } from "./status.ts";

export async function settle<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  outcome: Outcome,
): Promise<ReconcileResult> {
  // The identity Event a create would have carried, when this reconcile created nothing.
  if (a.identityNote !== undefined) {
    env.store.event(a.obj, "Normal", "IdentitySelected", a.identityNote);
    a.identityNote = undefined;
  }
  if (outcome.kind === "done") {
    const s = outcome.status;
    if (s) await writeStatus(env, a, s.state, s.metadata, s.extra);
    return outcome.requeueAfterMs === undefined ? {} : { requeueAfter: outcome.requeueAfterMs };
  }
  const { state, retry, cause } = outcome;
  await writeStatus(env, a, state, undefined, outcome.status);
  env.store.event(a.obj, "Warning", state.reason, state.message);
  a.log.debug(
    { resource: `${env.kindName} ${a.key}`, reason: state.reason, err: state.message },
    "reconcile failed (reported in status)",
  );
  // Already said in status and the Event: the runtime logs the message, not a stack trace.
  if (state.kind === "terminal") throw new TerminalError(state.message, { cause, reported: true });
  if (retry === "backoff") throw new ReportedError(state.message, { cause });
  // Not retried (a denied identity waits for a configuration change): still not a success.
  return retry === "none" ? { failed: true } : { requeueAfter: retry };
}
