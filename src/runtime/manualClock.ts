// A clock that moves only when a test says so, for unit tests of anything that takes a Clock.
import type { Clock, TimerHandle } from "./clock.ts";

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, Timer>();

  constructor(startMs = 1_700_000_000_000) {
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
}
