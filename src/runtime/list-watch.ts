// One self-healing list/watch loop over one collection path (client-go's Reflector):
//   list (paginated, consistent read) → replace the whole state → watch from the list's
//   resourceVersion, following bookmarks;
//   410 Gone / "too old resource version" (an HTTP 410 or an ERROR event with code 410) →
//   list again, and the cache turns the differences into synthetic add/update/delete;
//   any other error, or a watch that ends → watch again from the last resourceVersion, after a
//   jittered exponential backoff unless the watch was healthy (it delivered events or lasted);
//   the loop ends only on stop(). It never throws and never exits the process.
// setLabelSelector() changes what it selects: the loop drops its list or watch and lists again
// under the new selector, so the cache turns the difference into adds and deletes (a sharded
// replica's informers follow the buckets it owns this way).
// It also tracks whether it can reach the apiserver (connection-health.ts): a list that returns
// or a watch that opens is a success, any error but 410 a failure; failures for longer than
// `unhealthyAfterMs` (5 s) make it unhealthy until the next success.
// @kubernetes/client-node's ListWatch stops for good on any non-410 error; this one does not.
import { Backoff, type BackoffOptions } from "../toolkit/backoff.ts";
import { type Clock, sleep, systemClock } from "../toolkit/clock.ts";
import { ConnectionHealth, type ConnectionHealthState } from "./connection-health.ts";
import { isGone, KubeApiError, type KubeClient, type WatchEvent } from "./kube-client.ts";
import type { KubeList, KubeObject } from "./kube-object.ts";
import { type Logger, silentLogger } from "./logger.ts";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface ListWatchHandlers {
  /** The complete current state of the path: after the first list and after every relist. */
  replace(items: KubeObject[]): void;
  /** One change seen on the watch. */
  event(type: WatchEventType, obj: KubeObject): void;
}

export interface ListWatchOptions {
  readonly client: KubeClient;
  /** Collection path, e.g. "/api/v1/namespaces/a/configmaps". */
  readonly path: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly handlers: ListWatchHandlers;
  /** Applied to every object before it reaches the handlers (fill kind, drop managedFields). */
  readonly transform?: (obj: KubeObject) => KubeObject;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly backoff?: BackoffOptions;
  /** Page size of the list (500, like client-go). */
  readonly pageSize?: number;
  /** Server-side watch timeout; default a random 5–10 min, so watches do not all end together. */
  readonly watchTimeoutSeconds?: number;
  /** A watch that ends sooner than this without any event counts as a failure (backoff). */
  readonly minHealthyWatchMs?: number;
  /** How long list/watch must keep failing before the loop counts as unhealthy (5 s). */
  readonly unhealthyAfterMs?: number;
  /** Called when the loop turns unhealthy or healthy again (not on every retry). */
  readonly onHealthChange?: (state: ConnectionHealthState) => void;
}

/** Counters for tests and debugging. */
export interface ListWatchStats {
  lists: number;
  watches: number;
  relists: number;
  errors: number;
}

interface WatchOutcome {
  readonly resourceVersion: string;
  readonly gone: boolean;
  readonly healthy: boolean;
}

export class ListWatch {
  readonly stats: ListWatchStats = { lists: 0, watches: 0, relists: 0, errors: 0 };
  readonly #o: ListWatchOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #backoff: Backoff;
  readonly #health: ConnectionHealth;
  readonly #stop = new AbortController();
  #running: Promise<void> | undefined;
  #lastResourceVersion = "";
  #labelSelector: string | undefined;
  /** Aborted to make the loop list again (a new label selector). */
  #iteration = new AbortController();

  constructor(opts: ListWatchOptions) {
    this.#o = opts;
    this.#labelSelector = opts.labelSelector;
    this.#clock = opts.clock ?? systemClock;
    this.#log = (opts.logger ?? silentLogger).child({ path: opts.path });
    this.#backoff = new Backoff({ ...opts.backoff, random: opts.backoff?.random ?? opts.random });
    this.#health = new ConnectionHealth({
      clock: this.#clock,
      unhealthyAfterMs: opts.unhealthyAfterMs,
      onChange: opts.onHealthChange,
    });
  }

  /** Whether the loop reaches the apiserver (see connection-health.ts). */
  health(): ConnectionHealthState {
    return this.#health.state();
  }

  /** The resourceVersion the loop last saw (from a list, event or bookmark). */
  get lastResourceVersion(): string {
    return this.#lastResourceVersion;
  }

  start(): void {
    this.#running ??= this.#run();
  }

  get labelSelector(): string | undefined {
    return this.#labelSelector;
  }

  /** Selects by `selector` from now on: lists again at once (the cache diffs old and new). */
  setLabelSelector(selector: string | undefined): void {
    if (selector === this.#labelSelector) return;
    this.#labelSelector = selector;
    this.#iteration.abort();
  }

  /** Ends the loop (closing the watch) and waits for it. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
    this.#health.stop();
  }

  async #run(): Promise<void> {
    const stopped = this.#stop.signal;
    let rv: string | undefined; // undefined: the state must be (re)listed
    while (!stopped.aborted) {
      if (this.#iteration.signal.aborted) {
        // A new selector: list again, at once.
        this.#iteration = new AbortController();
        if (rv !== undefined) this.stats.relists++;
        rv = undefined;
      }
      const reselected = this.#iteration.signal;
      const signal = AbortSignal.any([stopped, reselected]);
      try {
        if (rv === undefined) {
          rv = await this.#list(signal);
          if (signal.aborted) continue;
        }
        const out = await this.#watch(rv, signal);
        if (signal.aborted) continue;
        if (out.gone) {
          this.stats.relists++;
          this.#log.info({ resourceVersion: rv }, "watch: resourceVersion too old (410), relisting");
          rv = undefined;
        } else {
          rv = out.resourceVersion;
        }
        if (out.healthy) {
          this.#backoff.reset();
        } else if (!signal.aborted) {
          const delay = this.#backoff.next();
          this.#log.debug({ delayMs: Math.round(delay) }, "watch ended early; retrying after backoff");
          await sleep(this.#clock, delay, signal);
        }
      } catch (err) {
        if (signal.aborted) continue;
        if (isGone(err)) {
          // A list continue token or resourceVersion expired mid-way: start over at once.
          this.#health.succeeded(); // the apiserver answered
          this.stats.relists++;
          rv = undefined;
          continue;
        }
        this.stats.errors++;
        this.#health.failed(err);
        const delay = this.#backoff.next();
        // Once unhealthy, the informer has said so (one line); each further retry is debug only.
        this.#log[this.#health.healthy ? "warn" : "debug"](
          { err: err instanceof Error ? err.message : String(err), retryInMs: Math.round(delay) },
          rv === undefined ? "list failed; retrying" : "watch failed; retrying",
        );
        await sleep(this.#clock, delay, signal);
      }
    }
  }

  #transform(obj: KubeObject): KubeObject {
    return this.#o.transform ? this.#o.transform(obj) : obj;
  }

  async #list(signal: AbortSignal): Promise<string> {
    this.stats.lists++;
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv = "";
    do {
      const page = await this.#o.client.request<KubeList>({
        method: "GET",
        path: this.#o.path,
        query: {
          limit: this.#o.pageSize ?? 500,
          continue: cont,
          labelSelector: this.#labelSelector,
          fieldSelector: this.#o.fieldSelector,
        },
        signal,
      });
      for (const item of page.items ?? []) items.push(this.#transform(item));
      rv = page.metadata?.resourceVersion ?? "";
      cont = page.metadata?.continue || undefined;
    } while (cont !== undefined && !signal.aborted);
    if (signal.aborted) return rv;
    this.#health.succeeded();
    this.#lastResourceVersion = rv;
    try {
      this.#o.handlers.replace(items);
    } catch (err) {
      this.#log.error({ err }, "informer replace handler threw");
    }
    return rv;
  }

  async #watch(from: string, signal: AbortSignal): Promise<WatchOutcome> {
    this.stats.watches++;
    const timeoutSeconds =
      this.#o.watchTimeoutSeconds ?? Math.floor(300 * (1 + (this.#o.random ?? Math.random)()));
    const started = this.#clock.now();
    let rv = from;
    let events = 0;
    const onEvent = (e: WatchEvent) => {
      if (e.type === "ERROR") {
        const status = e.object;
        throw new KubeApiError(
          status.code ?? 500,
          status.reason ?? "",
          `watch ${this.#o.path}: ${status.message ?? "error event"}`,
          status,
        );
      }
      events++;
      const next = e.object?.metadata?.resourceVersion;
      if (e.type === "BOOKMARK") {
        if (next) rv = next;
        return;
      }
      if (e.type !== "ADDED" && e.type !== "MODIFIED" && e.type !== "DELETED") return;
      const obj = this.#transform(e.object);
      if (next) rv = next;
      this.#lastResourceVersion = rv;
      try {
        this.#o.handlers.event(e.type, obj);
      } catch (err) {
        this.#log.error({ err }, "informer event handler threw");
      }
    };
    try {
      await this.#o.client.watch({
        path: this.#o.path,
        query: {
          resourceVersion: from,
          allowWatchBookmarks: true,
          timeoutSeconds,
          labelSelector: this.#labelSelector,
          fieldSelector: this.#o.fieldSelector,
        },
        signal,
        // The server ends the watch at timeoutSeconds; this only catches a silently dead peer.
        timeoutMs: (timeoutSeconds + 30) * 1000,
        onOpen: () => this.#health.succeeded(),
        onEvent,
      });
    } catch (err) {
      if (!isGone(err)) {
        // A watch that worked for a while and then broke starts its retries from the shortest delay.
        if (events > 0) this.#backoff.reset();
        throw err;
      }
      this.#health.succeeded(); // a 410 is an answer: the apiserver is reachable
      return { resourceVersion: rv, gone: true, healthy: events > 0 };
    }
    const healthy = events > 0 || this.#clock.now() - started >= (this.#o.minHealthyWatchMs ?? 1000);
    return { resourceVersion: rv, gone: false, healthy };
  }
}
