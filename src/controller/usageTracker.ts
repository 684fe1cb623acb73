// Keeps the identity usage index (identityUsage.ts) equal to "resolve every cached resource
// against the current configuration snapshot" — the same pure function the reconcilers decide
// with — instead of collecting what the reconcilers happened to decide. Why:
//   - restart-safe: after a restart the index is complete as soon as the resource caches and the
//     configuration have synced, without waiting for every resource to be reconciled once, so a
//     finalizer is never removed from an identity on an incomplete picture;
//   - deterministic: it does not depend on reconcile order, failures or backoff.
// Resource events update one entry; a configuration change recomputes everything (decisions of
// any resource may change), coalesced like the resource controllers' own re-evaluation.
import { resolve } from "../resolver/resolve.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ResourceObject, Settings } from "../resolver/types.ts";
import type { Informer } from "../runtime/informer.ts";
import type { KubeObject } from "../runtime/kubeObject.ts";
import type { SyncGate } from "../runtime/syncGate.ts";
import { identitiesUsedBy, UsageIndex, type UserRef } from "./identityUsage.ts";

/** What the tracker needs of the configuration cache. */
export interface ConfigSource extends SyncGate {
  snapshot(): Snapshot;
  onChange(listener: () => void): () => void;
}

export interface UsageTrackerOptions {
  readonly config: ConfigSource;
  /** One informer per managed kind (the resource controllers' shared informers). */
  readonly resources: readonly { readonly kind: string; readonly informer: Informer }[];
  readonly settings: Settings;
}

export class UsageTracker implements SyncGate {
  readonly name = "identity usage (managed resource caches)";
  readonly #o: UsageTrackerOptions;
  readonly #index = new UsageIndex();
  readonly #listeners = new Set<(identities: readonly string[]) => void>();
  /** The snapshot the index was last fully computed from. */
  #builtFrom: Snapshot | undefined;
  /** The last full computation saw every cache synced: the index is the whole truth. */
  #complete = false;
  #rebuildPending = false;

  constructor(o: UsageTrackerOptions) {
    this.#o = o;
    for (const { kind, informer } of o.resources) {
      informer.addHandler({
        onAdd: (obj) => this.#update(kind, obj),
        onUpdate: (_old, obj) => this.#update(kind, obj),
        onDelete: (obj) => this.#emit(this.#index.remove(userOf(kind, obj))),
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

  /** Called with the identity keys whose users changed. */
  onChange(listener: (identities: readonly string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The index, complete and computed from the current snapshot; undefined while any cache
   * (configuration or managed kinds) has not synced — callers must not release anything then.
   */
  current(): UsageIndex | undefined {
    if (!this.#ready()) return undefined;
    const snapshot = this.#o.config.snapshot();
    if (!this.#complete || snapshot !== this.#builtFrom) this.#rebuild(snapshot);
    return this.#index;
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
    this.#emit(this.#index.set(userOf(kind, obj), this.#usedBy(obj, snapshot)));
  }

  #usedBy(obj: KubeObject, snapshot: Snapshot): string[] {
    const ns = obj.metadata.namespace ?? "";
    return identitiesUsedBy(resolve(obj as unknown as ResourceObject, ns, snapshot, this.#o.settings));
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
      informer.list().map((obj) => ({ user: userOf(kind, obj), identities: this.#usedBy(obj, snapshot) })),
    );
    const changed = this.#index.replaceAll(entries);
    this.#builtFrom = snapshot;
    this.#complete = complete;
    this.#emit(changed);
  }

  #emit(changed: readonly string[]): void {
    if (changed.length === 0) return;
    for (const l of this.#listeners) l(changed);
  }
}

function userOf(kind: string, obj: KubeObject): UserRef {
  return { kind, namespace: obj.metadata.namespace ?? "", name: obj.metadata.name };
}
