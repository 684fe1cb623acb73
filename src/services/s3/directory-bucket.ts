// Directory buckets (S3 Express One Zone, and Local Zones): a bucket whose name ends in "--x-s3"
// lives in one zone, is created with `createBucketConfiguration.bucket.type: Directory` and a
// location, and keeps only a few of a bucket's configurations: encryption, lifecycle, policy and
// tags (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-differences.html).
// The name decides, as in ACK's s3-controller (IsDirectoryBucketName): it is immutable, while
// ACK's own tests replace the spec without createBucketConfiguration once the bucket exists.
// Pure: the rules admission and the controller apply; the calls a directory bucket gets are the
// declaration's variant (bucket-declaration.ts, runtime.variants.directory).

import type { CelValidation, Rule } from "../../api/rules.ts";
import { bucketDeclaration } from "./bucket-declaration.ts";

/** The declaration's directory variant: the calls such a bucket gets (bucket-declaration.ts). */
export const directoryBucketSuffix = bucketDeclaration.runtime.variants.directory.suffix;

export const isDirectoryBucketName = (name: string): boolean => name.endsWith(directoryBucketSuffix);

/**
 * The spec fields S3 refuses for a directory bucket: ACK's list (its validateDirectoryBucketSpec),
 * plus what only a general purpose bucket is created with (Object Lock, object ownership: a
 * directory bucket is always BucketOwnerEnforced, and the account-regional namespace).
 */
export const notForDirectoryBuckets = [
  "abac",
  "accelerate",
  "analytics",
  "acl",
  "grantFullControl",
  "grantRead",
  "grantReadACP",
  "grantWrite",
  "grantWriteACP",
  "cors",
  "intelligentTiering",
  "inventory",
  "logging",
  "metrics",
  "notification",
  "ownershipControls",
  "publicAccessBlock",
  "replication",
  "requestPayment",
  "versioning",
  "website",
  "objectLockConfiguration",
  "objectLockEnabledForBucket",
  "objectOwnership",
  "namespace",
] as const;

/** The fields of a spec the rules below look at. */
interface DirectorySpec {
  readonly name: string;
  readonly createBucketConfiguration?: {
    readonly bucket?: { readonly type?: string } | undefined;
    readonly location?: { readonly name?: string; readonly type?: string } | undefined;
  };
}

const isDirectoryType = (spec: DirectorySpec) => spec.createBucketConfiguration?.bucket?.type === "Directory";

/** Directory bucket naming rules: `<base-name>--<zone-id>--x-s3`, no periods. */
const namePattern = /^[a-z0-9][a-z0-9-]*[a-z0-9]--[a-z0-9][a-z0-9-]*[a-z0-9]--x-s3$/;

/** The spec rules of directory buckets, checked by the apiserver and the controller alike. */
export const directoryBucketRules: readonly Rule<DirectorySpec & Readonly<Record<string, unknown>>>[] = [
  {
    cel: `!self.name.endsWith('${directoryBucketSuffix}') || self.name.matches('${namePattern.source}')`,
    message:
      "name of a directory bucket is <base-name>--<zone-id>--x-s3 (e.g. logs--usw2-az1--x-s3): lowercase letters, digits and '-', no periods (S3 directory bucket naming rules)",
    fieldPath: ".name",
    check: (spec) => !isDirectoryBucketName(spec.name) || namePattern.test(spec.name),
  },
  {
    cel: `!has(self.createBucketConfiguration) || !has(self.createBucketConfiguration.bucket) || !has(self.createBucketConfiguration.bucket.type) || self.createBucketConfiguration.bucket.type != 'Directory' || self.name.endsWith('${directoryBucketSuffix}')`,
    message:
      "createBucketConfiguration.bucket.type Directory needs a directory bucket name, <base-name>--<zone-id>--x-s3; or remove bucket.type for a general purpose bucket",
    fieldPath: ".name",
    check: (spec) => !isDirectoryType(spec) || isDirectoryBucketName(spec.name),
  },
  // One rule per field, so that each is reported at the field itself.
  ...notForDirectoryBuckets.map((field) => ({
    cel: `!self.name.endsWith('${directoryBucketSuffix}') || !has(self.${field})`,
    message: `${field}: a directory bucket (name ending ${directoryBucketSuffix}) keeps only encryption, lifecycle, policy and tagging, and S3 Express One Zone has no ${field}; remove it`,
    fieldPath: `.${field}`,
    check: (spec: DirectorySpec & Readonly<Record<string, unknown>>) =>
      !isDirectoryBucketName(spec.name) || spec[field] === undefined,
  })),
];

/**
 * On create only (`oldSelf` absent): a directory bucket name needs the Directory type and a
 * location naming the zone in the name. Later specs may leave createBucketConfiguration out (it
 * is fixed at creation; ACK's tests replace the spec without it), so this is a transition rule,
 * and the controller refuses a create without them at the create itself (bucket.ts).
 */
export const directoryBucketCreateRule: CelValidation = {
  rule: `oldSelf.hasValue() || !self.name.endsWith('${directoryBucketSuffix}') || (has(self.createBucketConfiguration) && has(self.createBucketConfiguration.bucket) && has(self.createBucketConfiguration.bucket.type) && self.createBucketConfiguration.bucket.type == 'Directory' && has(self.createBucketConfiguration.location) && has(self.createBucketConfiguration.location.name) && self.name.endsWith('--' + self.createBucketConfiguration.location.name + '${directoryBucketSuffix}'))`,
  message: `a directory bucket (name ending ${directoryBucketSuffix}) is created with createBucketConfiguration.bucket.type Directory and a location whose name is the zone ID in the bucket's name (<base-name>--<zone-id>--x-s3); add them`,
  fieldPath: ".createBucketConfiguration",
  optionalOldSelf: true,
};

/**
 * Why a create of `spec` cannot be sent as a directory bucket, or undefined when it can: the
 * create rule above, for a spec admission let through as an update (the bucket gone since).
 */
export function directoryCreateProblem(spec: DirectorySpec): string | undefined {
  if (!isDirectoryBucketName(spec.name)) return undefined;
  const location = spec.createBucketConfiguration?.location?.name;
  if (
    isDirectoryType(spec) &&
    location !== undefined &&
    spec.name.endsWith(`--${location}${directoryBucketSuffix}`)
  ) {
    return undefined;
  }
  return `spec.createBucketConfiguration: the directory bucket "${spec.name}" does not exist, and S3 creates one only with bucket.type Directory and a location naming the zone in its name; add them to the spec`;
}
