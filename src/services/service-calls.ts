// How every service module makes its AWS calls, so that the five cannot drift apart: the call
// is logged as "<service>:<operation>" with the object's name under the service's own key, and
// a failure becomes the service's error for that operation on that object. Each service says
// once which failures mean "not there" and which classifyError it has (errors.ts); its CRUD file
// then states only which command to send and what the answer means.
import { isFencedError } from "../runtime/fence.ts";
import { awsCall, type CallContext, type SendOptions } from "./call-context.ts";

/** What a service's classifyError is told: the operation, the object's name under `Key`, and more. */
export type ErrorContextOf<Key extends string> = { readonly operation: string } & Readonly<
  Record<Key, string>
>;

/** What a service tells serviceCalls about itself. */
export interface ServiceCallRules<Key extends string, Context extends ErrorContextOf<Key>> {
  /** The action prefix in logs: "sqs". */
  readonly service: string;
  /** The key naming the object, in logs and in the error context: "queue". */
  readonly object: Key;
  /** Whether a failure says the object is not there (it never existed or is gone). */
  readonly isGone: (err: unknown) => boolean;
  /** The service's classifyError. */
  readonly classify: (err: unknown, context: Context) => Error;
}

export type Send<T> = (options: SendOptions) => Promise<T>;

/** The service calls of one service; `Detail` is what a call site adds to the error context. */
export interface ServiceCalls<Operation extends string, Detail> {
  /** One call, logged and aborted with the reconcile; failures are left to the caller. */
  call<T>(ctx: CallContext, operation: Operation, name: string, run: Send<T>): Promise<T>;
  /** One call whose failure is thrown as the service's error, told `detail` (e.g. the spec field). */
  send<T>(ctx: CallContext, operation: Operation, name: string, run: Send<T>, detail?: Detail): Promise<T>;
  /** As send, but undefined when the failure is one `expected` recognises (e.g. already exists). */
  sendUnless<T>(
    expected: (err: unknown) => boolean,
    ctx: CallContext,
    operation: Operation,
    name: string,
    run: Send<T>,
    detail?: Detail,
  ): Promise<T | undefined>;
  /** As send, but undefined when the object is not there. */
  sendUnlessGone<T>(
    ctx: CallContext,
    operation: Operation,
    name: string,
    run: Send<T>,
    detail?: Detail,
  ): Promise<T | undefined>;
  /** A delete: "not-found" when the object was already gone. */
  deleteUnlessGone(
    ctx: CallContext,
    operation: Operation,
    name: string,
    run: Send<unknown>,
    detail?: Detail,
  ): Promise<"deleted" | "not-found">;
}

export function serviceCalls<Key extends string, Context extends ErrorContextOf<Key>>(
  rules: ServiceCallRules<Key, Context>,
): ServiceCalls<Context["operation"], Omit<Context, "operation" | Key>> {
  // The context classifyError gets: as the errors.ts of every service spells it.
  const context = (operation: string, name: string, detail: object | undefined) =>
    ({ operation, [rules.object]: name, ...detail }) as unknown as Context;
  const calls: ServiceCalls<Context["operation"], Omit<Context, "operation" | Key>> = {
    call: (ctx, operation, name, run) =>
      awsCall(ctx, `${rules.service}:${operation}`, { [rules.object]: name }, run),
    send: async (ctx, operation, name, run, detail) => {
      try {
        return await calls.call(ctx, operation, name, run);
      } catch (err) {
        // Fenced (runtime/fence.ts): nothing of AWS's to describe; the reconcile ends as it is.
        if (isFencedError(err)) throw err;
        throw rules.classify(err, context(operation, name, detail));
      }
    },
    sendUnless: async (expected, ctx, operation, name, run, detail) => {
      try {
        return await calls.call(ctx, operation, name, run);
      } catch (err) {
        if (isFencedError(err)) throw err;
        if (expected(err)) return undefined;
        throw rules.classify(err, context(operation, name, detail));
      }
    },
    sendUnlessGone: (ctx, operation, name, run, detail) =>
      calls.sendUnless(rules.isGone, ctx, operation, name, run, detail),
    deleteUnlessGone: async (ctx, operation, name, run, detail) => {
      const deleted = async (options: SendOptions) => {
        await run(options);
        return "deleted" as const;
      };
      return (await calls.sendUnless(rules.isGone, ctx, operation, name, deleted, detail)) ?? "not-found";
    },
  };
  return calls;
}
