// Whose is this AWS object? (DESIGN §3.5) Pure: tags in, a verdict out.
//
// The tags on the AWS object decide, never the Kubernetes status (a tenant may write its own
// status, DESIGN §3.4). The one place a record helps is an unfinished create: S3 stores that
// ignore CreateBucket's tags (the emulator, S3-compatible stores) leave a short window between
// the create and the tagging call. A controller killed in that window leaves an untagged
// object, which the create intent the reconciler sealed before the call (create-intent.ts)
// recognises.
import { legacyOwnershipTagKeys, ownershipTagKeys } from "../api/ownership-tags.ts";
import { fitTagValue } from "../api/tag-limits.ts";
import { crossroleVersion } from "../version.ts";

/** The Kubernetes object an AWS object belongs to. */
export interface Owner {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

export type Ownership =
  /** Tagged with this object's UID. */
  | { readonly kind: "ours" }
  /**
   * No ownership tags: made out of band (or by ACK). Taken only with an adoption policy. `record`:
   * AWS cannot tag the object, and the controller's records name no owner for it.
   */
  | { readonly kind: "untagged"; readonly by?: "record" }
  /**
   * Made by an earlier object of the same kind, namespace and name (deleted with deletion
   * policy retain, then recreated). Taken only with an adoption policy, as an untagged one.
   */
  | { readonly kind: "earlier"; readonly uid: string }
  /** Owned by another Kubernetes object: never updated, adopted or deleted. */
  | { readonly kind: "other"; readonly owner: string; readonly uid: string };

export const ownerName = (o: Omit<Owner, "uid">): string => `${o.kind}/${o.namespace}/${o.name}`;

/**
 * The owner tag's value: ownerName, fitted to AWS's 256 characters (a 253-character name takes it
 * past them; the UID tag, not this one, decides whose an object is).
 */
const ownerTagValue = (o: Omit<Owner, "uid">): string => fitTagValue(ownerName(o));

/** The tags every object this owner creates or adopts carries. */
export function ownershipTags(owner: Owner): Record<string, string> {
  return {
    [ownershipTagKeys.namespace]: owner.namespace,
    [ownershipTagKeys.owner]: ownerTagValue(owner),
    [ownershipTagKeys.ownerUid]: owner.uid,
    [ownershipTagKeys.controllerVersion]: `crossrole-${crossroleVersion}`,
  };
}

/**
 * The owner and UID the tags name: under the current keys, else under the earlier ones (an object
 * tagged before they moved under `services.k8s.aws/` is judged the same way).
 */
export function taggedOwner(tags: Readonly<Record<string, string>>): { uid?: string; owner?: string } {
  const current = tags[ownershipTagKeys.ownerUid] !== undefined || tags[ownershipTagKeys.owner] !== undefined;
  const keys = current ? ownershipTagKeys : legacyOwnershipTagKeys;
  const uid = tags[keys.ownerUid];
  const owner = tags[keys.owner];
  return { ...(uid === undefined ? {} : { uid }), ...(owner === undefined ? {} : { owner }) };
}

export function judgeOwnership(tags: Readonly<Record<string, string>>, self: Owner): Ownership {
  const { uid, owner } = taggedOwner(tags);
  if (uid === undefined && owner === undefined) return { kind: "untagged" };
  if (uid === self.uid) return { kind: "ours" };
  if (owner === ownerTagValue(self)) return { kind: "earlier", uid: uid ?? "(none)" };
  return { kind: "other", owner: owner ?? "(unnamed)", uid: uid ?? "(none)" };
}

/** One line for messages: who owns the object, as the tags say. */
export function describeOwnership(o: Ownership): string {
  switch (o.kind) {
    case "ours":
      return "owned by this object";
    case "untagged":
      return o.by === "record"
        ? "not recorded as crossrole's (AWS cannot tag it: created outside crossrole, or its record was removed)"
        : "not tagged as crossrole's (created outside crossrole)";
    case "earlier":
      return `created by an earlier object of the same name (uid ${o.uid}), deleted with deletion policy retain`;
    case "other":
      return `owned by ${o.owner} (uid ${o.uid})`;
  }
}
