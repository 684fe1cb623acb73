// Each managed resource's decision, resolved once per configuration snapshot and shared by all
// that need it: the reconciler, the resource controller's re-queue on a configuration change,
// and the trackers that index every cached resource (identity usage, IAMRoleSelector matches).
// Each of them used to call the resolver itself, so one resource under one configuration was
// resolved three or four times, and again for every echo of the controller's own writes.
//
// The resolver is pure: the same resource inputs, namespace, snapshot and settings give the same
// Decision. So, for the current snapshot (by identity: the configuration cache builds a new one
// on every change), a decision is kept under
//   - the cached object itself (informers replace an object on update, never change it): the
//     next ask about the same object costs one lookup;
//   - what the resolver reads of it (readResource: kind, name, labels, annotations,
//     spec.identityRef, status.ackResourceMetadata), hashed: a new version of the object that
//     changed none of that (its conditions written, a spec field other than identityRef)
//     shares the Decision already made: one per resource in memory, not one per version.
// Nothing has to be told that a resource was deleted: the first map is weak, the second holds
// weak references (swept as it grows), and both go when another snapshot is asked about.
// A kept Decision has no trace: the controller never reads one (`crossrole explain` and `audit`
// resolve on their own), and a trace, a few hundred bytes of text per resource, is what most of
// a decision's memory was.
import { hash } from "node:crypto";
import { resolve } from "../resolver/resolve.ts";
import { readResource } from "../resolver/resource-info.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, ResourceObject, Settings } from "../resolver/types.ts";
import type { KubeObject } from "../runtime/kube-object.ts";

/** The resolver's signature (src/resolver/resolve.ts); a test passes one that counts. */
export type Resolver = typeof resolve;

/** The decisions made under one snapshot. */
interface Generation {
  readonly snapshot: Snapshot;
  readonly byObject: WeakMap<KubeObject, Decision>;
  readonly byInputs: Map<string, WeakRef<Decision>>;
  /** byInputs is swept of dead references when it grows past this. */
  sweepAt: number;
}

export class DecisionMemo {
  /** The settings every decision is made with: one memo per controller process. */
  readonly settings: Settings;
  readonly #resolve: Resolver;
  /**
   * The decisions under the snapshot last asked about. Every caller asks with the configuration
   * cache's current snapshot, so a new one retires the old one's decisions at once, rather than
   * whenever the old snapshot is collected: never more than one snapshot's worth is held.
   */
  #gen: Generation | undefined;

  constructor(settings: Settings, resolver: Resolver = resolve) {
    this.settings = settings;
    this.#resolve = resolver;
  }

  /** The decision for `obj` (as the informer caches it) under `snapshot`. */
  decide(obj: KubeObject, snapshot: Snapshot): Decision {
    let gen = this.#gen;
    if (gen?.snapshot !== snapshot) {
      gen = { snapshot, byObject: new WeakMap(), byInputs: new Map(), sweepAt: 64 };
      this.#gen = gen;
    }
    const known = gen.byObject.get(obj);
    if (known !== undefined) return known;
    const namespace = obj.metadata.namespace ?? "";
    const inputs = inputsKey(obj, namespace);
    let decision = inputs === undefined ? undefined : gen.byInputs.get(inputs)?.deref();
    if (decision === undefined) {
      decision = withoutTrace(
        this.#resolve(obj as unknown as ResourceObject, namespace, snapshot, this.settings),
      );
      if (inputs !== undefined) remember(gen, inputs, decision);
    }
    gen.byObject.set(obj, decision);
    return decision;
  }
}

const noTrace: Decision["trace"] = Object.freeze([]);

function withoutTrace(d: Decision): Decision {
  return d.trace.length === 0 ? d : { ...d, trace: noTrace };
}

function remember(gen: Generation, inputs: string, decision: Decision): void {
  gen.byInputs.set(inputs, new WeakRef(decision));
  if (gen.byInputs.size <= gen.sweepAt) return;
  // Decisions no cached object holds any more (deleted resources, old versions) are gone.
  for (const [key, ref] of gen.byInputs) if (ref.deref() === undefined) gen.byInputs.delete(key);
  gen.sweepAt = Math.max(64, 2 * gen.byInputs.size);
}

/**
 * Everything the resolver reads of the object, as a short key (a hash: annotations can hold a
 * whole manifest); undefined when it cannot be said, and the object is then resolved as it is.
 */
function inputsKey(obj: KubeObject, namespace: string): string | undefined {
  try {
    const read = readResource(obj);
    const text = JSON.stringify(read.ok ? [namespace, read.info] : [namespace, read.error]);
    // One call, no Hash object whose native state would wait for a garbage collection.
    return hash("sha256", text, "base64");
  } catch {
    return undefined;
  }
}
