// Bucket spec ⇄ S3 API shapes, as pure functions: what to send for each sub-resource, and how
// each Get* answer reads back in spec form. "None" (no tags, no policy, ...) is `undefined` on
// the way back, whatever error or empty answer S3 used to say so (bucket.ts maps those).
import type {
  BucketLocationConstraint,
  BucketVersioningStatus,
  CreateBucketCommandInput,
  CreateBucketConfiguration,
  GetBucketEncryptionCommandOutput,
  GetBucketOwnershipControlsCommandOutput,
  GetBucketPolicyCommandOutput,
  GetBucketTaggingCommandOutput,
  GetBucketVersioningCommandOutput,
  GetPublicAccessBlockCommandOutput,
  PutBucketEncryptionCommandInput,
  PutBucketOwnershipControlsCommandInput,
  PutBucketPolicyCommandInput,
  PutBucketTaggingCommandInput,
  PutBucketVersioningCommandInput,
  PutPublicAccessBlockCommandInput,
} from "@aws-sdk/client-s3";
import { partitionOf } from "../arn.ts";
import { userTagList } from "../pattern-tag-list.ts";
import { toAws } from "../shape-codec.ts";
import { awsTags, tagMapOf as listTagMap, tagListFromAws, withOwnerTags } from "../tag-list.ts";
import { isDirectoryBucketName } from "./directory-bucket.ts";
import { bucketCodecs } from "./generated/bucket-fields.ts";
import {
  type BucketFields,
  type Encryption,
  type EncryptionRule,
  type ObjectOwnership,
  type OwnershipControls,
  objectOwnerships,
  type PublicAccessBlock,
  type SseAlgorithm,
  sseAlgorithms,
  type Tag,
  type Tagging,
  type Versioning,
  versioningStatuses,
} from "./schema.ts";

/** The region S3 creates a bucket in when CreateBucket carries no LocationConstraint. */
export const defaultBucketRegion = "us-east-1";

/** `arn:<partition>:s3:::<name>`; bucket ARNs carry neither region nor account. */
export function arnOf(name: string, region?: string): string {
  return `arn:${partitionOf(region)}:s3:::${name}`;
}

/** `status.location` when S3 did not tell (an adopted bucket): "/" and the name, as S3 says for us-east-1. */
export function locationOf(name: string): string {
  return `/${name}`;
}

// ---- spec → requests ----

/**
 * us-east-1 must not be named as a LocationConstraint; every other region must be. (The cast:
 * the SDK's union lists the regions it knew when it was built; newer ones are valid too.)
 */
export function createBucketInput(
  name: string,
  region: string,
  tags: Readonly<Record<string, string>> = {},
  spec: CreateTimeFields = {},
): CreateBucketCommandInput {
  const Tags = awsTags(tags);
  const given = (toAws(bucketCodecs.createBucketConfiguration[1], spec.createBucketConfiguration) ??
    {}) as CreateBucketConfiguration;
  const configuration: CreateBucketConfiguration = {
    // The location and bucket type as the spec gives them; the region is the resource's.
    ...(given.Location === undefined ? {} : { Location: given.Location }),
    ...(given.Bucket === undefined ? {} : { Bucket: given.Bucket }),
    // A directory bucket's place is its location (a zone); S3 refuses a LocationConstraint with it.
    ...(region === defaultBucketRegion || isDirectoryBucketName(name)
      ? {}
      : { LocationConstraint: region as BucketLocationConstraint }),
    // S3 tags a general purpose bucket at creation (s3:TagResource): ownership is never missing.
    ...(Tags.length > 0 ? { Tags } : {}),
  };
  return {
    Bucket: name,
    ...(Object.keys(configuration).length === 0 ? {} : { CreateBucketConfiguration: configuration }),
    ...(spec.objectLockEnabledForBucket === undefined
      ? {}
      : { ObjectLockEnabledForBucket: spec.objectLockEnabledForBucket }),
    ...(spec.objectOwnership === undefined ? {} : { ObjectOwnership: spec.objectOwnership }),
    ...(spec.namespace === undefined ? {} : { BucketNamespace: spec.namespace }),
  };
}

/** The spec fields CreateBucket itself carries (the ACL does not: see bucket.ts). */
export type CreateTimeFields = Partial<
  Pick<
    BucketFields,
    "createBucketConfiguration" | "objectLockEnabledForBucket" | "objectOwnership" | "namespace"
  >
>;

/**
 * The region a spec's createBucketConfiguration.locationConstraint names ("EU" is eu-west-1),
 * or undefined when it names none.
 */
export function constrainedRegion(spec: CreateTimeFields): string | undefined {
  const constraint = spec.createBucketConfiguration?.locationConstraint;
  if (constraint === undefined) return undefined;
  return constraint === "EU" ? "eu-west-1" : constraint;
}

/** The tag set S3 should hold: the user's tags and the ownership tags (which win on a clash). */
export function bucketTags(
  tagging: Tagging | undefined,
  ownerTags: Readonly<Record<string, string>>,
): Record<string, string> {
  return withOwnerTags(tagging?.tagSet, ownerTags);
}

/** Every tag on a bucket as a map (ownership tags included). */
export function tagMapOf(tagging: Tagging | undefined): Record<string, string> {
  return listTagMap(tagging?.tagSet);
}

/** The user's part of a bucket's tags, in spec form (undefined = no tags). */
export function userTagging(tagging: Tagging | undefined): Tagging | undefined {
  const tagSet = userTagList(tagging?.tagSet);
  return tagSet === undefined ? undefined : { tagSet };
}

export function putBucketTaggingInput(
  name: string,
  tags: Readonly<Record<string, string>>,
): PutBucketTaggingCommandInput {
  return {
    Bucket: name,
    Tagging: { TagSet: awsTags(tags) },
  };
}

export function putBucketVersioningInput(
  name: string,
  versioning: Versioning,
): PutBucketVersioningCommandInput {
  return { Bucket: name, VersioningConfiguration: { Status: versioning.status } };
}

export function putBucketEncryptionInput(
  name: string,
  encryption: Encryption,
): PutBucketEncryptionCommandInput {
  return {
    Bucket: name,
    ServerSideEncryptionConfiguration: {
      Rules: encryption.rules.map((rule) => {
        const byDefault = rule.applyServerSideEncryptionByDefault;
        return {
          ApplyServerSideEncryptionByDefault: {
            SSEAlgorithm: byDefault.sseAlgorithm,
            ...(byDefault.kmsMasterKeyID === undefined ? {} : { KMSMasterKeyID: byDefault.kmsMasterKeyID }),
          },
          ...(rule.bucketKeyEnabled === undefined ? {} : { BucketKeyEnabled: rule.bucketKeyEnabled }),
        };
      }),
    },
  };
}

export function putBucketPolicyInput(name: string, policy: string): PutBucketPolicyCommandInput {
  return { Bucket: name, Policy: policy };
}

/** Every flag is sent: one left out would be reset to false by S3 anyway. */
export function putPublicAccessBlockInput(
  name: string,
  block: PublicAccessBlock,
): PutPublicAccessBlockCommandInput {
  return {
    Bucket: name,
    PublicAccessBlockConfiguration: {
      BlockPublicAcls: block.blockPublicACLs ?? false,
      IgnorePublicAcls: block.ignorePublicACLs ?? false,
      BlockPublicPolicy: block.blockPublicPolicy ?? false,
      RestrictPublicBuckets: block.restrictPublicBuckets ?? false,
    },
  };
}

export function putBucketOwnershipControlsInput(
  name: string,
  controls: OwnershipControls,
): PutBucketOwnershipControlsCommandInput {
  return {
    Bucket: name,
    OwnershipControls: { Rules: controls.rules.map((r) => ({ ObjectOwnership: r.objectOwnership })) },
  };
}

// ---- "none" forms: these are applied by deleting the sub-resource in S3 ----

export function isNoTags(tagging: Tagging | undefined): boolean {
  return (tagging?.tagSet ?? []).length === 0;
}

export function isNoPolicy(policy: string | undefined): boolean {
  return policy === undefined || policy === "";
}

export function isNoPublicAccessBlock(block: PublicAccessBlock | undefined): boolean {
  return (
    block === undefined ||
    !(
      block.blockPublicACLs ||
      block.blockPublicPolicy ||
      block.ignorePublicACLs ||
      block.restrictPublicBuckets
    )
  );
}

export function isNoOwnershipControls(controls: OwnershipControls | undefined): boolean {
  return controls === undefined || controls.rules.length === 0;
}

// ---- answers → spec ----

export function taggingFromAws(
  out: Partial<Pick<GetBucketTaggingCommandOutput, "TagSet">>,
): Tagging | undefined {
  const tagSet: Tag[] = tagListFromAws(out.TagSet);
  return tagSet.length === 0 ? undefined : { tagSet };
}

/** A bucket that was never versioned answers without a Status. */
export function versioningFromAws(
  out: Pick<GetBucketVersioningCommandOutput, "Status">,
): Versioning | undefined {
  const status = out.Status as BucketVersioningStatus | undefined;
  return isOneOf(versioningStatuses, status) ? { status } : undefined;
}

export function encryptionFromAws(
  out: Pick<GetBucketEncryptionCommandOutput, "ServerSideEncryptionConfiguration">,
): Encryption | undefined {
  const rules: EncryptionRule[] = [];
  for (const rule of out.ServerSideEncryptionConfiguration?.Rules ?? []) {
    const byDefault = rule.ApplyServerSideEncryptionByDefault;
    const algorithm = byDefault?.SSEAlgorithm as string | undefined;
    if (!isOneOf(sseAlgorithms, algorithm)) continue;
    const sseAlgorithm: SseAlgorithm = algorithm;
    rules.push({
      applyServerSideEncryptionByDefault:
        byDefault?.KMSMasterKeyID === undefined || byDefault.KMSMasterKeyID === ""
          ? { sseAlgorithm }
          : { sseAlgorithm, kmsMasterKeyID: byDefault.KMSMasterKeyID },
      ...(rule.BucketKeyEnabled === undefined ? {} : { bucketKeyEnabled: rule.BucketKeyEnabled }),
    });
  }
  return rules.length === 0 ? undefined : { rules };
}

export function policyFromAws(out: Pick<GetBucketPolicyCommandOutput, "Policy">): string | undefined {
  return out.Policy === undefined || out.Policy === "" ? undefined : out.Policy;
}

export function publicAccessBlockFromAws(
  out: Pick<GetPublicAccessBlockCommandOutput, "PublicAccessBlockConfiguration">,
): PublicAccessBlock | undefined {
  const c = out.PublicAccessBlockConfiguration;
  if (c === undefined) return undefined;
  return {
    blockPublicACLs: c.BlockPublicAcls ?? false,
    blockPublicPolicy: c.BlockPublicPolicy ?? false,
    ignorePublicACLs: c.IgnorePublicAcls ?? false,
    restrictPublicBuckets: c.RestrictPublicBuckets ?? false,
  };
}

export function ownershipControlsFromAws(
  out: Pick<GetBucketOwnershipControlsCommandOutput, "OwnershipControls">,
): OwnershipControls | undefined {
  const rules: { objectOwnership: ObjectOwnership }[] = [];
  for (const rule of out.OwnershipControls?.Rules ?? []) {
    const ownership = rule.ObjectOwnership as string | undefined;
    if (isOneOf(objectOwnerships, ownership)) rules.push({ objectOwnership: ownership });
  }
  return rules.length === 0 ? undefined : { rules };
}

function isOneOf<T extends string>(values: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (values as readonly string[]).includes(value);
}
