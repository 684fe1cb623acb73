// Each managed resource's decision, resolved once per configuration snapshot and shared by all
// that need it: the reconciler, the resource controller's re-queue on a configuration change,
// and the trackers that index every cached resource (identity usage, IAMRoleSelector matches).
// Each of them used to call the resolver itself, so one resource under one configuration was
// resolved three or four times (once more for every echo of the controller's own writes).
//
// The key is the cached object and the snapshot, both by identity. That is exact because the
// resolver is pure (same object, namespace, snapshot and settings: same Decision), an informer
// replaces a cached object on every update instead of changing it, and the configuration cache
// builds a new snapshot on every change. Weak maps let an entry go with its object or with its
// snapshot: nothing has to be told that a resource was deleted or the configuration moved on.
import { resolve } from "../resolver/resolve.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, ResourceObject, Settings } from "../resolver/types.ts";
import type { KubeObject } from "../runtime/kube-object.ts";

/** The resolver's signature (src/resolver/resolve.ts); a test passes one that counts. */
export type Resolver = typeof resolve;

export class DecisionMemo {
  /** The settings every decision is made with: one memo per controller process. */
  readonly settings: Settings;
  readonly #resolve: Resolver;
  readonly #bySnapshot = new WeakMap<Snapshot, WeakMap<KubeObject, Decision>>();

  constructor(settings: Settings, resolver: Resolver = resolve) {
    this.settings = settings;
    this.#resolve = resolver;
  }

  /** The decision for `obj` (as the informer caches it) under `snapshot`. */
  decide(obj: KubeObject, snapshot: Snapshot): Decision {
    let decisions = this.#bySnapshot.get(snapshot);
    if (decisions === undefined) {
      decisions = new WeakMap();
      this.#bySnapshot.set(snapshot, decisions);
    }
    let decision = decisions.get(obj);
    if (decision === undefined) {
      const namespace = obj.metadata.namespace ?? "";
      decision = this.#resolve(obj as unknown as ResourceObject, namespace, snapshot, this.settings);
      decisions.set(obj, decision);
    }
    return decision;
  }
}
