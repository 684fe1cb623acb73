// Fencing at each attempt of an AWS call, not only before the call (runtime/fence.ts): the SDK
// retries on its own (throttling, 5xx, timeouts) after a backoff, and a process paused during
// that backoff wakes with the retry due at once, before anything else has run. So every attempt
// the client sends asks the reconcile's fence first; one whose replica may no longer act on the
// namespace fails with FencedError instead of being sent. Outside a reconcile there is no fence
// and nothing is checked.
import type { FinalizeHandler, FinalizeHandlerArguments, MetadataBearer } from "@smithy/types";
import { checkFence } from "../runtime/fence.ts";

/** What the pool needs of an SDK client to fence it (every AWS SDK v3 client has it). */
interface FenceableClient {
  readonly middlewareStack: {
    add(
      middleware: (next: FinalizeHandler<object, MetadataBearer>) => FinalizeHandler<object, MetadataBearer>,
      options: { step: "finalizeRequest"; name: string; priority: "low" },
    ): void;
  };
}

/** Makes every attempt of every call of `client` ask the current reconcile's fence. */
export function fenceEachAttempt(client: unknown): void {
  const stack = (client as Partial<FenceableClient>).middlewareStack;
  stack?.add(
    (next) => async (args: FinalizeHandlerArguments<object>) => {
      checkFence();
      return next(args);
    },
    // Inside the SDK's retry middleware (finalizeRequest, high priority): once per attempt.
    { step: "finalizeRequest", name: "crossroleFence", priority: "low" },
  );
}
