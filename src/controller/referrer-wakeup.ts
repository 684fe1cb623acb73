// Re-queues the resources that reference an object of another served kind (a DBInstance's
// dbSubnetGroupRef) when that object changes, so a referrer waiting for it moves on as soon as
// it is Synced, instead of at its next timed retry. It reads only what the informers already
// hold; whether the reference may be followed is still judged by the reconcile (references.ts),
// from a fresh GET of the referenced object.
//
// Who is woken, to keep one reconcile per resource:
// - any change of the referenced object (its status included) wakes referrers that are waiting
//   on a reference (ACK.Recoverable with one of referenceWaitReasons, or made but not Synced for
//   one: a reference needed only after the create);
// - its deletion, or a change of its labels or annotations (which can move its placement), wakes
//   every referrer: a Synced referrer then says the reference no longer holds.
import type { Controller } from "../runtime/controller.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { keyOf } from "../runtime/kube-object.ts";
import type { Manager } from "../runtime/manager.ts";
import { isServedReference, type ReferenceField, servedKindOf } from "../services/references.ts";
import type { ManagedObject } from "./reconcile/object-store.ts";
import { referenceRecheckReasons, referenceTo, referenceWaitReasons } from "./references.ts";
import { resourceTypeOf } from "./resource-type.ts";

/** Whether `obj` waits on a reference now (as its own conditions say: only a hint to wake it). */
export function waitsOnReference(obj: ManagedObject): boolean {
  return (obj.status?.conditions ?? []).some(
    (c) =>
      (c.status === "True" &&
        ((c.type === "ACK.Recoverable" && referenceWaitReasons.has(c.reason ?? "")) ||
          (c.type === "ACK.Terminal" && referenceRecheckReasons.has(c.reason ?? "")))) ||
      // Made, but a field needed after the create waits on a reference (a security group's rules).
      (c.type === "ACK.ResourceSynced" && c.status === "False" && referenceWaitReasons.has(c.reason ?? "")),
  );
}

/** A change that can alter whether a reference to the object holds for a referrer already using it. */
export function movesReferenced(before: KubeObject, after: KubeObject): boolean {
  const a = before.metadata;
  const b = after.metadata;
  return (
    a.deletionTimestamp !== b.deletionTimestamp ||
    JSON.stringify(a.labels) !== JSON.stringify(b.labels) ||
    JSON.stringify(a.annotations) !== JSON.stringify(b.annotations)
  );
}

/** The keys of `referrers` whose spec references `target` (of `kind`), and which `wake` admits. */
export function referrersOf(
  target: KubeObject,
  kind: string,
  references: readonly ReferenceField[],
  referrers: readonly ManagedObject[],
  wake: (obj: ManagedObject) => boolean,
): string[] {
  const named = { kind, namespace: target.metadata.namespace ?? "", name: target.metadata.name };
  return referrers
    .filter((obj) => referenceTo(obj.spec, references, obj.metadata.namespace ?? "", named) && wake(obj))
    .map(keyOf);
}

/** Watches each served kind `references` name and re-queues `controller`'s referrers. */
export function watchReferencedKinds(
  manager: Manager,
  references: readonly ReferenceField[],
  resources: { list(namespace?: string): readonly ManagedObject[] },
  controller: Controller,
  allowCrossNamespace: boolean,
): void {
  const served = references.filter(isServedReference);
  const kinds = new Map(
    served.flatMap((r) => {
      const kind = servedKindOf(r);
      return kind === undefined ? [] : [[r.kind, kind] as const];
    }),
  );
  for (const [kindName, kind] of kinds) {
    const informer = manager.informer<KubeObject>({ resource: resourceTypeOf(kind) });
    const wake = (target: KubeObject, admit: (obj: ManagedObject) => boolean) => {
      // Without the opt-in a reference never leaves its namespace: only that one can hold referrers.
      const candidates = allowCrossNamespace
        ? resources.list()
        : resources.list(target.metadata.namespace ?? "");
      for (const key of referrersOf(target, kindName, served, candidates, admit)) controller.enqueue(key);
    };
    informer.addHandler({
      onAdd: (target) => {
        if (informer.hasSynced()) wake(target, waitsOnReference);
      },
      onUpdate: (before, after) =>
        wake(after, movesReferenced(before, after) ? () => true : waitsOnReference),
      onDelete: (target) => wake(target, () => true),
    });
  }
}
