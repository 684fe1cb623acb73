// A controller: informers feed keys into a work queue, and a fixed number of workers run the
// reconcile function on them, applying the reconcile contract (reconcile.ts) and reporting
// controller-runtime's metrics. Workers start only once every cache and gate the controller
// depends on has synced; until then events just accumulate (deduplicated) in the queue.
import { type Clock, sleep, systemClock } from "../toolkit/clock.ts";
import { StepTimes, withStepTimes } from "../toolkit/step-times.ts";
import { type Fence, FencedError, isFencedError, withFence } from "./fence.ts";
import type { Informer } from "./informer.ts";
import type { KubeObject } from "./kube-object.ts";
import { keyOf, splitKey } from "./kube-object.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { type RuntimeMetrics, workQueueMetricsFor } from "./metrics.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import { isReportedError, isTerminalError, type Reconciler } from "./reconcile.ts";
import { type SyncGate, waitForAll } from "./sync-gate.ts";
import { WorkQueue } from "./workqueue.ts";

export interface ControllerOptions {
  /** Unique name, used in logs and as the `controller` metric label (e.g. "bucket"). */
  readonly name: string;
  readonly reconcile: Reconciler;
  /**
   * The informer of the reconciled kind: its events enqueue the object's own key, and an
   * object is only resynced while it is still in this cache.
   */
  readonly primary?: Informer;
  /** Maximum concurrent reconciles (ACK's --reconcile-default-max-concurrent-syncs); default 1. */
  readonly concurrency?: number;
  /** After a success, reconcile again after this long (ACK's default resync is 10 h); 0: never. */
  readonly resyncPeriodMs?: number;
  /** Each resync is stretched by up to this fraction at random, so objects spread out (0.1). */
  readonly resyncJitter?: number;
  /** Extra gates (beyond the watched informers) that must be open before workers start. */
  readonly waitFor?: readonly SyncGate[];
  readonly rateLimiter?: RateLimiter;
  /**
   * Sharding (shards/member.ts): only keys of namespaces the gate allows now are reconciled;
   * others are dropped when taken, and queued again (enqueueNamespace) once the gate allows them.
   * The gate is asked again before each write a reconcile makes (fence.ts): one no longer allowed
   * fails there, and fenceInFlight() aborts those in flight.
   */
  readonly shard?: { gate(namespace: string): { readonly act: boolean; readonly why?: string } };
  /** A key the shard gate dropped: what the caller keeps per object may go, if the object left its cache. */
  readonly onDropped?: (key: string) => void;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly logger?: Logger;
  readonly metrics?: RuntimeMetrics;
}

export interface WatchOptions<T extends KubeObject> {
  /** Keys to enqueue for an object (default: its own key). */
  readonly map?: (obj: T) => Iterable<string> | string | undefined;
  /** Whether an update should enqueue (default: when resourceVersion changed). */
  readonly onUpdate?: (oldObj: T, newObj: T) => boolean;
}

const defaultResyncMs = 10 * 60 * 60 * 1000;

const fencedError = (key: string, why: string | undefined) =>
  new FencedError(`fenced: this replica may no longer act on ${key}${why ? ` (${why})` : ""}`);

export class Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  readonly #o: ControllerOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #gates: SyncGate[] = [];
  readonly #unsubscribe: (() => void)[] = [];
  /** Informers whose objects are queued under their own keys (watched without `map`). */
  readonly #ownKeys: Informer[] = [];
  readonly #workers: Promise<void>[] = [];
  /** Aborts the wait for caches when the controller is stopped before it started. */
  readonly #stopping = new AbortController();
  /** Given to reconciles; aborted when shutdown stops waiting for them. */
  readonly #reconcileAbort = new AbortController();
  /** Each reconcile in flight (sharded controllers): its namespace and what aborts it. */
  readonly #inFlight = new Map<string, { readonly namespace: string; readonly abort: AbortController }>();
  #started = false;
  #nextReconcileId = 1;

  constructor(opts: ControllerOptions) {
    this.name = opts.name;
    this.#o = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#log = (opts.logger ?? silentLogger).child({ controller: opts.name });
    this.queue = new WorkQueue({
      clock: this.#clock,
      rateLimiter: opts.rateLimiter,
      metrics: opts.metrics
        ? workQueueMetricsFor(opts.metrics, opts.name, () => this.queue.inFlight())
        : undefined,
    });
    this.#gates.push(...(opts.waitFor ?? []));
    if (opts.primary) this.watch(opts.primary);
  }

  /**
   * Enqueues keys on the informer's add/update/delete events, and makes the controller wait
   * for its cache. Returns this, for chaining.
   */
  watch<T extends KubeObject>(informer: Informer<T>, opts: WatchOptions<T> = {}): this {
    if (!this.#gates.includes(informer)) this.#gates.push(informer);
    if (!opts.map) this.#ownKeys.push(informer as unknown as Informer);
    const enqueue = (obj: T) => {
      const keys = opts.map ? opts.map(obj) : keyOf(obj);
      if (keys === undefined) return;
      if (typeof keys === "string") this.queue.add(keys);
      else for (const k of keys) this.queue.add(k);
    };
    const onUpdate =
      opts.onUpdate ?? ((a: T, b: T) => a.metadata.resourceVersion !== b.metadata.resourceVersion);
    this.#unsubscribe.push(
      informer.addHandler({
        onAdd: enqueue,
        onUpdate: (oldObj, newObj) => {
          if (onUpdate(oldObj, newObj)) enqueue(newObj);
        },
        onDelete: enqueue,
      }),
    );
    return this;
  }

  /** Queues a key now (deduplicated). */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  /** Queues every key of `namespace` in the primary cache (a namespace this shard just gained). */
  enqueueNamespace(namespace: string): void {
    for (const informer of this.#ownKeys)
      for (const obj of informer.list(namespace)) this.queue.add(keyOf(obj));
  }

  /** The namespaces the primary cache holds objects in. */
  cachedNamespaces(): Set<string> {
    const out = new Set<string>();
    for (const informer of this.#ownKeys) for (const key of informer.keys()) out.add(splitKey(key).namespace);
    return out;
  }

  /** The namespaces of the keys being reconciled now. */
  inFlightNamespaces(): Set<string> {
    const out = new Set<string>();
    for (const key of this.queue.processingKeys()) out.add(splitKey(key).namespace);
    return out;
  }

  /** Queues a key after `ms` (merged with any earlier pending time). */
  enqueueAfter(key: string, ms: number): void {
    this.queue.addAfter(key, ms);
  }

  /** True once every gate (watched caches, extra gates) is open. */
  hasSynced(): boolean {
    return this.#gates.every((g) => g.hasSynced());
  }

  get started(): boolean {
    return this.#started;
  }

  /**
   * Waits for the caches and gates, then starts the workers. Resolves true once they run, or
   * false if the controller was stopped first. Informers are not started here (they are shared;
   * the manager starts them).
   */
  async start(): Promise<boolean> {
    if (this.#started) return true;
    const concurrency = Math.max(1, this.#o.concurrency ?? 1);
    const m = this.#o.metrics;
    if (m) {
      const results = ["success", "error", "requeue", "requeue_after", ...(this.#o.shard ? ["fenced"] : [])];
      for (const result of results) {
        m.reconcileTotal.inc({ controller: this.name, result }, 0);
      }
      m.reconcileErrors.inc({ controller: this.name }, 0);
      m.terminalReconcileErrors.inc({ controller: this.name }, 0);
      m.maxConcurrentReconciles.set({ controller: this.name }, concurrency);
      m.activeWorkers.set({ controller: this.name }, 0);
    }
    this.#log.info({ gates: this.#gates.map((g) => g.name) }, "waiting for caches to sync");
    if (!(await waitForAll(this.#gates, this.#stopping.signal))) return false;
    if (this.#started) return true;
    this.#started = true;
    this.#log.info({ workers: concurrency }, "starting workers");
    for (let i = 0; i < concurrency; i++) this.#workers.push(this.#worker());
    return true;
  }

  /**
   * Stops taking work (the queue is shut down; pending keys are dropped) and waits up to
   * `deadlineMs` for in-flight reconciles to finish; after that their signal is aborted and
   * they are abandoned. Resolves true if everything finished in time.
   */
  async stop(deadlineMs = 30_000): Promise<boolean> {
    this.#stopping.abort();
    for (const u of this.#unsubscribe.splice(0)) u();
    this.queue.shutDown();
    const inFlight = this.queue.processingCount();
    if (inFlight > 0) this.#log.info({ inFlight, deadlineMs }, "waiting for in-flight reconciles");
    const deadline = new AbortController();
    const finished = await Promise.race([
      Promise.all([this.queue.whenIdle(), ...this.#workers]).then(() => true),
      sleep(this.#clock, deadlineMs, deadline.signal).then(() => false),
    ]);
    deadline.abort();
    if (!finished) {
      this.#log.warn(
        { inFlight: this.queue.processingCount() },
        "shutdown deadline passed; abandoning reconciles",
      );
      this.#reconcileAbort.abort(new Error("controller shutdown deadline passed"));
    }
    return finished;
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      if (this.#o.shard && !this.#o.shard.gate(splitKey(key).namespace).act) {
        // Another replica's namespace (or not yet released to this one): not reconciled here.
        this.queue.forget(key);
        this.queue.done(key);
        try {
          this.#o.onDropped?.(key);
        } catch (err) {
          this.#log.error({ err, key }, "onDropped threw");
        }
        continue;
      }
      try {
        await this.#process(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  /**
   * Aborts the reconciles in flight whose namespace the shard gate no longer allows (this replica
   * was fenced, or the namespace moved): their AWS and Kubernetes calls end now, not after.
   */
  fenceInFlight(): void {
    const shard = this.#o.shard;
    if (!shard) return;
    for (const [key, { namespace, abort }] of this.#inFlight) {
      const gate = shard.gate(namespace);
      if (gate.act || abort.signal.aborted) continue;
      abort.abort(fencedError(key, gate.why));
    }
  }

  /**
   * What a reconcile runs inside: its abort signal, and for a sharded controller a fence asked
   * before each of its writes (fence.ts). Unsharded, the shutdown signal alone.
   */
  #unitOf(key: string, namespace: string): { signal: AbortSignal; fence?: Fence; end(): void } {
    const shard = this.#o.shard;
    if (!shard) return { signal: this.#reconcileAbort.signal, end: () => undefined };
    const abort = new AbortController();
    const shutdown = this.#reconcileAbort.signal;
    const onShutdown = () => abort.abort(shutdown.reason);
    if (shutdown.aborted) onShutdown();
    else shutdown.addEventListener("abort", onShutdown, { once: true });
    this.#inFlight.set(key, { namespace, abort });
    const fence: Fence = {
      check: () => {
        if (abort.signal.aborted && isFencedError(abort.signal.reason)) throw abort.signal.reason;
        const gate = shard.gate(namespace);
        if (gate.act) return;
        const err = fencedError(key, gate.why);
        abort.abort(err);
        throw err;
      },
    };
    return {
      signal: abort.signal,
      fence,
      end: () => {
        shutdown.removeEventListener("abort", onShutdown);
        this.#inFlight.delete(key);
      },
    };
  }

  async #process(key: string): Promise<void> {
    const m = this.#o.metrics;
    const labels = { controller: this.name };
    const started = this.#clock.now();
    m?.activeWorkers.inc(labels);
    const { namespace, name } = splitKey(key);
    const log = this.#log.child({ key, reconcileID: this.#nextReconcileId++ });
    const count = (result: string) => m?.reconcileTotal.inc({ controller: this.name, result });
    const steps = new StepTimes();
    const stepsFrom = performance.now();
    const unit = this.#unitOf(key, namespace);
    try {
      const run = () =>
        withStepTimes(steps, () =>
          this.#o.reconcile(
            { key, namespace, name },
            { signal: unit.signal, log, retries: this.queue.numRequeues(key) },
          ),
        );
      const result = await (unit.fence ? withFence(unit.fence, run) : run());
      this.queue.forget(key);
      const after = result?.requeueAfter ?? 0;
      if (after > 0) {
        count("requeue_after");
        this.queue.addAfter(key, after);
        log.debug({ requeueAfterMs: after }, "reconciled; requeue after");
      } else if (result?.failed) {
        // Reported by the reconciler (e.g. a denied identity in status): no retry, but no success.
        count("error");
        m?.reconcileErrors.inc(labels);
        this.#resync(key);
        log.debug("reconciled; failure reported, waiting for a change");
      } else {
        count("success");
        this.#resync(key);
        log.debug("reconciled");
      }
    } catch (err) {
      if (isFencedError(err) || isFencedError(unit.signal.reason)) {
        // Another replica holds the namespace now: not retried here (and not an error of the
        // reconcile's). Should the namespace come back, the gate's change queues it again.
        count("fenced");
        this.queue.forget(key);
        log.info(
          {
            event: "reconcile.fenced",
            why: String((unit.signal.reason as Error | undefined)?.message ?? err),
          },
          "reconcile stopped: this replica may no longer act on the namespace; nothing more was written",
        );
        return;
      }
      count("error");
      m?.reconcileErrors.inc(labels);
      // A failure the reconciler has reported itself (status, an Event) is expected: its message,
      // once at info and at debug on retries, never a stack trace. Anything else is a fault.
      const reported = isReportedError(err);
      const said = reported
        ? { event: "reconcile.failed", error: err instanceof Error ? err.message : String(err) }
        : { err };
      if (isTerminalError(err)) {
        m?.terminalReconcileErrors.inc(labels);
        this.queue.forget(key);
        if (reported) log.info(said, "reconcile failed with a terminal error; not requeued");
        else log.warn(said, "reconcile failed with a terminal error; not requeued");
      } else {
        this.queue.addRateLimited(key);
        const retries = this.queue.numRequeues(key);
        if (!reported) log.error({ ...said, retries }, "reconcile failed; will retry with backoff");
        else if (retries <= 1) log.info({ ...said, retries }, "reconcile failed; will retry with backoff");
        else log.debug({ ...said, retries }, "reconcile failed; will retry with backoff");
      }
    } finally {
      unit.end();
      m?.activeWorkers.dec(labels);
      m?.reconcileTime.observe(labels, (this.#clock.now() - started) / 1000);
      if (m) {
        const now = performance.now();
        let marked = 0;
        for (const [step, ms] of steps.totals(now)) {
          marked += ms;
          m.reconcileStepSeconds.inc({ controller: this.name, step }, ms / 1000);
        }
        m.reconcileStepSeconds.inc(
          { controller: this.name, step: "other" },
          Math.max(0, now - stepsFrom - marked) / 1000,
        );
      }
    }
  }

  #resync(key: string): void {
    const period = this.#o.resyncPeriodMs ?? defaultResyncMs;
    if (!(period > 0)) return;
    if (this.#o.primary && this.#o.primary.getByKey(key) === undefined) return;
    const jitter = this.#o.resyncJitter ?? 0.1;
    this.queue.addAfter(key, period * (1 + jitter * (this.#o.random ?? Math.random)()));
  }
}
