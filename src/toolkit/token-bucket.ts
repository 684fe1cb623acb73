// A token bucket: `burst` tokens, refilled at `ratePerSecond`, read on an injected clock. Two
// ways to spend a token, for two kinds of caller:
//   - `take()` (the STS limiter): waits, in arrival order, until a token is there, and counts it
//     at the moment the caller is let through (not reserved ahead). So in any window of length w
//     at most `burst + ratePerSecond · w` callers start — even after the event loop stalled, when
//     callers that had reserved slots ahead of time would all start together.
//   - `reserve()` (the work queue's retry limiter): takes a token at once, going into debt when
//     none is left, and says how long the caller should wait until the debt is repaid
//     (golang.org/x/time/rate's Reserve, as client-go's BucketRateLimiter uses it). It never waits.
// Use one of the two per bucket: `reserve` does not queue behind waiting `take`s.
import { type Clock, type Sleep, sleep, systemClock } from "./clock.ts";

export interface RateLimit {
  /** Sustained tokens per second. */
  readonly ratePerSecond: number;
  /** Tokens that may be spent at once after a quiet period (the bucket's size). */
  readonly burst: number;
}

interface Waiter {
  readonly since: number;
  readonly resolve: (waitedMs: number) => void;
}

export class TokenBucket {
  readonly #rate: number;
  readonly #burst: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #waiting: Waiter[] = [];
  #tokens: number;
  #updatedAt: number;
  #timer = false;

  /**
   * `sleep` is how `take()` waits: by default a timer on `clock` (a `FakeClock` then waits for
   * the test to advance it; the system clock's timers are unref'd, so pass `systemSleep` where
   * a waiting caller must keep the process alive).
   */
  constructor(limit: RateLimit, clock: Clock = systemClock, sleepFn?: Sleep) {
    if (!(limit.ratePerSecond > 0) || !(limit.burst >= 1)) {
      throw new RangeError(
        `a token bucket needs ratePerSecond > 0 and burst >= 1 (got ${limit.ratePerSecond}/${limit.burst})`,
      );
    }
    this.#rate = limit.ratePerSecond;
    this.#burst = limit.burst;
    this.#clock = clock;
    this.#sleep = sleepFn ?? ((ms) => sleep(clock, ms));
    this.#tokens = limit.burst;
    this.#updatedAt = clock.now();
  }

  /** Resolves when the caller may go; returns how long it waited (ms, 0 if a token was ready). */
  take(): Promise<number> {
    const now = this.#refill();
    if (this.#waiting.length === 0 && this.#tokens >= 1) {
      this.#tokens -= 1;
      return Promise.resolve(0);
    }
    return new Promise<number>((resolve) => {
      this.#waiting.push({ since: now, resolve });
      this.#schedule();
    });
  }

  /**
   * Takes a token now, going into debt if none is left, and returns how long (ms) the caller
   * should wait before acting: 0 while tokens last, then 1/rate more for each token of debt.
   */
  reserve(): number {
    this.#refill();
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.#rate) * 1000;
  }

  /** Callers waiting in `take()`. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #refill(): number {
    const now = this.#clock.now();
    const elapsedMs = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.#burst, this.#tokens + (elapsedMs / 1000) * this.#rate);
    this.#updatedAt = now;
    return now;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = true;
    const wait = Math.max(0, ((1 - this.#tokens) / this.#rate) * 1000);
    void this.#sleep(Math.ceil(wait)).then(() => {
      this.#timer = false;
      this.#release();
    });
  }

  #release(): void {
    const now = this.#refill();
    while (this.#waiting.length > 0 && this.#tokens >= 1) {
      this.#tokens -= 1;
      const w = this.#waiting.shift()!;
      w.resolve(now - w.since);
    }
    if (this.#waiting.length > 0) this.#schedule();
  }
}
