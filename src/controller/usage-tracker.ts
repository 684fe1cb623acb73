// The identity usage index (identity-usage.ts), kept equal to what the resolver decides for every
// cached resource now (resolved-cache-tracker.ts says why that, and not the reconcilers' record).
import type { KubeObject } from "../runtime/kube-object.ts";
import type { SyncGate } from "../runtime/sync-gate.ts";
import { identitiesUsedBy, UsageIndex, type UserRef } from "./identity-usage.ts";
import {
  type ConfigSource,
  ResolvedCacheTracker,
  type ResolvedCacheTrackerOptions,
} from "./resolved-cache-tracker.ts";

export type { ConfigSource };

/** The caches to resolve (one informer per managed kind, the resource controllers' shared ones). */
export type UsageTrackerOptions = Pick<
  ResolvedCacheTrackerOptions<unknown>,
  "config" | "resources" | "settings" | "decisions"
>;

export class UsageTracker implements SyncGate {
  readonly name = "identity usage (managed resource caches)";
  readonly #index = new UsageIndex();
  readonly #tracker: ResolvedCacheTracker<readonly string[]>;

  constructor(o: UsageTrackerOptions) {
    const index = this.#index;
    this.#tracker = new ResolvedCacheTracker(this.name, {
      ...o,
      project: identitiesUsedBy,
      removed: [],
      index: {
        set: (kind, obj, identities) => index.set(userOf(kind, obj), identities),
        replaceAll: (entries) =>
          index.replaceAll(entries.map((e) => ({ user: userOf(e.kind, e.obj), identities: e.value }))),
      },
    });
  }

  hasSynced(): boolean {
    return this.#tracker.hasSynced();
  }

  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return this.#tracker.waitForSync(signal);
  }

  /** Called with the identity keys whose users changed. */
  onChange(listener: (identities: readonly string[]) => void): () => void {
    return this.#tracker.onChange(listener);
  }

  /**
   * The index, complete and computed from the current snapshot; undefined while any cache
   * (configuration or managed kinds) has not synced — callers must not release anything then.
   */
  current(): UsageIndex | undefined {
    return this.#tracker.ensureCurrent() ? this.#index : undefined;
  }
}

function userOf(kind: string, obj: KubeObject): UserRef {
  return { kind, namespace: obj.metadata.namespace ?? "", name: obj.metadata.name };
}
