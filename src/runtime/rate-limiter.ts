// How long a failed work item waits before it is retried. The same three limiters as
// client-go's workqueue (ItemExponentialFailureRateLimiter, BucketRateLimiter, MaxOfRateLimiter),
// combined the way controller-runtime's default is: the per-item backoff and a global token
// bucket, whichever asks for the longer wait. The backoff and the bucket are the toolkit's.
import { backoffDelay } from "../toolkit/backoff.ts";
import { type Clock, systemClock } from "../toolkit/clock.ts";
import { TokenBucket } from "../toolkit/token-bucket.ts";

export interface RateLimiter {
  /** Records one more failure for `key` and returns how long (ms) it should wait before retrying. */
  when(key: string): number;
  /** Clears the failure history of `key` (it succeeded, or no longer matters). */
  forget(key: string): void;
  /** How many failures `key` has had since it was last forgotten. */
  retries(key: string): number;
}

/** Per-item exponential backoff: `baseMs * 2^failures`, capped at `maxMs`. */
export function exponentialFailureRateLimiter(baseMs = 5, maxMs = 1_000_000): RateLimiter {
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = (failures.get(key) ?? 0) + 1;
      failures.set(key, n);
      return backoffDelay({ baseMs, maxMs }, n);
    },
    forget(key) {
      failures.delete(key);
    },
    retries(key) {
      return failures.get(key) ?? 0;
    },
  };
}

/**
 * A global token bucket (`qps` refill, `burst` capacity) shared by all keys, with reservation
 * semantics like golang.org/x/time/rate's Reserve (`TokenBucket.reserve`): every call takes a
 * token, going into debt if none is left, and waits until the debt would be repaid. It bounds the
 * overall retry rate when many items fail at once; it keeps no per-key state.
 */
export function tokenBucketRateLimiter(qps = 10, burst = 100, clock: Clock = systemClock): RateLimiter {
  const bucket = new TokenBucket({ ratePerSecond: qps, burst }, clock);
  return {
    when() {
      return bucket.reserve();
    },
    forget() {},
    retries() {
      return 0;
    },
  };
}

/** Asks every limiter and waits for the longest; `retries` is the largest any of them counts. */
export function maxOfRateLimiter(...limiters: readonly RateLimiter[]): RateLimiter {
  return {
    when(key) {
      let max = 0;
      for (const l of limiters) max = Math.max(max, l.when(key));
      return max;
    },
    forget(key) {
      for (const l of limiters) l.forget(key);
    },
    retries(key) {
      let max = 0;
      for (const l of limiters) max = Math.max(max, l.retries(key));
      return max;
    },
  };
}

export interface DefaultRateLimiterOptions {
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly qps?: number;
  readonly burst?: number;
  readonly clock?: Clock;
}

/** controller-runtime's default: 5 ms·2^n up to 1000 s per item, and 10 qps / 100 burst overall. */
export function defaultControllerRateLimiter(opts: DefaultRateLimiterOptions = {}): RateLimiter {
  return maxOfRateLimiter(
    exponentialFailureRateLimiter(opts.baseDelayMs ?? 5, opts.maxDelayMs ?? 1_000_000),
    tokenBucketRateLimiter(opts.qps ?? 10, opts.burst ?? 100, opts.clock ?? systemClock),
  );
}
