// Which sub-resources of a bucket differ between the spec and what S3 has (drift), and late
// initialisation of the ones S3 gives a default. Pure.
//
// What an absent field means:
// - tagging, policy: none. Absent tags or policy in the spec remove the ones found in S3,
//   as ACK does; this is how out-of-band additions are corrected.
// - encryption, ownershipControls, publicAccessBlock, versioning: "whatever S3 has". S3 sets
//   defaults on every new bucket (SSE-S3 encryption, BucketOwnerEnforced, all four public
//   access blocks on, unversioned), so `lateInitialize` copies S3's value into the spec and
//   from then on it is managed. Until it is copied, an absent field never shows as a difference.
import { canonicalDocument, canonicalTagMap, sameJson } from "../canonical-forms.ts";
import { differingFields, type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { bucketTags, isNoOwnershipControls, isNoPolicy, isNoPublicAccessBlock, tagMapOf } from "./mapping.ts";
import type {
  BucketFields,
  BucketSubresource,
  Encryption,
  OwnershipControls,
  PublicAccessBlock,
  Tagging,
  Versioning,
} from "./schema.ts";
import { bucketSubresources } from "./schema.ts";

/** Sub-resources whose absence in the spec means "take S3's value" (see the file comment). */
export const lateInitializedSubresources = [
  "ownershipControls",
  "publicAccessBlock",
  "encryption",
  "versioning",
] as const satisfies readonly BucketSubresource[];

export type FieldDifference = FieldDifferenceOf<BucketSubresource>;

/** The sub-resources to change so that S3 matches `desired`, in the order they must be applied. */
export function diff(desired: BucketFields, observed: BucketFields): FieldDifference[] {
  return differingFields(bucketSubresources, desired, observed, equalField);
}

function equalField(field: BucketSubresource, desired: BucketFields, observed: BucketFields): boolean {
  const isLateInitialized = (lateInitializedSubresources as readonly string[]).includes(field);
  if (isLateInitialized && desired[field] === undefined) return true;
  switch (field) {
    case "tagging":
      return sameJson(canonicalTags(desired.tagging), canonicalTags(observed.tagging));
    case "policy":
      // Policies compare as JSON documents: whitespace and key order do not matter.
      return sameJson(canonicalDocument(desired.policy), canonicalDocument(observed.policy));
    case "publicAccessBlock":
      return sameJson(canonicalBlock(desired.publicAccessBlock), canonicalBlock(observed.publicAccessBlock));
    case "ownershipControls":
      return canonicalOwnership(desired.ownershipControls) === canonicalOwnership(observed.ownershipControls);
    case "versioning":
      return canonicalVersioning(desired.versioning) === canonicalVersioning(observed.versioning);
    case "encryption":
      return sameJson(canonicalEncryption(desired.encryption), canonicalEncryption(observed.encryption));
  }
}

/**
 * Fills the late-initialised sub-resources the spec leaves out with what S3 has. Returns the
 * spec (a new object when something was filled) and the fields filled, so the caller knows
 * whether the resource needs a patch.
 */
export function lateInitialize<Spec extends BucketFields>(
  spec: Spec,
  observed: BucketFields,
): { spec: Spec; initialized: BucketSubresource[] } {
  return lateInitializeFields(spec, lateInitializedSubresources, (field) => {
    const value = observed[field];
    return value === undefined ? undefined : structuredClone(value);
  });
}

/**
 * What S3 holds once updateBucket applied `diff(desired, observed)`: each differing field as
 * the spec has it, in the form a read gives back ("none" forms and an absent late-initialised
 * field leave nothing), tags with `ownerTags` beside the user's. S3 applies each Put and Delete
 * at once, so a read right after an update would only echo it.
 */
export function afterApplying<F extends BucketFields>(
  desired: BucketFields,
  observed: F,
  ownerTags: Readonly<Record<string, string>>,
): F {
  const after: F = { ...observed };
  const set = <K extends BucketSubresource>(field: K, value: BucketFields[K] | undefined) => {
    if (value === undefined) delete (after as BucketFields)[field];
    else (after as BucketFields)[field] = value;
  };
  for (const { field } of diff(desired, observed)) {
    switch (field) {
      case "tagging": {
        const tagSet = Object.entries(bucketTags(desired.tagging, ownerTags)).map(([key, value]) => ({
          key,
          value,
        }));
        set("tagging", tagSet.length === 0 ? undefined : { tagSet });
        break;
      }
      case "policy":
        set("policy", isNoPolicy(desired.policy) ? undefined : desired.policy);
        break;
      case "publicAccessBlock":
        set(
          "publicAccessBlock",
          isNoPublicAccessBlock(desired.publicAccessBlock) ? undefined : desired.publicAccessBlock,
        );
        break;
      case "ownershipControls":
        set(
          "ownershipControls",
          isNoOwnershipControls(desired.ownershipControls) ? undefined : desired.ownershipControls,
        );
        break;
      case "versioning":
      case "encryption":
        // Late-initialised: diff reports them only when the spec sets them.
        if (desired[field] !== undefined) set(field, desired[field]);
        break;
    }
  }
  return after;
}

// ---- canonical forms: equal exactly when S3 would behave the same ----

/**
 * Tags are a map: S3 does not keep their order. Ownership tags are the controller's, not the
 * user's: they never show as drift (DESIGN §3.5).
 */
function canonicalTags(tagging: Tagging | undefined): [string, string][] {
  return canonicalTagMap(tagMapOf(tagging));
}

/** An absent block and an absent flag both mean "not blocked". */
function canonicalBlock(block: PublicAccessBlock | undefined): boolean[] {
  if (isNoPublicAccessBlock(block)) return [false, false, false, false];
  return [
    block?.blockPublicACLs ?? false,
    block?.blockPublicPolicy ?? false,
    block?.ignorePublicACLs ?? false,
    block?.restrictPublicBuckets ?? false,
  ];
}

function canonicalOwnership(controls: OwnershipControls | undefined): string | null {
  if (isNoOwnershipControls(controls)) return null;
  return controls?.rules[0]?.objectOwnership ?? null;
}

/** A bucket never versioned behaves as a suspended one; S3 cannot return it to "never". */
function canonicalVersioning(versioning: Versioning | undefined): string {
  return versioning?.status ?? "Suspended";
}

/** An absent bucketKeyEnabled is false; an absent KMS key is S3's managed key. */
function canonicalEncryption(encryption: Encryption | undefined): unknown {
  return (encryption?.rules ?? []).map((rule) => ({
    sseAlgorithm: rule.applyServerSideEncryptionByDefault.sseAlgorithm,
    kmsMasterKeyID: rule.applyServerSideEncryptionByDefault.kmsMasterKeyID ?? null,
    bucketKeyEnabled: rule.bucketKeyEnabled ?? false,
  }));
}
