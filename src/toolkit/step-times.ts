// Where the wall time of a unit of work (one reconcile) goes, by step: the code that makes a
// call marks its span (`timeStep("aws", …)`, `timeStep("kubernetes_write", …)`; `timeStepSync`
// for the unit's own work worth naming: a decision, a comparison), and the unit's owner
// reads the totals when it ends (`withStepTimes`). Calls need not be told which unit they serve:
// the unit travels with the async context (AsyncLocalStorage). Spans of one step that overlap
// (four AWS reads at once) count once: a step's time is the wall time during which at least one
// of its calls was in flight. Outside a unit, timeStep only runs the call.
import { AsyncLocalStorage } from "node:async_hooks";

interface Step {
  inFlight: number;
  /** performance.now() when inFlight went from 0 to 1. */
  since: number;
  ms: number;
}

export class StepTimes {
  readonly #steps = new Map<string, Step>();

  enter(step: string, now: number): void {
    let s = this.#steps.get(step);
    if (s === undefined) {
      s = { inFlight: 0, since: now, ms: 0 };
      this.#steps.set(step, s);
    }
    if (s.inFlight++ === 0) s.since = now;
  }

  exit(step: string, now: number): void {
    const s = this.#steps.get(step);
    if (s === undefined || s.inFlight === 0) return;
    if (--s.inFlight === 0) s.ms += now - s.since;
  }

  /** Milliseconds per step so far (a step still in flight counts up to `now`). */
  totals(now: number = performance.now()): Map<string, number> {
    const out = new Map<string, number>();
    for (const [step, s] of this.#steps) out.set(step, s.ms + (s.inFlight > 0 ? now - s.since : 0));
    return out;
  }
}

const current = new AsyncLocalStorage<StepTimes>();

/** Runs `fn` as a unit whose calls' steps are timed into `times`. */
export function withStepTimes<T>(times: StepTimes, fn: () => Promise<T>): Promise<T> {
  return current.run(times, fn);
}

/** Opens a span of `step` in the current unit and returns what closes it; undefined outside one. */
function openSpan(step: string): (() => void) | undefined {
  const times = current.getStore();
  if (times === undefined) return undefined;
  times.enter(step, performance.now());
  return () => times.exit(step, performance.now());
}

/** Runs `fn` as a span of `step` in the current unit, if any. */
export async function timeStep<T>(step: string, fn: () => Promise<T>): Promise<T> {
  const close = openSpan(step);
  try {
    return await fn();
  } finally {
    close?.();
  }
}

/** `timeStep` for synchronous work (a decision, a comparison): the span is the call itself. */
export function timeStepSync<T>(step: string, fn: () => T): T {
  const close = openSpan(step);
  try {
    return fn();
  } finally {
    close?.();
  }
}
