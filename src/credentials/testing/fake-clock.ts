// A clock tests move by hand, with a sleep that advances it instead of waiting.
import type { Clock, Sleep } from "../types.ts";

export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
  readonly sleep: Sleep;
  /** Every sleep asked for, in order. */
  readonly slept: number[];
}

export function fakeClock(start = Date.UTC(2030, 0, 1)): FakeClock {
  let now = start;
  const slept: number[] = [];
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    set(ms) {
      now = ms;
    },
    slept,
    // Time moves on a later tick, as with a real sleep: callers that start together in one
    // tick all see the same "now".
    sleep: async (ms) => {
      slept.push(ms);
      await Promise.resolve();
      now += ms;
    },
  };
}
