// Exponential backoff with a cap and jitter: one policy shape for every retry in crossrole —
// list/watch reconnects and leader-election retries (runtime), the work queue's per-item delay,
// a throttled STS call's retries and a failed credential chain's memory (credentials).
// `backoffDelay` computes the n-th delay of a policy; `Backoff` counts the failures for a loop
// that keeps its own state in one place.

/** A number in [0, 1); injected so jitter is reproducible in tests. */
export type Random = () => number;

export interface BackoffPolicy {
  /** Delay after the first failure. */
  readonly baseMs: number;
  /** The delay never grows beyond this (before jitter): a failure is remembered for a while, never forever. */
  readonly maxMs: number;
  /** Growth per further failure (default 2). */
  readonly factor?: number;
  /** Fraction of the delay that is random (default 0: deterministic). See `jitterMode`. */
  readonly jitter?: number;
  /**
   * Which way jitter moves a delay `d` (default "shorten"):
   *   - "shorten": `d · (1 − jitter · random())`, in (d·(1 − jitter), d]; jitter is capped at 1,
   *     where it is AWS's "full jitter" (anywhere in [0, d]). A delay never exceeds the policy's.
   *   - "lengthen": `d · (1 + jitter · random())`, in [d, d·(1 + jitter)) (client-go's
   *     wait.Jitter). A delay is never shorter than the policy's.
   */
  readonly jitterMode?: "shorten" | "lengthen";
}

/**
 * The delay (ms) after the `failures`-th consecutive failure (1-based: the first failure waits
 * `baseMs`). `random` is called once per delay, even without jitter.
 */
export function backoffDelay(policy: BackoffPolicy, failures: number, random: Random = Math.random): number {
  const exponent = Math.max(0, failures - 1);
  const grown = policy.baseMs * (policy.factor ?? 2) ** exponent;
  // Growth overflows to Infinity long before it matters; the cap handles it.
  const raw = Math.min(grown, policy.maxMs);
  const jitter = Math.max(0, policy.jitter ?? 0);
  const r = random();
  return policy.jitterMode === "lengthen" ? raw * (1 + jitter * r) : raw * (1 - Math.min(1, jitter) * r);
}

/**
 * client-go's reflector backoff: 800 ms doubling to 30 s, each delay lengthened by up to 100 %
 * so many informers do not reconnect in lockstep after an apiserver restart. `Backoff`'s defaults.
 */
export const reconnectBackoff: BackoffPolicy = {
  baseMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  jitterMode: "lengthen",
};

/** A policy in part (the rest from `reconnectBackoff`) and the randomness for its jitter. */
export interface BackoffOptions extends Partial<BackoffPolicy> {
  readonly random?: Random;
}

/** A running backoff: counts consecutive failures and says how long to wait after each. */
export class Backoff {
  readonly #policy: BackoffPolicy;
  readonly #random: Random;
  #failures = 0;

  /** Fields `opts` leaves out come from `reconnectBackoff`. */
  constructor(opts: BackoffOptions = {}) {
    this.#policy = {
      baseMs: opts.baseMs ?? reconnectBackoff.baseMs,
      maxMs: opts.maxMs ?? reconnectBackoff.maxMs,
      factor: opts.factor ?? reconnectBackoff.factor,
      jitter: opts.jitter ?? reconnectBackoff.jitter,
      jitterMode: opts.jitterMode ?? reconnectBackoff.jitterMode,
    };
    this.#random = opts.random ?? Math.random;
  }

  /** Records one more failure and returns the delay (ms) before the next attempt. */
  next(): number {
    this.#failures++;
    return backoffDelay(this.#policy, this.#failures, this.#random);
  }

  /** Back to the base delay (after a success or a healthy period). */
  reset(): void {
    this.#failures = 0;
  }

  /** Consecutive failures since the last reset. */
  get failures(): number {
    return this.#failures;
  }
}
