// Calls the SDK must not send again on its own: a create whose object AWS names (KMS's CreateKey
// answers a new key's ID; nothing makes a second call find the first key). The SDK retries a
// call that timed out or answered 5xx, though AWS may have done it: for such a create that is a
// second object, tagged as the same resource's, which nothing would ever delete. So after a
// failed attempt of one of these calls, a retry is not sent: it fails at once with the first
// attempt's error, and the reconcile decides (its create intent, reconcile/locate.ts's search
// by tag), as for any create whose answer was lost.
import type { FinalizeHandler, FinalizeHandlerArguments, MetadataBearer } from "@smithy/types";

interface StackedClient {
  readonly middlewareStack: {
    add(
      middleware: (
        next: FinalizeHandler<object, MetadataBearer>,
        context: { readonly commandName?: string },
      ) => FinalizeHandler<object, MetadataBearer>,
      options: { step: "finalizeRequest"; name: string; priority: "low" },
    ): void;
  };
}

/** `client`'s calls of `operations` (`CreateKey`) are sent at most once per call. */
export function sendOnce<C>(client: C, operations: readonly string[]): C {
  const once = new Set(operations.map((o) => `${o}Command`));
  (client as Partial<StackedClient>).middlewareStack?.add(
    (next, context) => {
      if (!once.has(context.commandName ?? "")) return next;
      // One handler per call: the first attempt's failure answers every retry, unsent.
      let failed: { readonly error: unknown } | undefined;
      return async (args: FinalizeHandlerArguments<object>) => {
        if (failed !== undefined) throw failed.error;
        try {
          return await next(args);
        } catch (error) {
          failed = { error };
          throw error;
        }
      };
    },
    // Inside the SDK's retry middleware (finalizeRequest, high priority): once per attempt.
    { step: "finalizeRequest", name: "crossrole:sendOnce", priority: "low" },
  );
  return client;
}
