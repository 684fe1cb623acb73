// Jittered exponential backoff for reconnect loops (informer list/watch, leader election
// retries). Defaults are client-go's reflector backoff: 800 ms doubling to 30 s, with up to
// 100% jitter so many informers do not reconnect in lockstep after an apiserver restart.

export interface BackoffOptions {
  readonly initialMs?: number;
  readonly maxMs?: number;
  readonly factor?: number;
  /** Each delay is stretched by up to this fraction, at random. */
  readonly jitter?: number;
  readonly random?: () => number;
}

export class Backoff {
  readonly #initial: number;
  readonly #max: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor(opts: BackoffOptions = {}) {
    this.#initial = opts.initialMs ?? 800;
    this.#max = opts.maxMs ?? 30_000;
    this.#factor = opts.factor ?? 2;
    this.#jitter = opts.jitter ?? 1;
    this.#random = opts.random ?? Math.random;
  }

  /** The next delay (ms); each call grows the base delay until the cap. */
  next(): number {
    const base = Math.min(this.#max, this.#initial * this.#factor ** this.#attempt);
    if (base < this.#max) this.#attempt++;
    return base * (1 + this.#jitter * this.#random());
  }

  /** Back to the initial delay (after a healthy period). */
  reset(): void {
    this.#attempt = 0;
  }
}
