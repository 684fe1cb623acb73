// A clock that moves only when a test says so, for unit and integration tests of anything that
// takes a Clock or a Sleep.
import type { Clock, Sleep, TimerHandle } from "./clock.ts";

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/**
 * Fake time with two ways to move it:
 *   - `advance(ms)` / `set(ms)`: the test moves time, and timers that fall due fire (code that
 *     waits on `setTimeout` or `sleep(clock, ...)` waits for the test);
 *   - `sleep(ms)`: a `Sleep` that lets the time pass by itself on a later tick (code that takes
 *     an injected `Sleep` never waits for the test), recording each wait in `slept`.
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, Timer>();
  /** Every wait `sleep` was asked for, in order. */
  readonly slept: number[] = [];

  /** Starts far from real time (2030-01-01), so a test that reads the real clock by mistake shows. */
  constructor(startMs = Date.UTC(2030, 0, 1)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete((handle as { id: number }).id);
  }

  /** Number of timers scheduled and not yet fired. */
  pendingTimers(): number {
    return this.#timers.size;
  }

  /**
   * Moves time forward by `ms`, firing due timers in time order (timers a callback schedules
   * within the window fire too), each with `now()` set to its due time.
   */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.#timers.values()) {
        if (t.at <= end && (next === undefined || t.at < next.at || (t.at === next.at && t.id < next.id))) {
          next = t;
        }
      }
      if (next === undefined) break;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
    }
    this.#now = end;
  }

  /** Moves time to `ms` since the epoch (as `advance`, firing due timers; backwards fires none). */
  set(ms: number): void {
    this.advance(ms - this.#now);
  }

  /**
   * Waits `ms` of fake time without anyone advancing it. Time moves on a later tick, as with a
   * real sleep: callers that start together in one tick all see the same `now()`. An arrow
   * property, so it can be passed on its own (`sleep: clock.sleep`).
   */
  readonly sleep: Sleep = async (ms) => {
    this.slept.push(ms);
    await Promise.resolve();
    this.advance(ms);
  };
}
