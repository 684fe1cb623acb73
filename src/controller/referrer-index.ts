// Who references a served object (ACK's `*Ref` fields), from the informers every kind already
// has, with where each referrer's decision places it now: the candidates that may hold the
// deletion of the referenced object (a DB subnet group is not deleted under the DB instance
// placed in it). Which of them hold it is judged with the controller's own records of what used
// the reference in AWS (references.ts, deletionInUse). When a referrer goes, or its reference
// changes, the referenced object's controller is re-queued, so the deletion goes on at once.
//
// It fails closed: while a kind's informer has not synced, or a kind has objects but its
// controller (and so the list of its references) is not loaded yet, who references what is not
// known, and the answer is "unknown" (the deletion waits).
import type { Controller } from "../runtime/controller.ts";
import { type KubeObject, keyOf } from "../runtime/kube-object.ts";
import { isServedReference, type ReferenceField } from "../services/references.ts";
import type { ManagedObject } from "./reconcile/object-store.ts";
import { type ReferrerOf, referenceTo, setReferences } from "./references.ts";

interface KindInformer {
  list(namespace?: string): readonly ManagedObject[];
  hasSynced(): boolean;
  addHandler(h: {
    onUpdate?: (before: ManagedObject, after: ManagedObject) => void;
    onDelete?: (obj: ManagedObject) => void;
  }): unknown;
}

interface Registered {
  readonly references: readonly ReferenceField[];
  /** Absent for a kind crossrole does not reconcile (--reconcile-resources leaves it out). */
  readonly controller: Controller | undefined;
}

export class ReferrerIndex {
  readonly #informers: ReadonlyMap<string, KindInformer>;
  readonly #allowCrossNamespace: boolean;
  readonly #placementOf: (obj: ManagedObject) => ReferrerOf["placement"];
  readonly #registered = new Map<string, Registered>();

  /**
   * `placementOf`: where a referrer's decision places it now (null: nowhere), so that a deletion
   * waits only for referrers that can act where the referenced object is (references.ts).
   */
  constructor(
    informers: ReadonlyMap<string, KindInformer>,
    allowCrossNamespace: boolean,
    placementOf: (obj: ManagedObject) => ReferrerOf["placement"],
  ) {
    this.#informers = informers;
    this.#allowCrossNamespace = allowCrossNamespace;
    this.#placementOf = placementOf;
  }

  /**
   * A kind's references are known (its module loaded): its controller is up, or, for a kind
   * crossrole does not reconcile, `controller` is undefined. Its objects still reference what
   * they name (another controller, ACK's during a migration, may have placed them on it), and
   * its referrers' changes wake targets.
   */
  register(kind: string, references: readonly ReferenceField[], controller: Controller | undefined): void {
    const served = references.filter(isServedReference);
    this.#registered.set(kind, { references: served, controller });
    const informer = this.#informers.get(kind);
    if (served.length === 0 || informer === undefined) return;
    // A referrer gone, or its reference moved: the objects it named may now be deleted.
    const wakeTargets = (obj: ManagedObject) => {
      const spec = obj.spec;
      if (typeof spec !== "object" || spec === null) return;
      for (const ref of setReferences(
        spec as Record<string, unknown>,
        served,
        obj.metadata.namespace ?? "",
      )) {
        const target = this.#registered.get(ref.kind)?.controller;
        target?.enqueue(`${ref.namespace}/${ref.name}`);
      }
    };
    informer.addHandler({
      onUpdate: (before, after) => {
        if (JSON.stringify(before.spec) !== JSON.stringify(after.spec)) wakeTargets(before);
      },
      onDelete: wakeTargets,
    });
  }

  /**
   * The objects whose spec references `kind` `namespace`/`name`, or undefined when that cannot be
   * known yet (see the file comment).
   */
  referrersOf(kind: string, namespace: string, name: string): readonly ReferrerOf[] | undefined {
    const out: ReferrerOf[] = [];
    for (const [referrerKind, informer] of this.#informers) {
      const registered = this.#registered.get(referrerKind);
      if (!informer.hasSynced()) return undefined;
      if (registered === undefined) {
        if (informer.list().length > 0) return undefined;
        continue;
      }
      const refs = registered.references.filter((r) => r.kind === kind);
      if (refs.length === 0) continue;
      const candidates = this.#allowCrossNamespace ? informer.list() : informer.list(namespace);
      for (const obj of candidates) {
        const hit = referenceTo(obj.spec, refs, obj.metadata.namespace ?? "", { kind, namespace, name });
        if (hit)
          out.push({
            kind: referrerKind,
            key: keyOf(obj as KubeObject),
            uid: obj.metadata.uid ?? "",
            path: hit.path,
            deleting: obj.metadata.deletionTimestamp !== undefined,
            ...(refs[hit.source]?.afterCreate === true ? { afterCreate: true } : {}),
            placement: this.#placementOf(obj),
          });
      }
    }
    return out;
  }
}
