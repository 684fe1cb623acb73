// What every AWS call of a service module carries from the reconcile that made it: the abort
// signal (controller shutdown aborts calls in flight instead of abandoning them) and a logger
// bound to the reconcile ID, so one reconcile's AWS calls can be read together in the logs; and,
// once the reconcile knows the account it acts in, on whose behalf the calls are made (the
// resource, account, role) for the audit line each write gets (credentials/aws-call-observer.ts).
import type { Logger } from "pino";
import { type AwsCallSubject, withCallSubject } from "../credentials/aws-call-subject.ts";
import { checkFence } from "../runtime/fence.ts";
import { timeStep } from "../toolkit/step-times.ts";

export interface CallContext {
  readonly signal?: AbortSignal;
  readonly log?: Pick<Logger, "debug">;
  readonly subject?: AwsCallSubject;
}

/** For callers outside a reconcile (tests, the CLI): no abort, no logging. */
export const noCallContext: CallContext = {};

/** What an SDK `send` takes from a reconcile: its abort signal. */
export type SendOptions = { abortSignal?: AbortSignal };

/**
 * One AWS call of a reconcile: refused before it is sent when the reconcile's replica was fenced
 * meanwhile (runtime/fence.ts), logged at debug with the action and what it names (never a
 * value), aborted with the reconcile's signal.
 */
export async function awsCall<T>(
  ctx: CallContext,
  action: string,
  names: Readonly<Record<string, string>>,
  run: (options: SendOptions) => Promise<T>,
): Promise<T> {
  checkFence();
  ctx.log?.debug({ aws: action, ...names }, "aws call");
  return timeStep("aws", () =>
    withCallSubject(ctx.subject, () => run(ctx.signal ? { abortSignal: ctx.signal } : {})),
  );
}
