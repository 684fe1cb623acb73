// What every AWS call of a service module carries from the reconcile that made it: the abort
// signal (controller shutdown aborts calls in flight instead of abandoning them) and a logger
// bound to the reconcile ID, so one reconcile's AWS calls can be read together in the logs.
import type { Logger } from "pino";

export interface CallContext {
  readonly signal?: AbortSignal;
  readonly log?: Pick<Logger, "debug">;
}

/** For callers outside a reconcile (tests, the CLI): no abort, no logging. */
export const noCallContext: CallContext = {};
