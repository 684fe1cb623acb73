// A process-wide token bucket for STS calls. Reservation style (as Go's rate.Limiter): each
// caller takes a token at once, possibly going into debt, and sleeps until its token would
// have been earned. That keeps callers in arrival order and guarantees that in any window of
// length w at most `burst + ratePerSecond * w` calls start.
import type { Clock, Sleep } from "./types.ts";

export interface RateLimit {
  /** Sustained calls per second. */
  readonly ratePerSecond: number;
  /** Calls that may start at once after a quiet period. */
  readonly burst: number;
}

/** STS's own default quota is far higher; this keeps one controller a polite neighbour. */
export const defaultStsRateLimit: RateLimit = { ratePerSecond: 20, burst: 40 };

export class TokenBucket {
  readonly #rate: number;
  readonly #burst: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  #tokens: number;
  #updatedAt: number;

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
  async take(): Promise<number> {
    const wait = this.reserve();
    if (wait > 0) await this.#sleep(wait);
    return wait;
  }

  /** Takes a token now and says how long until it is really earned (ms). */
  reserve(): number {
    const now = this.#clock.now();
    const earned = Math.max(0, now - this.#updatedAt) * this.#rate;
    this.#tokens = Math.min(this.#burst, this.#tokens + earned);
    this.#updatedAt = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : -this.#tokens / this.#rate;
  }
}
