// A process-wide token bucket for STS calls. Tokens are counted at the moment a call is let
// through (not reserved ahead), and waiting callers go in arrival order, so in any window of
// length w at most `burst + ratePerSecond * w` calls start — even after the event loop
// stalled, when callers that reserved slots ahead of time would all start together.
import type { Clock, Sleep } from "./types.ts";

export interface RateLimit {
  /** Sustained calls per second. */
  readonly ratePerSecond: number;
  /** Calls that may start at once after a quiet period. */
  readonly burst: number;
}

/** STS's own default quota is far higher; this keeps one controller a polite neighbour. */
export const defaultStsRateLimit: RateLimit = { ratePerSecond: 20, burst: 40 };

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

  constructor(limit: RateLimit, clock: Clock, sleep: Sleep) {
    if (!(limit.ratePerSecond > 0) || !(limit.burst >= 1)) {
      throw new RangeError(
        `STS rate limit needs ratePerSecond > 0 and burst >= 1 (got ${limit.ratePerSecond}/${limit.burst})`,
      );
    }
    this.#rate = limit.ratePerSecond / 1000;
    this.#burst = limit.burst;
    this.#clock = clock;
    this.#sleep = sleep;
    this.#tokens = limit.burst;
    this.#updatedAt = clock.now();
  }

  /** Resolves when the caller may call STS; returns how long it waited (ms, 0 if a token was ready). */
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

  /** Callers waiting for a token. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #refill(): number {
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + Math.max(0, now - this.#updatedAt) * this.#rate);
    this.#updatedAt = now;
    return now;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = true;
    const wait = Math.max(0, (1 - this.#tokens) / this.#rate);
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
