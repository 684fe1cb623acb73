// Who references a served object (ACK's `*Ref` fields), from the informers every kind already
// has: the deletion of a referenced object waits while any referrer exists (a DB subnet group
// is not deleted under the DB instance placed in it), as an identity in use waits (DESIGN §2.5).
// When a referrer goes, or its reference changes, the referenced object's controller is
// re-queued, so the deletion goes on at once.
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

/** Whether an object may have reached AWS: its status records an ARN or a create intent. */
function mayBeInAws(obj: ManagedObject): boolean {
  const status = (obj as { status?: { ackResourceMetadata?: { arn?: unknown }; intent?: unknown } }).status;
  const arn = status?.ackResourceMetadata?.arn;
  return (typeof arn === "string" && arn !== "") || (status?.intent !== undefined && status.intent !== null);
}

interface Registered {
  readonly references: readonly ReferenceField[];
  /** Absent for a kind crossrole does not reconcile (--reconcile-resources leaves it out). */
  readonly controller: Controller | undefined;
}

export class ReferrerIndex {
  readonly #informers: ReadonlyMap<string, KindInformer>;
  readonly #allowCrossNamespace: boolean;
  readonly #accountOf: ((obj: ManagedObject) => string | null) | undefined;
  readonly #registered = new Map<string, Registered>();

  /**
   * `accountOf`: the account a referrer is decided into now (null: not known without STS), so a
   * deletion can leave out referrers in another account, which the reference is refused to.
   */
  constructor(
    informers: ReadonlyMap<string, KindInformer>,
    allowCrossNamespace: boolean,
    accountOf?: (obj: ManagedObject) => string | null,
  ) {
    this.#informers = informers;
    this.#allowCrossNamespace = allowCrossNamespace;
    this.#accountOf = accountOf;
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
            path: hit.path,
            deleting: obj.metadata.deletionTimestamp !== undefined,
            inAws: mayBeInAws(obj),
            ...(this.#accountOf ? { account: this.#accountOf(obj) } : {}),
          });
      }
    }
    return out;
  }
}
