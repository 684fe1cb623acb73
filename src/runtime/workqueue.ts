// The keyed work queue behind every controller, with client-go's workqueue semantics:
//   - dedup: a key queued twice is processed once;
//   - never two workers on one key: a key added while it is being processed is marked dirty
//     and handed out again only after done();
//   - delayed adds (addAfter) merge to the EARLIEST requested time;
//   - rate-limited adds (addRateLimited) wait as long as the rate limiter says (per-item
//     exponential backoff combined with a global token bucket by default), until forget().
// Keys are strings ("namespace/name"). Unlike client-go, ready keys are handed out round-robin
// across namespaces (fair-queue.ts): one tenant's burst does not starve another's resource.
// Time comes from an injectable Clock.
import { type Clock, systemClock, type TimerHandle } from "../toolkit/clock.ts";
import { FairQueue } from "./fair-queue.ts";
import { MinHeap } from "./min-heap.ts";
import { defaultControllerRateLimiter, type RateLimiter } from "./rate-limiter.ts";

/** What the queue reports, under client-go's workqueue metric names (see metrics.ts). */
export interface WorkQueueMetrics {
  depth(n: number): void;
  added(): void;
  /** Seconds a key waited in the queue before a worker took it. */
  queueLatency(seconds: number): void;
  /** Seconds a worker held a key (get → done). */
  workDuration(seconds: number): void;
  retried(): void;
}

/** The work workers hold now, as controller-runtime's in-flight gauges read it at scrape time. */
export interface InFlightWork {
  /** Seconds of work started and not yet done, summed over the keys being processed. */
  readonly unfinishedSeconds: number;
  /** Seconds the longest-held key has been processed (0 when none is). */
  readonly longestSeconds: number;
}

export interface WorkQueueOptions {
  readonly clock?: Clock;
  readonly rateLimiter?: RateLimiter;
  readonly metrics?: WorkQueueMetrics;
}

export class WorkQueue {
  readonly #clock: Clock;
  readonly #limiter: RateLimiter;
  readonly #metrics: WorkQueueMetrics | undefined;

  /** Keys ready for a worker: FIFO per namespace, namespaces in turn (fair-queue.ts). */
  readonly #queue = new FairQueue();
  /** Keys that need processing: queued, or re-added while being processed. */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  /** Delayed keys and when each becomes ready (the earliest requested time). */
  readonly #waiting = new Map<string, number>();
  /** Due times of waiting keys; stale entries (superseded by an earlier time) are skipped. */
  readonly #heap = new MinHeap<string>();
  #timer: TimerHandle | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  readonly #addedAt = new Map<string, number>();
  readonly #startedAt = new Map<string, number>();
  readonly #getters: ((key: string | undefined) => void)[] = [];
  readonly #idleWaiters: (() => void)[] = [];
  #shuttingDown = false;

  constructor(opts: WorkQueueOptions = {}) {
    this.#clock = opts.clock ?? systemClock;
    this.#limiter = opts.rateLimiter ?? defaultControllerRateLimiter({ clock: this.#clock });
    this.#metrics = opts.metrics;
  }

  /** Queues `key` now, unless it is already queued (dedup) or being processed (marked dirty). */
  add(key: string): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#metrics?.added();
    this.#dirty.add(key);
    if (!this.#addedAt.has(key)) this.#addedAt.set(key, this.#clock.now());
    if (this.#processing.has(key)) return;
    this.#push(key);
  }

  /** Queues `key` after `delayMs`; if it is already waiting, the earlier of the two times wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.#shuttingDown) return;
    if (!(delayMs > 0)) {
      this.add(key);
      return;
    }
    const readyAt = this.#clock.now() + delayMs;
    const current = this.#waiting.get(key);
    if (current !== undefined && current <= readyAt) return;
    this.#waiting.set(key, readyAt);
    this.#heap.push(readyAt, key);
    if (readyAt < this.#timerAt) this.#schedule();
  }

  /** Queues `key` after the rate limiter's delay (counts a retry). */
  addRateLimited(key: string): void {
    if (this.#shuttingDown) return;
    this.#metrics?.retried();
    this.addAfter(key, this.#limiter.when(key));
  }

  /** Clears the key's failure history, so its next rate-limited add starts from the base delay. */
  forget(key: string): void {
    this.#limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.#limiter.retries(key);
  }

  /**
   * Resolves with the next key to process, marking it as being processed; the caller must
   * call done(key) afterwards. Resolves with undefined once the queue is shut down.
   */
  get(): Promise<string | undefined> {
    if (this.#shuttingDown) return Promise.resolve(undefined);
    const key = this.#take();
    if (key !== undefined) return Promise.resolve(key);
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks `key` as processed; if it was re-added meanwhile, it is queued again now. */
  done(key: string): void {
    if (!this.#processing.delete(key)) return;
    const started = this.#startedAt.get(key);
    this.#startedAt.delete(key);
    if (started !== undefined) this.#metrics?.workDuration((this.#clock.now() - started) / 1000);
    if (!this.#shuttingDown && this.#dirty.has(key)) this.#push(key);
    if (this.#processing.size === 0) {
      for (const w of this.#idleWaiters.splice(0)) w();
    }
  }

  /** Keys ready for a worker now. */
  len(): number {
    return this.#queue.size;
  }

  /** True if `key` will be handed to a worker later: queued, re-added while processing, or delayed. */
  isPending(key: string): boolean {
    return this.#dirty.has(key) || this.#waiting.has(key);
  }

  isProcessing(key: string): boolean {
    return this.#processing.has(key);
  }

  /** What workers hold now, by this queue's clock (client-go's updateUnfinishedWork, on demand). */
  inFlight(): InFlightWork {
    const now = this.#clock.now();
    let unfinished = 0;
    let longest = 0;
    for (const started of this.#startedAt.values()) {
      const held = (now - started) / 1000;
      unfinished += held;
      if (held > longest) longest = held;
    }
    return { unfinishedSeconds: unfinished, longestSeconds: longest };
  }

  /** The keys held by workers now. */
  processingKeys(): Iterable<string> {
    return this.#processing;
  }

  /** Number of keys currently held by workers. */
  processingCount(): number {
    return this.#processing.size;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /**
   * Stops handing out work: pending and delayed keys are dropped, waiting get() calls resolve
   * with undefined, later adds are ignored. Keys being processed may still call done().
   */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    this.#waiting.clear();
    this.#queue.clear();
    this.#metrics?.depth(0);
    for (const g of this.#getters.splice(0)) g(undefined);
  }

  /** Resolves when no key is being processed (immediately if none is). */
  whenIdle(): Promise<void> {
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Shuts down and waits for in-flight keys to be done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    await this.whenIdle();
  }

  #push(key: string): void {
    this.#queue.push(key);
    // Hand the key straight to a waiting worker, if any.
    while (this.#getters.length > 0) {
      const taken = this.#take();
      if (taken === undefined) break;
      this.#getters.shift()!(taken);
    }
    this.#metrics?.depth(this.len());
  }

  #take(): string | undefined {
    const key = this.#queue.shift();
    if (key === undefined) return undefined;
    this.#processing.add(key);
    this.#dirty.delete(key);
    const now = this.#clock.now();
    const added = this.#addedAt.get(key);
    this.#addedAt.delete(key);
    if (added !== undefined) this.#metrics?.queueLatency((now - added) / 1000);
    this.#startedAt.set(key, now);
    this.#metrics?.depth(this.len());
    return key;
  }

  /** (Re)arms the single timer for the earliest waiting key. */
  #schedule(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    this.#dropStale();
    const top = this.#heap.peek();
    if (top === undefined) return;
    this.#timerAt = top.priority;
    this.#timer = this.#clock.setTimeout(() => this.#fire(), top.priority - this.#clock.now());
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = this.#clock.now();
    for (;;) {
      this.#dropStale();
      const top = this.#heap.peek();
      if (top === undefined || top.priority > now) break;
      this.#heap.pop();
      this.#waiting.delete(top.value);
      this.add(top.value);
    }
    if (!this.#shuttingDown) this.#schedule();
  }

  /** Pops heap entries that no longer match the key's current due time. */
  #dropStale(): void {
    for (;;) {
      const top = this.#heap.peek();
      if (top === undefined || this.#waiting.get(top.value) === top.priority) return;
      this.#heap.pop();
    }
  }
}
