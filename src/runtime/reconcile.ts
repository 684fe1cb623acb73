// The reconcile contract between the runtime and a kind's controller (controller-runtime's
// pkg/reconcile, in TypeScript):
//   return {}                      → success: forget the failure history; the controller
//                                    reconciles the object again after its resync period;
//   return { requeueAfter: ms }    → reconcile again after ms (failure history forgotten);
//   return { failed: true }        → the object did not reach its desired state (a failure the
//                                    reconciler reported itself, e.g. in status) and waits for a
//                                    change rather than retrying: counted as result "error", so
//                                    reconcile_total{result="success"} means what it says;
//                                    otherwise treated like {} (resync, history forgotten);
//   throw new TerminalError(...)   → failed and retrying cannot help: not requeued (a change to
//                                    the object, or a config change, queues it again);
//   throw anything else            → failed, retry with per-item exponential backoff.
// An error marked reported (ReportedError, or TerminalError's `reported` option) has already been
// said to the user by the reconciler (status, an Event): the runtime logs its message once, at
// info, without a stack trace, and its retries at debug.
import { causeChain } from "../toolkit/cause-chain.ts";
import type { Logger } from "./logger.ts";

export interface Result {
  /** Milliseconds until the object should be reconciled again. */
  readonly requeueAfter?: number;
  /** Reported and not retried: counted as an error, not a success (see the contract above). */
  readonly failed?: boolean;
}

export interface ReconcileRequest {
  /** Work-queue key: "namespace/name", or "name" when cluster-scoped. */
  readonly key: string;
  /** "" for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
}

export interface ReconcileContext {
  /** Aborted when the controller gives up waiting for in-flight work during shutdown. */
  readonly signal: AbortSignal;
  /** Logger with controller, key and reconcileID bound. */
  readonly log: Logger;
  /** Failed attempts since the key last succeeded (0 on a first try). */
  readonly retries: number;
}

export type Reconciler = (req: ReconcileRequest, ctx: ReconcileContext) => Promise<Result>;

const terminalMark = Symbol.for("crossrole.runtime.TerminalError");
const reportedMark = Symbol.for("crossrole.runtime.ReportedError");

/** An error that retrying will not fix (bad spec, forbidden by policy, drift the user must resolve). */
export class TerminalError extends Error {
  readonly [terminalMark] = true;
  readonly [reportedMark]: boolean;
  constructor(message: string, options?: { cause?: unknown; reported?: boolean }) {
    super(message, options);
    this.name = "TerminalError";
    this[reportedMark] = options?.reported === true;
  }
}

/** A failure the reconciler has already reported to the user (status, an Event): retried with backoff. */
export class ReportedError extends Error {
  readonly [reportedMark] = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ReportedError";
  }
}

/** True for an error (or its top-level wrapper) the reconciler has already reported to the user. */
export function isReportedError(err: unknown): boolean {
  return (err as { [reportedMark]?: boolean } | null)?.[reportedMark] === true;
}

/** True for a TerminalError, or an error whose `cause` chain contains one. */
export function isTerminalError(err: unknown): boolean {
  for (const e of causeChain(err))
    if ((e as { [terminalMark]?: boolean })[terminalMark] === true) return true;
  return false;
}
