// ACK's references (`dbSubnetGroupRef: {from: {name, namespace}}` beside `dbSubnetGroupName`)
// to kinds crossrole serves, judged before anything is called in AWS. Pure.
//
// What a reference may take, and from where:
// - only an object of the referenced kind in the referrer's own namespace, unless the controller
//   runs with --allow-cross-namespace-references (one team's spec must not name another's objects
//   by default);
// - only one placed where the referrer is: the same account and region, as the resolver decides
//   both objects now (never as either status says: status is the tenant's to write). A reference
//   must never pull one team's object into another account's configuration;
// - its AWS name from its spec (the field naming the AWS object), never from its status; and only
//   once it is Synced for its current generation (until then: wait, saying for what). A forged
//   Synced condition gains nothing: the name is the spec's, and the placement is decided here.
import type { FailureState } from "./ack-conditions.ts";

/** One reference the spec sets, to a served kind. */
export interface SetReference {
  /** The spec path of the reference (`spec.dbSubnetGroupRef`), for messages. */
  readonly path: string;
  /** The plain field it fills (`dbSubnetGroupName`). */
  readonly plain: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** The referenced object as the apiserver has it, with the resolver's decision for it now. */
export interface Referenced {
  readonly spec: Readonly<Record<string, unknown>> | undefined;
  readonly generation: number | undefined;
  readonly deleting: boolean;
  /** The Synced condition's status and the generation it was written for. */
  readonly synced: { readonly status: string; readonly observedGeneration?: number } | undefined;
  readonly decision: {
    readonly outcome: string;
    readonly account: string | null;
    readonly region: string | null;
    /** Where it was placed (its status) differs from where it is decided now: not settled. */
    readonly drift?: { readonly message: string } | null;
  };
}

export interface Referrer {
  readonly kind: string;
  readonly namespace: string;
  readonly account: string | null;
  readonly region: string | null;
}

export type ReferenceJudgement =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly state: FailureState; readonly wait: boolean };

/** The reasons a referrer waits with (ACK.Recoverable): a change of the referenced object wakes it. */
export const referenceWaitReasons: ReadonlySet<string> = new Set([
  "ReferenceNotFound",
  "ReferenceDeleting",
  "ReferenceNotPlaced",
  "ReferenceNotSynced",
]);

const terminal = (reason: string, message: string): ReferenceJudgement => ({
  ok: false,
  state: { kind: "terminal", reason, message },
  wait: false,
});
const waiting = (reason: string, message: string): ReferenceJudgement => ({
  ok: false,
  state: { kind: "recoverable", reason, message },
  wait: true,
});

/** Whether `ref` may fill its plain field, and with what (see the file comment). */
export function judgeReference(
  ref: SetReference,
  referrer: Referrer,
  target: Referenced | undefined,
  identifierField: string,
  allowCrossNamespace: boolean,
): ReferenceJudgement {
  const what = `${ref.kind} ${ref.namespace}/${ref.name}`;
  const instead = `or set spec.${ref.plain} and remove the reference`;
  if (ref.namespace !== referrer.namespace && !allowCrossNamespace) {
    return terminal(
      "ReferenceNotAllowed",
      `${ref.path} names ${what} in another namespace; cross-namespace references are off (the controller's --allow-cross-namespace-references): name a ${ref.kind} in namespace ${referrer.namespace}, ${instead}`,
    );
  }
  if (target === undefined) {
    return waiting(
      "ReferenceNotFound",
      `${ref.path} names ${what}, which does not exist yet: waiting for it`,
    );
  }
  if (target.deleting) {
    return waiting(
      "ReferenceDeleting",
      `${ref.path} names ${what}, which is being deleted: waiting; name another one, ${instead}`,
    );
  }
  const d = target.decision;
  if (d.outcome !== "use" || d.account === null || (d.drift ?? null) !== null) {
    const why = d.drift ? `its placement moved: ${d.drift.message}` : `its decision: ${d.outcome}`;
    return waiting(
      "ReferenceNotPlaced",
      `${ref.path} names ${what}, which has no settled placement now (${why}): waiting for it`,
    );
  }
  if (referrer.account !== null && d.account !== referrer.account) {
    return terminal(
      "ReferenceAccountMismatch",
      `${ref.path} names ${what}, placed in account ${d.account}, but this ${referrer.kind} is placed in account ${referrer.account}: a reference never takes another account's object; name a ${ref.kind} placed in account ${referrer.account}, ${instead}`,
    );
  }
  if (referrer.region !== null && d.region !== null && d.region !== referrer.region) {
    return terminal(
      "ReferenceRegionMismatch",
      `${ref.path} names ${what}, placed in region ${d.region}, but this ${referrer.kind} is placed in ${referrer.region}: name a ${ref.kind} in ${referrer.region}, ${instead}`,
    );
  }
  const synced =
    target.synced?.status === "True" &&
    target.synced.observedGeneration !== undefined &&
    target.synced.observedGeneration === target.generation;
  if (!synced) {
    return waiting(
      "ReferenceNotSynced",
      `${ref.path} names ${what}, which is not Synced yet: waiting for it`,
    );
  }
  const value = target.spec?.[identifierField];
  if (typeof value !== "string" || value === "") {
    return waiting(
      "ReferenceNotSynced",
      `${ref.path} names ${what}, whose spec.${identifierField} is not set yet: waiting for it`,
    );
  }
  return { ok: true, value };
}

/** The references a spec sets at its top level (`{from: {name, namespace}}`), in `refs`' order. */
export function setReferences(
  spec: Readonly<Record<string, unknown>>,
  refs: readonly { readonly path: readonly string[]; readonly plain: string; readonly kind: string }[],
  ownNamespace: string,
): SetReference[] {
  const out: SetReference[] = [];
  for (const r of refs) {
    const [field] = r.path;
    if (r.path.length !== 1 || field === undefined) continue;
    const from = (spec[field] as { from?: { name?: unknown; namespace?: unknown } } | undefined)?.from;
    if (typeof from?.name !== "string") continue;
    out.push({
      path: `spec.${field}`,
      plain: r.plain,
      kind: r.kind,
      namespace: typeof from.namespace === "string" && from.namespace !== "" ? from.namespace : ownNamespace,
      name: from.name,
    });
  }
  return out;
}

/** The reference `spec` (of an object in `ownNamespace`) sets to `target`, if any. */
export function referenceTo(
  spec: unknown,
  refs: readonly { readonly path: readonly string[]; readonly plain: string; readonly kind: string }[],
  ownNamespace: string,
  target: { readonly kind: string; readonly namespace: string; readonly name: string },
): SetReference | undefined {
  if (typeof spec !== "object" || spec === null) return undefined;
  return setReferences(spec as Record<string, unknown>, refs, ownNamespace).find(
    (r) => r.kind === target.kind && r.namespace === target.namespace && r.name === target.name,
  );
}

/** One object whose spec references another: `DBInstance shop/shop-db (spec.dbSubnetGroupRef)`. */
export interface ReferrerOf {
  readonly kind: string;
  readonly key: string;
  readonly path: string;
  readonly deleting: boolean;
}

/**
 * Why the deletion in AWS of `what` (`DBSubnetGroup shop/shop-db-subnets`) waits, or null when
 * nothing references it. `referrers` undefined: who does cannot be known yet (wait, fail closed).
 * The AWS object stays until its last referrer is gone: deleting it first would fail in AWS
 * (a subnet group in use) or break the referrer's configuration.
 */
export function deletionInUse(
  referrers: readonly ReferrerOf[] | undefined,
  what: string,
): FailureState | null {
  if (referrers === undefined) {
    return {
      kind: "recoverable",
      reason: "ReferrersUnknown",
      message: `Deletion waits: the controller has not yet read every object that may reference ${what}`,
    };
  }
  if (referrers.length === 0) return null;
  const shown = referrers
    .slice(0, 5)
    .map((r) => `${r.kind} ${r.key} (${r.path}${r.deleting ? ", being deleted" : ""})`)
    .join(", ");
  const more = referrers.length > 5 ? ` and ${referrers.length - 5} more` : "";
  return {
    kind: "recoverable",
    reason: "ReferencedInUse",
    message: `Deletion blocked: ${what} is still referenced by ${shown}${more}; delete those, or change their reference, and this deletion goes on`,
  };
}
