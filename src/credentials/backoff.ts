// Exponential backoff with a cap and jitter. One shape serves both uses: the short retries of
// a throttled STS call (full jitter, so retrying callers spread out) and the long memory of a
// failed chain (seconds growing to minutes, never forever).
import type { Random } from "./types.ts";

export interface BackoffPolicy {
  /** Delay after the first failure. */
  readonly baseMs: number;
  /** The delay never grows beyond this: failures are remembered for a while, never forever. */
  readonly maxMs: number;
  /** Growth per further failure (default 2). */
  readonly factor?: number;
  /**
   * Fraction of the delay that is random, 0..1: the delay is `d * (1 - jitter * random())`.
   * 1 is "full jitter" (anywhere in [0, d]); 0 is deterministic.
   */
  readonly jitter: number;
}

/** Retries of one STS call: 100 ms, 200 ms, 400 ms ... capped at 5 s, full jitter. */
export const defaultStsRetryBackoff: BackoffPolicy = { baseMs: 100, maxMs: 5_000, jitter: 1 };

/** Remembered chain failures: 1 s, 2 s, 4 s ... capped at 5 min, 20 % jitter. */
export const defaultFailureBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 300_000, jitter: 0.2 };

/** The delay after the `failures`-th consecutive failure (1-based). */
export function backoffDelay(policy: BackoffPolicy, failures: number, random: Random): number {
  const exponent = Math.max(0, failures - 1);
  const raw = Math.min(policy.maxMs, policy.baseMs * (policy.factor ?? 2) ** exponent);
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  return raw * (1 - jitter * random());
}
