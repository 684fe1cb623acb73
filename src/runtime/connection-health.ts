// Whether one list/watch loop can reach the apiserver, for /readyz and the
// crossrole_informer_healthy gauge. The loop reports each attempt: a list that returned, a watch
// whose stream opened or an apiserver answer such as 410 Gone are successes; a refused or reset
// connection, a 5xx, a timeout (any other error) is a failure. Failures flip the state to
// unhealthy only once they have gone on, without a success in between, for `unhealthyAfterMs`
// (5 s), so a routine watch reconnect never does; the next success flips it back at once.
// Time comes from an injectable Clock: a grace timer fires the flip even when the loop is
// asleep in its backoff, and unit tests drive it with a FakeClock.
import { type Clock, systemClock, type TimerHandle } from "../toolkit/clock.ts";

export const defaultUnhealthyAfterMs = 5_000;

export interface ConnectionHealthState {
  readonly healthy: boolean;
  /** When the current run of failures began (ms since the epoch); undefined when none. */
  readonly failingSince: number | undefined;
  /** The latest failure's message while failing; undefined when none. */
  readonly lastError: string | undefined;
}

export interface ConnectionHealthOptions {
  readonly clock?: Clock;
  /** How long failures must go on before the state turns unhealthy (default 5 s). */
  readonly unhealthyAfterMs?: number;
  /** Called on every flip (not on every failure), after the state has changed. */
  readonly onChange?: (state: ConnectionHealthState) => void;
}

export class ConnectionHealth {
  readonly #clock: Clock;
  readonly #graceMs: number;
  readonly #onChange: ((state: ConnectionHealthState) => void) | undefined;
  #healthy = true;
  #failingSince: number | undefined;
  #lastError: string | undefined;
  #timer: TimerHandle | undefined;

  constructor(opts: ConnectionHealthOptions = {}) {
    this.#clock = opts.clock ?? systemClock;
    this.#graceMs = Math.max(0, opts.unhealthyAfterMs ?? defaultUnhealthyAfterMs);
    this.#onChange = opts.onChange;
  }

  get healthy(): boolean {
    return this.#healthy;
  }

  state(): ConnectionHealthState {
    return { healthy: this.#healthy, failingSince: this.#failingSince, lastError: this.#lastError };
  }

  /** The apiserver answered: ends a run of failures, and flips back to healthy if it had flipped. */
  succeeded(): void {
    this.#cancelTimer();
    this.#failingSince = undefined;
    this.#lastError = undefined;
    if (!this.#healthy) {
      this.#healthy = true;
      this.#onChange?.(this.state());
    }
  }

  /** A list or watch attempt failed. */
  failed(err: unknown): void {
    this.#lastError = err instanceof Error ? err.message : String(err);
    const now = this.#clock.now();
    if (this.#failingSince === undefined) {
      this.#failingSince = now;
      if (this.#graceMs > 0) {
        this.#timer = this.#clock.setTimeout(() => {
          this.#timer = undefined;
          this.#flipIfDue();
        }, this.#graceMs);
      }
    }
    this.#flipIfDue();
  }

  /** Drops the grace timer (the loop has stopped); the state stays as it is. */
  stop(): void {
    this.#cancelTimer();
  }

  #flipIfDue(): void {
    if (!this.#healthy || this.#failingSince === undefined) return;
    if (this.#clock.now() - this.#failingSince < this.#graceMs) return;
    this.#cancelTimer();
    this.#healthy = false;
    this.#onChange?.(this.state());
  }

  #cancelTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
