// The IAMRoleSelector match counts (selector-matches.ts), kept equal to what the resolver decides
// for every cached resource now (resolved-cache-tracker.ts says why that, and not the reconcilers'
// record).
//
// In CARM mode (feature gate IAMRoleSelector off) no decision can come from a selector, so the
// tracker resolves nothing at all: every count is 0 and the default mode pays nothing for it.
import type { KubeObject } from "../runtime/kube-object.ts";
import type { SyncGate } from "../runtime/sync-gate.ts";
import { ResolvedCacheTracker, type ResolvedCacheTrackerOptions } from "./resolved-cache-tracker.ts";
import { MatchIndex, selectorOf } from "./selector-matches.ts";

/** The caches to resolve (one informer per managed kind, the resource controllers' shared ones). */
export type SelectorMatchTrackerOptions = Pick<
  ResolvedCacheTrackerOptions<unknown>,
  "config" | "resources" | "settings" | "decisions"
>;

export class SelectorMatchTracker implements SyncGate {
  readonly name = "IAMRoleSelector matches (managed resource caches)";
  readonly #o: SelectorMatchTrackerOptions;
  readonly #index = new MatchIndex();
  /** Absent in CARM mode: nothing to resolve. */
  readonly #tracker: ResolvedCacheTracker<string | null> | undefined;

  constructor(o: SelectorMatchTrackerOptions) {
    this.#o = o;
    if (!o.settings.featureGates.IAMRoleSelector) return;
    const index = this.#index;
    this.#tracker = new ResolvedCacheTracker(this.name, {
      ...o,
      project: selectorOf,
      removed: null,
      index: {
        set: (kind, obj, selector) => index.set(resourceKey(kind, obj), selector),
        replaceAll: (entries) =>
          index.replaceAll(entries.map((e) => ({ resource: resourceKey(e.kind, e.obj), selector: e.value }))),
      },
    });
  }

  /** Whether selectors decide anything in this controller (the IAMRoleSelector feature gate). */
  get enabled(): boolean {
    return this.#tracker !== undefined;
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
    return this.#tracker?.onChange(listener) ?? (() => {});
  }

  /** How many resources the selector decides for now; undefined while any cache has not synced. */
  count(selector: string): number | undefined {
    if (!this.#o.config.hasSynced() || !this.hasSynced()) return undefined;
    if (this.#tracker === undefined) return 0;
    this.#tracker.ensureCurrent();
    return this.#index.count(selector);
  }
}

function resourceKey(kind: string, obj: KubeObject): string {
  return `${kind}/${obj.metadata.namespace ?? ""}/${obj.metadata.name}`;
}
