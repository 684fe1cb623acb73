// Waiting on a condition with a deadline: how tests, the harness and installers synchronise
// (never a fixed sleep). Polls with a short, growing interval.
import { setTimeout as delay } from "node:timers/promises";

export interface WaitOptions {
  /** What is awaited, for the timeout message ("kube-apiserver /readyz"). */
  readonly what: string;
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
}

/**
 * Calls `probe` until it returns a value other than undefined/false, and returns that value.
 * A probe that throws counts as "not yet"; the last error is included in the timeout message.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  opts: WaitOptions,
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let interval = opts.intervalMs ?? 20;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const why = lastError instanceof Error ? `; last error: ${lastError.message}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what}${why}`);
    }
    await delay(Math.min(interval, Math.max(1, deadline - Date.now())));
    interval = Math.min(interval * 2, 500);
  }
}
