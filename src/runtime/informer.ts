// A cached, self-healing view of one resource type (client-go's SharedInformer, reduced):
// an in-memory cache keyed by namespace/name, fed by list/watch loops (list-watch.ts), and
// event handlers (add/update/delete) for controllers.
//
// With `namespaces` (crossrole run --watch-namespace a,b) it runs one list/watch per namespace
// and never lists cluster-wide, so namespace-scoped RBAC suffices; the cache still answers for
// all of them at once. A relist (first list, or after 410 Gone) is diffed against the cache and
// turned into synthetic add/update/delete events, so handlers never miss a change; so is a new
// label selector (setLabelSelector: what a sharded replica watches follows the buckets it owns).
//
// `health()` says whether its loops reach the apiserver: unhealthy once any loop's list/watch
// has kept failing for `unhealthyAfterMs` (5 s), healthy again when it succeeds (the manager
// turns this into a /readyz check and the crossrole_informer_healthy gauge). Each flip is
// logged once (informer.unhealthy / informer.recovered), never each retry.

import type { BackoffOptions } from "../toolkit/backoff.ts";
import { type Clock, systemClock } from "../toolkit/clock.ts";
import type { KubeClient } from "./kube-client.ts";
import {
  apiVersionOf,
  collectionPath,
  type KubeObject,
  keyOf,
  objectKey,
  type ResourceType,
  splitKey,
} from "./kube-object.ts";
import { ListWatch, type ListWatchStats, type WatchEventType } from "./list-watch.ts";
import { type Logger, silentLogger } from "./logger.ts";
import type { StringPool } from "./string-pool.ts";
import { type SyncGate, waitUntilOpen } from "./sync-gate.ts";

export interface InformerHandler<T extends KubeObject = KubeObject> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** `obj` is the last state the cache knew. */
  onDelete?(obj: T): void;
}

export interface InformerOptions {
  readonly client: KubeClient;
  readonly resource: ResourceType;
  /** Watch only these namespaces (one list/watch each). Empty/absent: all namespaces. Ignored for cluster-scoped types. */
  readonly namespaces?: readonly string[];
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Its name (metrics, logs), when the one made of resource and selectors would not fit (a selector that changes). */
  readonly name?: string;
  /** Keep metadata.managedFields in the cache (dropped by default: large and unused). */
  readonly keepManagedFields?: boolean;
  /**
   * Cache only apiVersion, kind and metadata: for objects whose changes matter but whose
   * content is read on demand (Secrets a resource references: their values never sit in memory).
   */
  readonly metadataOnly?: boolean;
  /**
   * Cache only what `project` keeps of each object (a view for readers that need a few fields of
   * every object, not the objects); `name` tells it apart from other views of the same resource.
   */
  readonly projection?: { readonly name: string; project(obj: KubeObject): KubeObject };
  /** One copy of each short string the cached objects hold (string-pool.ts); shared by a manager's informers. */
  readonly strings?: StringPool;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly backoff?: BackoffOptions;
  readonly watchTimeoutSeconds?: number;
  readonly minHealthyWatchMs?: number;
  /** How long list/watch must keep failing before the informer counts as unhealthy (5 s). */
  readonly unhealthyAfterMs?: number;
}

/** Whether an informer reaches the apiserver; see `Informer.health()`. */
export interface InformerHealth {
  readonly healthy: boolean;
  /** While unhealthy: when the failures began (ms since the epoch), the earliest of its loops. */
  readonly since?: number;
  /** While unhealthy: the latest failure of the loop failing longest, with its path. */
  readonly lastError?: string;
}

/** Objects in the cache are shared: treat them as read-only (copy before changing). */
export class Informer<T extends KubeObject = KubeObject> implements SyncGate {
  readonly name: string;
  readonly resource: ResourceType;
  /** namespace ("" for cluster-scoped) → name → object */
  readonly #cache = new Map<string, Map<string, T>>();
  readonly #handlers = new Set<InformerHandler<T>>();
  readonly #loops: { readonly lw: ListWatch; readonly path: string; readonly state: { synced: boolean } }[] =
    [];
  readonly #syncWaiters: (() => void)[] = [];
  readonly #healthListeners = new Set<(health: InformerHealth) => void>();
  readonly #log: Logger;
  readonly #clock: Clock;
  /** When the informer last turned unhealthy (the failures' start); undefined while healthy. */
  #unhealthySince: number | undefined;
  #started = false;

  constructor(opts: InformerOptions) {
    this.resource = opts.resource;
    const rt = opts.resource;
    const namespaces = rt.namespaced ? [...new Set(opts.namespaces ?? [])].filter((n) => n !== "") : [];
    const scopes: (string | undefined)[] = namespaces.length > 0 ? namespaces : [undefined];
    const selectors = [opts.labelSelector, opts.fieldSelector].filter((s) => s !== undefined && s !== "");
    // Unique among a manager's informers: their names label the health gauge.
    this.name =
      opts.name ??
      `${rt.plural}${rt.group ? `.${rt.group}` : ""}${opts.metadataOnly ? " (metadata)" : ""}${opts.projection ? ` (${opts.projection.name})` : ""}${namespaces.length > 0 ? ` in ${namespaces.join(",")}` : ""}${selectors.length > 0 ? ` (${selectors.join(", ")})` : ""}`;
    this.#clock = opts.clock ?? systemClock;
    this.#log = (opts.logger ?? silentLogger).child({ informer: this.name });
    const apiVersion = apiVersionOf(rt);
    const keepManagedFields = opts.keepManagedFields ?? false;
    const metadataOnly = opts.metadataOnly ?? false;
    const strings = opts.strings;
    const projection = opts.projection;
    const transform = (obj: KubeObject): KubeObject => {
      // List items carry no apiVersion/kind; events and owner references need them.
      obj.apiVersion ??= apiVersion;
      obj.kind ??= rt.kind;
      if (!keepManagedFields && obj.metadata) delete obj.metadata.managedFields;
      const kept = metadataOnly
        ? { apiVersion: obj.apiVersion, kind: obj.kind, metadata: obj.metadata }
        : projection
          ? projection.project(obj)
          : obj;
      return strings ? strings.internValues(kept) : kept;
    };
    for (const scope of scopes) {
      const state = { synced: false };
      const path = collectionPath(rt, scope);
      const lw = new ListWatch({
        client: opts.client,
        path,
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        transform,
        logger: this.#log,
        clock: opts.clock,
        random: opts.random,
        backoff: opts.backoff,
        watchTimeoutSeconds: opts.watchTimeoutSeconds,
        minHealthyWatchMs: opts.minHealthyWatchMs,
        unhealthyAfterMs: opts.unhealthyAfterMs,
        onHealthChange: () => this.#healthChanged(),
        handlers: {
          replace: (items) => {
            this.#replace(scope, items as T[]);
            if (!state.synced) {
              state.synced = true;
              if (this.hasSynced()) {
                this.#log.info({ objects: this.size }, "cache synced");
                for (const w of this.#syncWaiters.splice(0)) w();
              }
            }
          },
          event: (type, obj) => this.#apply(type, obj as T),
        },
      });
      this.#loops.push({ lw, path, state });
    }
  }

  /** Starts the list/watch loops (idempotent). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const l of this.#loops) l.lw.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((l) => l.lw.stop()));
  }

  /**
   * Selects by `selector` from now on: every loop lists again, and the difference reaches the
   * handlers as adds (objects now selected) and deletes (objects no longer selected).
   */
  setLabelSelector(selector: string | undefined): void {
    for (const l of this.#loops) l.lw.setLabelSelector(selector);
  }

  get labelSelector(): string | undefined {
    return this.#loops[0]?.lw.labelSelector;
  }

  hasSynced(): boolean {
    return this.#loops.every((l) => l.state.synced);
  }

  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return waitUntilOpen(this.hasSynced(), (w) => this.#syncWaiters.push(w), signal);
  }

  /**
   * Whether the list/watch loops reach the apiserver: unhealthy while any of them has kept
   * failing (connection refused or reset, 5xx, timeouts) for longer than `unhealthyAfterMs`.
   */
  health(): InformerHealth {
    let worst: { since: number; lastError: string } | undefined;
    for (const { lw, path } of this.#loops) {
      const h = lw.health();
      if (h.healthy || h.failingSince === undefined) continue;
      if (worst === undefined || h.failingSince < worst.since) {
        worst = { since: h.failingSince, lastError: `${path}: ${h.lastError ?? "unknown error"}` };
      }
    }
    return worst === undefined ? { healthy: true } : { healthy: false, ...worst };
  }

  /** Calls `fn` whenever `health().healthy` flips; returns a function that removes it. */
  onHealthChange(fn: (health: InformerHealth) => void): () => void {
    this.#healthListeners.add(fn);
    return () => {
      this.#healthListeners.delete(fn);
    };
  }

  /**
   * Registers handlers and returns a function that removes them. Objects already in the cache
   * are delivered to `onAdd` first, so a late subscriber sees everything.
   */
  addHandler(handler: InformerHandler<T>): () => void {
    this.#handlers.add(handler);
    if (handler.onAdd) {
      for (const obj of this.list()) this.#call(() => handler.onAdd?.(obj));
    }
    return () => {
      this.#handlers.delete(handler);
    };
  }

  /** `namespace` is "" (or undefined) for cluster-scoped objects. */
  get(namespace: string | undefined, name: string): T | undefined {
    return this.#cache.get(namespace ?? "")?.get(name);
  }

  getByKey(key: string): T | undefined {
    const { namespace, name } = splitKey(key);
    return this.get(namespace, name);
  }

  /** All cached objects, or those of one namespace. */
  list(namespace?: string): T[] {
    if (namespace !== undefined) return [...(this.#cache.get(namespace)?.values() ?? [])];
    const out: T[] = [];
    for (const byName of this.#cache.values()) out.push(...byName.values());
    return out;
  }

  keys(): string[] {
    const out: string[] = [];
    for (const [ns, byName] of this.#cache) for (const name of byName.keys()) out.push(objectKey(ns, name));
    return out;
  }

  get size(): number {
    let n = 0;
    for (const byName of this.#cache.values()) n += byName.size;
    return n;
  }

  /** Summed list/watch counters of all loops. */
  stats(): ListWatchStats {
    const s: ListWatchStats = { lists: 0, watches: 0, relists: 0, errors: 0 };
    for (const { lw } of this.#loops) {
      s.lists += lw.stats.lists;
      s.watches += lw.stats.watches;
      s.relists += lw.stats.relists;
      s.errors += lw.stats.errors;
    }
    return s;
  }

  #healthChanged(): void {
    const health = this.health();
    // Only the informer's own flips count: a second loop failing (or one of two recovering) does not.
    if (health.healthy === (this.#unhealthySince === undefined)) return;
    const now = this.#clock.now();
    if (health.healthy) {
      const since = this.#unhealthySince ?? now;
      this.#unhealthySince = undefined;
      this.#log.info(
        { event: "informer.recovered", unhealthySince: new Date(since).toISOString(), outageMs: now - since },
        "informer reaches the apiserver again",
      );
    } else {
      const since = health.since ?? now;
      this.#unhealthySince = since;
      this.#log.warn(
        {
          event: "informer.unhealthy",
          since: new Date(since).toISOString(),
          failingForMs: now - since,
          err: health.lastError,
        },
        "informer cannot reach the apiserver (list/watch keeps failing); not ready until it recovers",
      );
    }
    for (const fn of this.#healthListeners) this.#call(() => fn(health));
  }

  #call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#log.error({ err }, "informer handler threw");
    }
  }

  #set(obj: T): T | undefined {
    const ns = obj.metadata.namespace ?? "";
    let byName = this.#cache.get(ns);
    if (!byName) {
      byName = new Map();
      this.#cache.set(ns, byName);
    }
    const old = byName.get(obj.metadata.name);
    byName.set(obj.metadata.name, obj);
    return old;
  }

  #delete(namespace: string, name: string): T | undefined {
    const byName = this.#cache.get(namespace);
    const old = byName?.get(name);
    if (byName && old) {
      byName.delete(name);
      if (byName.size === 0) this.#cache.delete(namespace);
    }
    return old;
  }

  #apply(type: WatchEventType, obj: T): void {
    if (type === "DELETED") {
      const old = this.#delete(obj.metadata.namespace ?? "", obj.metadata.name);
      this.#emitDelete(old ?? obj);
      return;
    }
    const old = this.#set(obj);
    if (old) this.#emitUpdate(old, obj);
    else this.#emitAdd(obj);
  }

  /** Replaces everything in `scope` (one namespace, or all) with `items`, emitting the differences. */
  #replace(scope: string | undefined, items: T[]): void {
    const previous = new Map<string, T>();
    const scoped =
      scope === undefined ? [...this.#cache.entries()] : [[scope, this.#cache.get(scope)] as const];
    for (const [, byName] of scoped) for (const obj of byName?.values() ?? []) previous.set(keyOf(obj), obj);
    if (scope === undefined) this.#cache.clear();
    else this.#cache.delete(scope);
    const seen = new Set<string>();
    for (const obj of items) {
      const key = keyOf(obj);
      seen.add(key);
      this.#set(obj);
      const old = previous.get(key);
      if (!old) this.#emitAdd(obj);
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.#emitUpdate(old, obj);
    }
    for (const [key, old] of previous) if (!seen.has(key)) this.#emitDelete(old);
  }

  #emitAdd(obj: T): void {
    for (const h of this.#handlers) if (h.onAdd) this.#call(() => h.onAdd?.(obj));
  }

  #emitUpdate(old: T, obj: T): void {
    for (const h of this.#handlers) if (h.onUpdate) this.#call(() => h.onUpdate?.(old, obj));
  }

  #emitDelete(obj: T): void {
    for (const h of this.#handlers) if (h.onDelete) this.#call(() => h.onDelete?.(obj));
  }
}
