// Time as crossrole reads it. Everything that waits or measures (the work queue, rate limiters,
// list/watch and leader-election retries, the credential cache, the STS token bucket) takes a
// Clock, so unit tests drive time by hand (fake-clock.ts) instead of sleeping.

/** An opaque handle for a scheduled callback. */
export type TimerHandle = object;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. Timers are unref'd: pending requeues or retries never keep a process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return t;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/**
 * Resolves after `ms` on `clock`, or early (without rejecting) when `signal` aborts — loops
 * that sleep between retries check their own stop flag afterwards. On the system clock the
 * timer is unref'd, like every timer of `systemClock`.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clock.clearTimeout(handle);
      resolve();
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A wait handed to code as a plain function (the STS token bucket and retries), so its tests can
 * pass `FakeClock.sleep`, which lets fake time pass by itself.
 */
export type Sleep = (ms: number) => Promise<void>;

/**
 * Waits in real time on a timer that is *not* unref'd: a caller waiting for an STS retry keeps
 * the process alive until its answer (a CLI command has nothing else keeping it alive).
 */
export const systemSleep: Sleep = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, Math.max(0, ms));
  });
