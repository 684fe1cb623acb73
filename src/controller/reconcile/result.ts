// How a step of the reconcile ended: the one result type every step returns and only settle.ts
// turns into status (written once per reconcile, there), Events and the runtime's Result. A step that can end the reconcile returns
// `T | Outcome`; the caller returns the Outcome as it is (isOutcome) and goes on with the T.
import type { FailureState, SyncState } from "../ack-conditions.ts";
import type { AckResourceMetadata } from "./object-store.ts";

/** What settle.ts writes to status for an outcome that is no failure (synced, or on its way). */
export interface StatusRecord {
  readonly state: SyncState;
  readonly metadata?: AckResourceMetadata;
  readonly extra?: Readonly<Record<string, unknown>>;
}

export type Outcome =
  /**
   * Nothing wrong (synced, or on its way): `status` is what settle writes (nothing when absent);
   * look again after requeueAfterMs.
   */
  | { readonly kind: "done"; readonly requeueAfterMs?: number; readonly status?: StatusRecord }
  | {
      readonly kind: "failed";
      readonly state: FailureState;
      /** backoff: retry with the queue's backoff; none: wait for a change; a number: requeue after. */
      readonly retry: "backoff" | "none" | number;
      readonly cause?: unknown;
      /** Status fields to write with the failure (e.g. a refused create's intent cleared). */
      readonly status?: Readonly<Record<string, unknown>>;
    };

export type Failed = Extract<Outcome, { readonly kind: "failed" }>;

export const done: Outcome = { kind: "done" };

/** Done for now; look again after `ms` (AWS still working, a create that may still land). */
export function requeue(ms: number, status?: StatusRecord): Outcome {
  return { kind: "done", requeueAfterMs: ms, ...(status ? { status } : {}) };
}

/** Done, with what status records of it. */
export function settled(status: StatusRecord): Outcome {
  return { kind: "done", status };
}

/** A failure; by default a terminal one waits for a change and any other backs off. */
export function failed(state: FailureState, retry?: "backoff" | "none" | number, cause?: unknown): Failed {
  return {
    kind: "failed",
    state,
    retry: retry ?? (state.kind === "terminal" ? "none" : "backoff"),
    ...(cause === undefined ? {} : { cause }),
  };
}

export function isOutcome(v: unknown): v is Outcome {
  const kind = (v as { kind?: unknown } | null)?.kind;
  return kind === "done" || kind === "failed";
}
