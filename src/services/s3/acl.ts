// The bucket's ACL as ACK's spec writes it: a canned ACL (`acl`) or grant headers
// (`grantRead: 'uri="http://acs.amazonaws.com/groups/global/AllUsers"'`), and as GetBucketAcl
// reports it: a list of grants. Pure.
//
// Both are compared as what S3 holds. What S3 answers is written in both spec forms: `acl`
// when the grants are exactly a canned ACL's (the owner's full control, plus the group grants
// the canned ACL adds), and each grant field as its grantees, sorted. A spec with `acl` compares
// the canned ACL, one with grants compares the grants, and one with neither means private (the
// owner alone), so removing an ACL from the spec makes the bucket private again.
import type {
  BucketCannedACL,
  GetBucketAclCommandOutput,
  Grant,
  PutBucketAclCommandInput,
} from "@aws-sdk/client-s3";
import type { BucketFields } from "./schema.ts";

export const grantFields = [
  "grantFullControl",
  "grantRead",
  "grantReadACP",
  "grantWrite",
  "grantWriteACP",
] as const;
export type GrantField = (typeof grantFields)[number];
export type AclFields = Pick<BucketFields, "acl" | GrantField>;
type CannedAcl = NonNullable<BucketFields["acl"]>;

const permissionOf: Readonly<Record<GrantField, string>> = {
  grantFullControl: "FULL_CONTROL",
  grantRead: "READ",
  grantReadACP: "READ_ACP",
  grantWrite: "WRITE",
  grantWriteACP: "WRITE_ACP",
};

const allUsers = "http://acs.amazonaws.com/groups/global/AllUsers";
const authenticatedUsers = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
const logDelivery = "http://acs.amazonaws.com/groups/s3/LogDelivery";

/** What each canned ACL grants besides the owner's full control, as `permission grantee`. */
const cannedGrants: Readonly<Record<CannedAcl, readonly string[]>> = {
  private: [],
  "public-read": [`READ uri="${allUsers}"`],
  "public-read-write": [`READ uri="${allUsers}"`, `WRITE uri="${allUsers}"`],
  "authenticated-read": [`READ uri="${authenticatedUsers}"`],
  "log-delivery-write": [`READ_ACP uri="${logDelivery}"`, `WRITE uri="${logDelivery}"`],
};

/** A grantee as a grant header writes it: `id="…"`, `uri="…"` or `emailAddress="…"`. */
function granteeOf(grant: Grant): string | undefined {
  const g = grant.Grantee;
  if (g?.ID) return `id="${g.ID}"`;
  if (g?.URI) return `uri="${g.URI}"`;
  if (g?.EmailAddress) return `emailAddress="${g.EmailAddress}"`;
  return undefined;
}

/** A grant header's grantees, each as `key="value"` with the key as S3 spells it, sorted. */
export function grantees(header: string | undefined): string[] {
  if (header === undefined) return [];
  const out: string[] = [];
  for (const part of header.split(",")) {
    const m = /^\s*([A-Za-z]+)\s*=\s*"?([^"]*)"?\s*$/.exec(part);
    if (!m) {
      if (part.trim() !== "") out.push(part.trim());
      continue;
    }
    const key = (m[1] ?? "").toLowerCase();
    const name = key === "emailaddress" ? "emailAddress" : key;
    out.push(`${name}="${m[2]}"`);
  }
  return out.sort();
}

/** GetBucketAcl's answer in spec form: the canned ACL it is (if any) and every grant field. */
export function aclFromAws(out: Pick<GetBucketAclCommandOutput, "Grants" | "Owner">): AclFields {
  const owner = out.Owner?.ID === undefined ? undefined : `id="${out.Owner.ID}"`;
  const byField: Record<GrantField, string[]> = {
    grantFullControl: [],
    grantRead: [],
    grantReadACP: [],
    grantWrite: [],
    grantWriteACP: [],
  };
  const others: string[] = [];
  for (const grant of out.Grants ?? []) {
    const grantee = granteeOf(grant);
    const field = grantFields.find((f) => permissionOf[f] === grant.Permission);
    if (grantee === undefined || field === undefined) continue;
    byField[field].push(grantee);
    if (!(field === "grantFullControl" && grantee === owner)) others.push(`${grant.Permission} ${grantee}`);
  }
  const ownerHasFullControl = owner !== undefined && byField.grantFullControl.includes(owner);
  const canned = ownerHasFullControl
    ? (Object.keys(cannedGrants) as CannedAcl[]).find(
        (c) => JSON.stringify([...cannedGrants[c]].sort()) === JSON.stringify(others.sort()),
      )
    : undefined;
  const fields: AclFields = canned === undefined ? {} : { acl: canned };
  for (const f of grantFields) {
    if (byField[f].length > 0) fields[f] = byField[f].sort().join(", ");
  }
  return fields;
}

/**
 * Whether S3's ACL (`observed`, from aclFromAws) is what the spec asks for. An observation
 * without any ACL is one that did not read it (a bucket always has at least its owner's grant
 * unless someone removed it, which PutBucketAcl can only restore by the owner): not a difference.
 */
export function sameAcl(desired: AclFields, observed: AclFields): boolean {
  if (observed.acl === undefined && !hasGrants(observed)) return true;
  if (hasGrants(desired)) {
    return grantFields.every(
      (f) => JSON.stringify(grantees(desired[f])) === JSON.stringify(grantees(observed[f])),
    );
  }
  return (desired.acl ?? "private") === observed.acl;
}

export function hasGrants(spec: AclFields): boolean {
  return grantFields.some((f) => spec[f] !== undefined);
}

/** PutBucketAcl's input: the grants, or the canned ACL (private when the spec sets neither). */
export function putBucketAclInput(name: string, spec: AclFields): PutBucketAclCommandInput {
  // log-delivery-write is a canned ACL S3 takes for a bucket, though the SDK's type lists only
  // CreateBucket's four.
  if (!hasGrants(spec)) return { Bucket: name, ACL: (spec.acl ?? "private") as BucketCannedACL };
  const input: PutBucketAclCommandInput = { Bucket: name };
  if (spec.grantFullControl !== undefined) input.GrantFullControl = spec.grantFullControl;
  if (spec.grantRead !== undefined) input.GrantRead = spec.grantRead;
  if (spec.grantReadACP !== undefined) input.GrantReadACP = spec.grantReadACP;
  if (spec.grantWrite !== undefined) input.GrantWrite = spec.grantWrite;
  if (spec.grantWriteACP !== undefined) input.GrantWriteACP = spec.grantWriteACP;
  return input;
}

/** What S3 holds after putBucketAclInput, in aclFromAws's form as far as the spec tells it. */
export function aclAfterApplying(spec: AclFields): AclFields {
  if (!hasGrants(spec)) return { acl: spec.acl ?? "private" };
  const out: AclFields = {};
  for (const f of grantFields) {
    const g = grantees(spec[f]);
    if (g.length > 0) out[f] = g.join(", ");
  }
  return out;
}
