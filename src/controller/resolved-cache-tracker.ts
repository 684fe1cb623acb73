// "Resolve every cached resource against the current configuration snapshot, and keep an index
// of what the decisions say" — the machinery the identity usage index (usage-tracker.ts) and the
// IAMRoleSelector match counts (selector-match-tracker.ts) share. With the resolver itself,
// rather than collecting what the reconcilers happened to decide, because that is:
//   - restart-safe: the index is complete as soon as the resource caches and the configuration
//     have synced, without waiting for every resource to be reconciled once, so nothing is
//     released (a finalizer, a count) on an incomplete picture;
//   - deterministic: independent of reconcile order, failures and backoff.
// Resource events update one entry; a configuration change recomputes everything (any decision
// may change), coalesced and never from inside an informer handler. The decisions come from the
// process's DecisionMemo: a resource the reconciler or another tracker already decided under the
// current snapshot is not resolved again.
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, Settings } from "../resolver/types.ts";
import type { Informer } from "../runtime/informer.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import type { SyncGate } from "../runtime/sync-gate.ts";
import { DecisionMemo } from "./decision-memo.ts";

/** What the tracker needs of the configuration cache. */
export interface ConfigSource extends SyncGate {
  snapshot(): Snapshot;
  onChange(listener: () => void): () => void;
}

/** One managed kind's shared informer. */
export interface ResourceCache {
  readonly kind: string;
  readonly informer: Informer;
}

/** An index of one value per resource; each write says which of its keys changed. */
export interface DecisionIndex<Value> {
  set(kind: string, obj: KubeObject, value: Value): readonly string[];
  replaceAll(entries: readonly { kind: string; obj: KubeObject; value: Value }[]): readonly string[];
}

export interface ResolvedCacheTrackerOptions<Value> {
  readonly config: ConfigSource;
  readonly resources: readonly ResourceCache[];
  readonly settings: Settings;
  /** Decisions shared with the resource controllers (start.ts); default: a memo of its own. */
  readonly decisions?: DecisionMemo;
  readonly index: DecisionIndex<Value>;
  /** What the index keeps of a resource's decision. */
  readonly project: (decision: Decision) => Value;
  /** The value of a resource that is gone. */
  readonly removed: Value;
}

export class ResolvedCacheTracker<Value> implements SyncGate {
  readonly name: string;
  readonly #o: ResolvedCacheTrackerOptions<Value>;
  readonly #decisions: DecisionMemo;
  readonly #listeners = new Set<(keys: readonly string[]) => void>();
  /** The snapshot the index was last fully computed from. */
  #builtFrom: Snapshot | undefined;
  /** The last full computation saw every cache synced: the index is the whole truth. */
  #complete = false;
  #rebuildPending = false;

  constructor(name: string, o: ResolvedCacheTrackerOptions<Value>) {
    this.name = name;
    this.#o = o;
    this.#decisions = o.decisions ?? new DecisionMemo(o.settings);
    for (const { kind, informer } of o.resources) {
      informer.addHandler({
        onAdd: (obj) => this.#update(kind, obj),
        onUpdate: (_old, obj) => this.#update(kind, obj),
        onDelete: (obj) => this.#emit(o.index.set(kind, obj, o.removed)),
      });
    }
    o.config.onChange(() => this.#scheduleRebuild());
  }

  /** Open once every managed kind's cache has synced (the configuration is its own gate). */
  hasSynced(): boolean {
    return this.#o.resources.every((r) => r.informer.hasSynced());
  }

  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    for (const r of this.#o.resources) if (!(await r.informer.waitForSync(signal))) return false;
    return true;
  }

  /** Called with the index keys whose value changed. */
  onChange(listener: (keys: readonly string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Whether the index is complete and computed from the current snapshot (recomputing it if
   * needed); false while any cache (configuration or managed kinds) has not synced — callers
   * must not release anything then.
   */
  ensureCurrent(): boolean {
    if (!this.#ready()) return false;
    const snapshot = this.#o.config.snapshot();
    if (!this.#complete || snapshot !== this.#builtFrom) this.#rebuild(snapshot);
    return true;
  }

  #ready(): boolean {
    return this.#o.config.hasSynced() && this.hasSynced();
  }

  #update(kind: string, obj: KubeObject): void {
    if (!this.#o.config.hasSynced()) return;
    const snapshot = this.#o.config.snapshot();
    // A newer snapshot than the index was built from: recompute everything, but not from inside
    // this handler (a relist may be half-applied to the cache right now).
    if (snapshot !== this.#builtFrom) {
      this.#scheduleRebuild();
      return;
    }
    this.#emit(this.#o.index.set(kind, obj, this.#valueOf(obj, snapshot)));
  }

  #valueOf(obj: KubeObject, snapshot: Snapshot): Value {
    return this.#o.project(this.#decisions.decide(obj, snapshot));
  }

  #scheduleRebuild(): void {
    if (this.#rebuildPending) return;
    this.#rebuildPending = true;
    setImmediate(() => {
      this.#rebuildPending = false;
      if (this.#o.config.hasSynced()) this.#rebuild(this.#o.config.snapshot());
    });
  }

  #rebuild(snapshot: Snapshot): void {
    const complete = this.#ready();
    const entries = this.#o.resources.flatMap(({ kind, informer }) =>
      informer.list().map((obj) => ({ kind, obj, value: this.#valueOf(obj, snapshot) })),
    );
    const changed = this.#o.index.replaceAll(entries);
    this.#builtFrom = snapshot;
    this.#complete = complete;
    this.#emit(changed);
  }

  #emit(changed: readonly string[]): void {
    if (changed.length === 0) return;
    for (const l of this.#listeners) l(changed);
  }
}
