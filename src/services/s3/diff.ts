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
//   `objectOwnership` (CreateBucket's) stands for ownershipControls when only it is set.
// - the configurations (abac, accelerate, cors, lifecycle, logging, notification, replication,
//   requestPayment, website, and the per-ID analytics, intelligentTiering, inventory, metrics):
//   none, as ACK has it; where S3 cannot remove one, none is S3's default (accelerate
//   Suspended, ABAC Disabled, the owner pays). configuration-groups.ts says which is which.
// - acl and the grants: private (acl.ts). Object Lock: on when asked, never turned off
//   (S3 cannot); its default retention is none when the spec has no rule (object-lock.ts).
// - name, createBucketConfiguration, namespace: fixed at creation, never compared.
import { sameJson } from "../canonical-forms.ts";
import { type ComparedField, declaredDrift, type EqualHook } from "../declared-drift.ts";
import { type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { aclAfterApplying, grantFields, sameAcl } from "./acl.ts";
import {
  type ConfigurationField,
  canonicalConfiguration,
  configurationGroups,
  type PerIdField,
  perIdGroups,
  pruned,
  sameConfiguration,
} from "./configuration-groups.ts";
import { bucketDeclared, bucketFieldGroups } from "./generated/bucket-fields.ts";
import { bucketTags, isNoOwnershipControls, isNoPolicy, isNoPublicAccessBlock } from "./mapping.ts";
import { objectLockAfterApplying, sameObjectLock, wantsObjectLock } from "./object-lock.ts";
import type {
  BucketFields,
  BucketSubresource,
  Encryption,
  OwnershipControls,
  PublicAccessBlock,
  Versioning,
} from "./schema.ts";

/** Sub-resources whose absence in the spec means "take S3's value" (see the file comment). */
export const lateInitializedSubresources =
  bucketDeclared.lateInitialized satisfies readonly BucketSubresource[];

export type FieldDifference = FieldDifferenceOf<ComparedField<typeof bucketFieldGroups>>;

const isConfiguration = (field: string): field is ConfigurationField => field in configurationGroups;
const isPerId = (field: string): field is PerIdField => field in perIdGroups;

/** The ownership controls the spec asks for: its own, or CreateBucket's objectOwnership. */
export function desiredOwnershipControls(spec: BucketFields): OwnershipControls | undefined {
  if (spec.ownershipControls !== undefined || spec.objectOwnership === undefined)
    return spec.ownershipControls;
  return { rules: [{ objectOwnership: spec.objectOwnership }] };
}

/** A late-initialised sub-resource: equal while the spec leaves it out, else by `canonical`. */
const keptUnlessSet =
  <K extends keyof BucketFields>(
    field: K,
    canonical: (value: BucketFields[K]) => unknown,
  ): EqualHook<BucketFields> =>
  (desired, observed) =>
    desired[field] === undefined || sameJson(canonical(desired[field]), canonical(observed[field]));

/** Each configuration S3 holds whole, compared as S3 would behave (configuration-groups.ts). */
const configurationHooks = Object.fromEntries(
  Object.keys(configurationGroups).map((field) => [
    field,
    (desired: BucketFields, observed: BucketFields) =>
      sameConfiguration(
        field as ConfigurationField,
        desired[field as ConfigurationField],
        observed[field as ConfigurationField],
      ),
  ]),
) as Record<ConfigurationField, EqualHook<BucketFields>>;

/** Each per-ID list (analytics, Intelligent-Tiering, inventory, metrics) compared as a map by ID. */
const perIdHooks = Object.fromEntries(
  Object.keys(perIdGroups).map((field) => [
    field,
    (desired: BucketFields, observed: BucketFields) =>
      sameJson(canonicalPerId(desired[field as PerIdField]), canonicalPerId(observed[field as PerIdField])),
  ]),
) as Record<PerIdField, EqualHook<BucketFields>>;

/**
 * The sub-resources to change so that S3 matches `desired`, in the order they must be applied
 * (the declaration's); tagging and policy compare by their declared forms, the rest as S3 would
 * behave.
 */
export const diff: (desired: BucketFields, observed: BucketFields) => FieldDifference[] = declaredDrift<
  BucketFields,
  typeof bucketFieldGroups
>(bucketFieldGroups, {
  ...configurationHooks,
  ...perIdHooks,
  ownershipControls: (desired, observed) => {
    const want = desiredOwnershipControls(desired);
    return want === undefined || canonicalOwnership(want) === canonicalOwnership(observed.ownershipControls);
  },
  publicAccessBlock: keptUnlessSet("publicAccessBlock", canonicalBlock),
  acl: sameAcl,
  encryption: keptUnlessSet("encryption", canonicalEncryption),
  versioning: keptUnlessSet("versioning", canonicalVersioning),
  objectLockConfiguration: sameObjectLock,
});

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
  const set = <K extends keyof BucketFields>(field: K, value: BucketFields[K] | undefined) => {
    if (value === undefined) delete (after as BucketFields)[field];
    else (after as BucketFields)[field] = value;
  };
  for (const { field } of diff(desired, observed)) {
    if (isConfiguration(field)) {
      set(field, canonicalConfiguration(field, desired[field]) === undefined ? undefined : desired[field]);
      continue;
    }
    if (isPerId(field)) {
      set(field, desired[field] === undefined || desired[field].length === 0 ? undefined : desired[field]);
      continue;
    }
    switch (field) {
      case "acl": {
        const acl = aclAfterApplying(desired);
        for (const f of ["acl", ...grantFields] as const) set(f, acl[f]);
        break;
      }
      case "objectLockConfiguration":
        if (wantsObjectLock(desired) || observed.objectLockEnabledForBucket === true) {
          const lock = objectLockAfterApplying(desired);
          set("objectLockEnabledForBucket", lock.objectLockEnabledForBucket);
          set("objectLockConfiguration", lock.objectLockConfiguration);
        }
        break;
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
      case "ownershipControls": {
        const controls = desiredOwnershipControls(desired);
        set("ownershipControls", isNoOwnershipControls(controls) ? undefined : controls);
        break;
      }
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

/** A per-ID list compares as a map: S3 lists the configurations in its own order. */
function canonicalPerId(list: readonly unknown[] | undefined): unknown {
  if (list === undefined || list.length === 0) return null;
  const id = (item: unknown) => String((item as { id?: unknown }).id);
  return [...list].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0)).map(pruned);
}

/** An absent bucketKeyEnabled is false; an absent KMS key is S3's managed key. */
function canonicalEncryption(encryption: Encryption | undefined): unknown {
  return (encryption?.rules ?? []).map((rule) => ({
    sseAlgorithm: rule.applyServerSideEncryptionByDefault.sseAlgorithm,
    kmsMasterKeyID: rule.applyServerSideEncryptionByDefault.kmsMasterKeyID ?? null,
    bucketKeyEnabled: rule.bucketKeyEnabled ?? false,
  }));
}
