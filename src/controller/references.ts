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
//   once it is Synced for its current generation (until then: wait, saying for what);
// - and then, once the referrer's credentials are known, only an AWS object that is really the
//   referenced resource's (judgeReferencedInAws): found with the referrer's own credentials, so
//   in the account it acts in, and tagged as that resource's own. The Synced condition is status,
//   which the tenant may forge; the tags in AWS are not. So a referenced resource that was refused
//   (NameTaken: the name is another team's object) lends nothing, whatever its status says, and
//   a referrer whose account is only known from STS (static keys) is held to it all the same.
//
// What a referrer learns of the object it names (asSeenBy): in its own namespace, everything (its
// team can read that object anyway). In another namespace (--allow-cross-namespace-references),
// only whether it can use it now: a refusal there is one opaque ReferenceUnavailable, the same
// whether the object is missing, deleting, unplaced, unsynced, in another account or region, or
// not its resource's own in AWS. So a tenant cannot probe another team's namespace for what exists
// or learn the account it is placed in; the only account a referrer's conditions ever name is its
// own. The precise reason is in the controller's debug log (reference.refused), for its operators.

import { pathText, presentAt, valueAt } from "../services/references.ts";
import type { FailureState } from "./ack-conditions.ts";
import { describeOwnership, type Ownership } from "./ownership.ts";

/** One reference the spec sets, to a served kind. */
export interface SetReference {
  /** The spec path of the reference (`spec.dbSubnetGroupRef`), for messages. */
  readonly path: string;
  /** The plain field it fills, for messages (`dbSubnetGroupName`, `replication.role`, `policies`). */
  readonly plain: string;
  /** Where its value goes in the spec: the plain field's path, and the item's index for a list of references. */
  readonly at: readonly (string | number)[];
  /** The declared reference it is an instance of (its index in the references given). */
  readonly source: number;
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
  /** As decided; null when only STS can say (static keys): then judgeReferencedInAws checks it. */
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
  "ReferenceNotInAWS",
  "ReferenceUnavailable",
]);

/**
 * Terminal reasons a change of the referenced object can clear (its AWS object becoming its own
 * again): such a change wakes the referrer too, as the wait reasons do.
 */
export const referenceRecheckReasons: ReadonlySet<string> = new Set(["ReferenceNotOwned"]);

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

/**
 * The judgement as the referrer may see it (see the file comment): unchanged for a reference into
 * its own namespace; for one into another namespace, any refusal but ReferenceNotAllowed becomes
 * the same waiting ReferenceUnavailable, naming only what the referrer already knows (the object
 * it named, its own account and region).
 */
export function asSeenBy(
  refused: Extract<ReferenceJudgement, { readonly ok: false }>,
  ref: SetReference,
  referrer: Referrer,
): Extract<ReferenceJudgement, { readonly ok: false }> {
  if (ref.namespace === referrer.namespace || refused.state.reason === "ReferenceNotAllowed") return refused;
  const where = [
    referrer.account === null ? "its account" : `account ${referrer.account}`,
    referrer.region === null ? "" : ` and region ${referrer.region}`,
  ].join("");
  return {
    ok: false,
    wait: true,
    state: {
      kind: "recoverable",
      reason: "ReferenceUnavailable",
      message: `${ref.path} names ${ref.kind} ${ref.namespace}/${ref.name} in another namespace, which this ${referrer.kind} cannot use now: a reference into another namespace is followed only to an object that exists there, is Synced, is placed where this ${referrer.kind} is (${where}) and holds its AWS object; which of these does not hold is for namespace ${ref.namespace}'s owners to see, not this one's. Waiting for it; or set spec.${ref.plain} and remove the reference`,
    },
  };
}

/** Whether `ref` may fill its plain field, and with what (see the file comment). */
export function judgeReference(
  ref: SetReference,
  referrer: Referrer,
  target: Referenced | undefined,
  identifierField: string,
  allowCrossNamespace: boolean,
  /** The referenced kind is in no region (IAM's): any region's referrer may name it. */
  regionless = false,
  /** Where the referenced resource records its identifier: its spec, or (an ID AWS assigned) its status. */
  recordedIn: "spec" | "status" = "spec",
  /**
   * Whether it must be Synced; else its identifier recorded is enough (a reference needed after
   * the create, to an object AWS named: its tags in AWS are checked all the same).
   */
  needsSynced = true,
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
  // An account only STS can name (static keys) is compared once known (judgeReferencedInAws).
  if (d.outcome !== "use" || (d.drift ?? null) !== null) {
    const why = d.drift ? `its placement moved: ${d.drift.message}` : `its decision: ${d.outcome}`;
    return waiting(
      "ReferenceNotPlaced",
      `${ref.path} names ${what}, which has no settled placement now (${why}): waiting for it`,
    );
  }
  if (referrer.account !== null && d.account !== null && d.account !== referrer.account) {
    return accountMismatch(ref, referrer.kind, d.account, referrer.account);
  }
  if (!regionless && referrer.region !== null && d.region !== null && d.region !== referrer.region) {
    return terminal(
      "ReferenceRegionMismatch",
      `${ref.path} names ${what}, placed in region ${d.region}, but this ${referrer.kind} is placed in ${referrer.region}: name a ${ref.kind} in ${referrer.region}, ${instead}`,
    );
  }
  const synced =
    target.synced?.status === "True" &&
    target.synced.observedGeneration !== undefined &&
    target.synced.observedGeneration === target.generation;
  if (!synced && needsSynced) {
    return waiting(
      "ReferenceNotSynced",
      `${ref.path} names ${what}, which is not Synced yet: waiting for it`,
    );
  }
  const value = target.spec?.[identifierField];
  if (typeof value !== "string" || value === "") {
    return waiting(
      "ReferenceNotSynced",
      `${ref.path} names ${what}, whose ${recordedIn}.${identifierField} is not set yet: waiting for it`,
    );
  }
  return { ok: true, value };
}

function accountMismatch(
  ref: SetReference,
  referrerKind: string,
  referencedAccount: string,
  referrerAccount: string,
): ReferenceJudgement {
  return terminal(
    "ReferenceAccountMismatch",
    `${ref.path} names ${ref.kind} ${ref.namespace}/${ref.name}, placed in account ${referencedAccount}, but this ${referrerKind} is placed in account ${referrerAccount}: a reference never takes another account's object; name a ${ref.kind} placed in account ${referrerAccount}, or set spec.${ref.plain} and remove the reference`,
  );
}

/** What the referrer's credentials found in AWS under the name a reference gives. */
export interface ReferencedInAws {
  /** The account the referrer acts in (from its role, or STS for static keys). */
  readonly referrerAccount: string;
  /** The account the referenced resource is placed in (likewise). */
  readonly referencedAccount: string;
  /** The object under that name in the referrer's account and region: whose its tags say, or absent. */
  readonly ownership: Ownership | undefined;
  /** The referenced resource is read-only: it observes an object it never tags. */
  readonly readOnly: boolean;
  readonly awsName: string;
  readonly region: string;
}

/**
 * The second half of judging a reference, once the referrer's credentials are known: both are
 * placed in the same account (STS's word where no role names it), and the AWS object under the
 * name is the referenced resource's own (its tags; untagged only for a read-only resource, which
 * never tags what it observes). Never from status: a forged Synced lends nothing here.
 */
export function judgeReferencedInAws(
  ref: SetReference,
  referrerKind: string,
  found: ReferencedInAws,
): ReferenceJudgement | { readonly ok: true } {
  if (found.referencedAccount !== found.referrerAccount) {
    return accountMismatch(ref, referrerKind, found.referencedAccount, found.referrerAccount);
  }
  const what = `${ref.kind} ${ref.namespace}/${ref.name}`;
  const where = `account ${found.referrerAccount} (${found.region})`;
  const o = found.ownership;
  if (o === undefined) {
    return waiting(
      "ReferenceNotInAWS",
      `${ref.path} names ${what}, but no ${ref.kind} "${found.awsName}" exists in ${where} yet: waiting for it`,
    );
  }
  if (o.kind === "ours" || (o.kind === "untagged" && found.readOnly)) return { ok: true };
  return terminal(
    "ReferenceNotOwned",
    `${ref.path} names ${what}, but the ${ref.kind} "${found.awsName}" in ${where} is not that resource's own (${describeOwnership(o)}): a reference lends only the AWS object its resource created, adopted or observes read-only; fix ${what} (its conditions say why it does not hold the object), or set spec.${ref.plain} and remove the reference`,
  );
}

/**
 * The references a spec sets (`{from: {name, namespace}}`), in `refs`' order: at the top level,
 * inside objects (`replication.roleRef`) and lists of objects (`[]` steps), and each item of a
 * list of references (`policyRefs`: one per item, filling the plain list's item at its index).
 */
export function setReferences(
  spec: Readonly<Record<string, unknown>>,
  refs: readonly { readonly path: readonly string[]; readonly plain: string; readonly kind: string }[],
  ownNamespace: string,
): SetReference[] {
  const out: SetReference[] = [];
  refs.forEach((r, source) => {
    for (const path of presentAt(spec, r.path)) {
      const at = path.slice(0, -1);
      const value = valueAt(spec, path);
      const items = Array.isArray(value)
        ? value.map((v, i) => [v, i] as const)
        : [[value, undefined] as const];
      for (const [item, index] of items) {
        const from = (item as { from?: { name?: unknown; namespace?: unknown } } | undefined)?.from;
        if (typeof from?.name !== "string") continue;
        const own = index === undefined ? [] : [index];
        out.push({
          path: pathText(["spec", ...path, ...own]),
          plain: pathText([...at, r.plain]),
          at: [...at, r.plain, ...own],
          source,
          kind: r.kind,
          namespace:
            typeof from.namespace === "string" && from.namespace !== "" ? from.namespace : ownNamespace,
          name: from.name,
        });
      }
    }
  });
  return out;
}

/** `value` with `fill` at `at` (objects and lists made or copied on the way; `value` itself untouched). */
export function withValueAt(value: unknown, at: readonly (string | number)[], fill: unknown): unknown {
  const [head, ...rest] = at;
  if (head === undefined) return fill;
  if (typeof head === "number") {
    const list = Array.isArray(value) ? [...value] : [];
    list[head] = withValueAt(list[head], rest, fill);
    return list;
  }
  const object = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  return { ...object, [head]: withValueAt((object as Record<string, unknown>)[head], rest, fill) };
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
  readonly uid: string;
  readonly path: string;
  readonly deleting: boolean;
  /**
   * Its reference is needed only after its create (a security group's rule naming a group): its
   * deletion gives the use up first (the rule revoked), so, being deleted, it holds nothing.
   */
  readonly afterCreate?: boolean;
  /**
   * Where its decision places it now (the resolver's, never its status); null when nowhere: its
   * decision is not a clean `use` (waiting, denied, drifted), so it can act in no account now.
   * `account` null: only STS can name it (static keys).
   */
  readonly placement: { readonly account: string | null; readonly region: string | null } | null;
}

/** A referrer's use of the reference in AWS, as the controller recorded it (records/reference-uses.ts). */
export interface RecordedUse {
  readonly account: string;
  readonly region: string;
}

/**
 * Why the deletion in AWS of `what` (`DBSubnetGroup shop/shop-db-subnets`, placed in `at`) waits,
 * or null when nothing holds it. `referrers` undefined: who references it cannot be known yet
 * (wait, fail closed). The AWS object stays while a referrer uses it: deleting it first would fail
 * in AWS (a subnet group in use) or break the referrer's configuration. A referrer holds it only
 * when both hold:
 *   - the controller recorded (`uses`, where tenants cannot write) that the referrer acted in AWS
 *     with this reference, in this object's account and region;
 *   - the referrer's decision now places it there too (with static keys, whose account only STS
 *     can name, the recorded account stands for it).
 * So a referrer that never reached AWS through the reference (it waits on it, or names another
 * team's object it may not use), or whose decision now places it elsewhere or nowhere (an
 * identity that does not exist), holds nothing: another team cannot keep one's object alive by
 * naming it, whatever it writes in its own status. Status is never an input.
 */
export function deletionInUse(
  referrers: readonly ReferrerOf[] | undefined,
  uses: ReadonlyMap<string, RecordedUse> | undefined,
  what: string,
  at: { readonly account: string; readonly region: string },
): FailureState | null {
  if (referrers === undefined || uses === undefined) {
    return {
      kind: "recoverable",
      reason: "ReferrersUnknown",
      message: `Deletion waits: the controller has not yet read every object that may reference ${what}`,
    };
  }
  const holding = referrers.filter((r) => {
    // Two groups naming each other, both deleted, would each wait for the other for ever.
    if (r.deleting && r.afterCreate === true) return false;
    const use = uses.get(r.uid);
    if (r.placement === null || use === undefined) return false;
    if (use.account !== at.account || use.region !== at.region) return false;
    return (r.placement.account ?? use.account) === at.account && r.placement.region === at.region;
  });
  if (holding.length === 0) return null;
  const shown = holding
    .slice(0, 5)
    .map((r) => `${r.kind} ${r.key} (${r.path}${r.deleting ? ", being deleted" : ""})`)
    .join(", ");
  const more = holding.length > 5 ? ` and ${holding.length - 5} more` : "";
  return {
    kind: "recoverable",
    reason: "ReferencedInUse",
    message: `Deletion blocked: ${what} is still referenced by ${shown}${more}, which this controller placed in it in AWS; delete those, or change their reference, and this deletion goes on`,
  };
}
