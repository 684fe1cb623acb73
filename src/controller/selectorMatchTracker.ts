// Keeps the selector match counts (selectorMatches.ts) equal to "resolve every cached resource
// against the current snapshot and count the decisions each selector made" — with the resolver
// itself, as usageTracker.ts does for identities, rather than from what the reconcilers happened
// to decide: the count is complete as soon as the caches have synced (no waiting for every
// resource to be reconciled after a restart), and independent of reconcile order and backoff.
//
// In CARM mode (feature gate IAMRoleSelector off) no decision can come from a selector, so the
// tracker resolves nothing at all: every count is 0 and the default mode pays nothing for it.
// Resource events update one entry; a configuration change recomputes everything, coalesced.
import { resolve } from "../resolver/resolve.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ResourceObject, Settings } from "../resolver/types.ts";
import type { Informer } from "../runtime/informer.ts";
import type { KubeObject } from "../runtime/kubeObject.ts";
import type { SyncGate } from "../runtime/syncGate.ts";
import { MatchIndex, selectorOf } from "./selectorMatches.ts";

export interface SelectorMatchTrackerOptions {
  readonly config: SyncGate & { snapshot(): Snapshot; onChange(listener: () => void): () => void };
  /** One informer per managed kind (the resource controllers' shared informers). */
  readonly resources: readonly { readonly kind: string; readonly informer: Informer }[];
  readonly settings: Settings;
}

export class SelectorMatchTracker implements SyncGate {
  readonly name = "IAMRoleSelector matches (managed resource caches)";
  readonly #o: SelectorMatchTrackerOptions;
  readonly #index = new MatchIndex();
  readonly #listeners = new Set<(selectors: readonly string[]) => void>();
  readonly #enabled: boolean;
  #builtFrom: Snapshot | undefined;
  #complete = false;
  #rebuildPending = false;

  constructor(o: SelectorMatchTrackerOptions) {
    this.#o = o;
    this.#enabled = o.settings.featureGates.IAMRoleSelector;
    if (!this.#enabled) return;
    for (const { kind, informer } of o.resources) {
      informer.addHandler({
        onAdd: (obj) => this.#update(kind, obj),
        onUpdate: (_old, obj) => this.#update(kind, obj),
        onDelete: (obj) => this.#emit(this.#index.set(resourceKey(kind, obj), null)),
      });
    }
    o.config.onChange(() => this.#scheduleRebuild());
  }

  /** Whether selectors decide anything in this controller (the IAMRoleSelector feature gate). */
  get enabled(): boolean {
    return this.#enabled;
  }

  hasSynced(): boolean {
    return this.#o.resources.every((r) => r.informer.hasSynced());
  }

  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    for (const r of this.#o.resources) if (!(await r.informer.waitForSync(signal))) return false;
    return true;
  }

  /** Called with the names of the selectors whose count changed. */
  onChange(listener: (selectors: readonly string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many resources the selector decides for now; undefined while any cache has not synced. */
  count(selector: string): number | undefined {
    if (!this.#o.config.hasSynced() || !this.hasSynced()) return undefined;
    if (!this.#enabled) return 0;
    const snapshot = this.#o.config.snapshot();
    if (!this.#complete || snapshot !== this.#builtFrom) this.#rebuild(snapshot);
    return this.#index.count(selector);
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
    this.#emit(this.#index.set(resourceKey(kind, obj), this.#selectorFor(obj, snapshot)));
  }

  #selectorFor(obj: KubeObject, snapshot: Snapshot): string | null {
    const ns = obj.metadata.namespace ?? "";
    return selectorOf(resolve(obj as unknown as ResourceObject, ns, snapshot, this.#o.settings));
  }

  #scheduleRebuild(): void {
    if (this.#rebuildPending) return;
    this.#rebuildPending = true;
    setImmediate(() => {
      this.#rebuildPending = false;
      if (!this.#o.config.hasSynced()) return;
      const snapshot = this.#o.config.snapshot();
      // count() may have rebuilt from this very snapshot (and the caches as they are) meanwhile.
      if (!this.#complete || snapshot !== this.#builtFrom) this.#rebuild(snapshot);
    });
  }

  #rebuild(snapshot: Snapshot): void {
    const complete = this.#o.config.hasSynced() && this.hasSynced();
    const entries = this.#o.resources.flatMap(({ kind, informer }) =>
      informer
        .list()
        .map((obj) => ({ resource: resourceKey(kind, obj), selector: this.#selectorFor(obj, snapshot) })),
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

function resourceKey(kind: string, obj: KubeObject): string {
  return `${kind}/${obj.metadata.namespace ?? ""}/${obj.metadata.name}`;
}
