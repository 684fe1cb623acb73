// S3 failures sorted into what the reconciler does with them: `terminal` (ACK.Terminal, no
// retry until the spec changes: only the user can fix it) or `retryable` (back off and try
// again: throttling, 5xx, network, permissions an administrator may still grant, S3's
// eventual consistency right after CreateBucket). Every message names the bucket, the S3
// operation and the spec field it was applying.

import {
  failureInit,
  fallbackCode,
  genericErrorNames as genericNames,
  type ObjectErrorInit,
  objectErrorClass,
  type SdkErrorLike,
  type ServiceRules,
  sdkErrorCodeField,
  sdkErrorName,
} from "../service-error.ts";
import { isDirectoryBucketName } from "./directory-bucket.ts";
import { bucketDeclared } from "./generated/bucket-fields.ts";

export { httpStatus } from "../service-error.ts";

/** The S3 operations this module calls; each error names the one that failed. */
export type S3Operation =
  | "CreateBucket"
  | "HeadBucket"
  | "GetBucketLocation"
  | "ListBuckets"
  | "ListDirectoryBuckets"
  | "ListTagsForResource"
  | "TagResource"
  | "UntagResource"
  | "DeleteBucket"
  | "GetBucketTagging"
  | "PutBucketTagging"
  | "DeleteBucketTagging"
  | "GetBucketVersioning"
  | "PutBucketVersioning"
  | "GetBucketEncryption"
  | "PutBucketEncryption"
  | "GetBucketPolicy"
  | "PutBucketPolicy"
  | "DeleteBucketPolicy"
  | "GetPublicAccessBlock"
  | "PutPublicAccessBlock"
  | "DeletePublicAccessBlock"
  | "GetBucketOwnershipControls"
  | "PutBucketOwnershipControls"
  | "DeleteBucketOwnershipControls"
  | "GetBucketAcl"
  | "PutBucketAcl"
  | "GetObjectLockConfiguration"
  | "PutObjectLockConfiguration"
  | "GetBucketAbac"
  | "PutBucketAbac"
  | "GetBucketAccelerateConfiguration"
  | "PutBucketAccelerateConfiguration"
  | "GetBucketCors"
  | "PutBucketCors"
  | "DeleteBucketCors"
  | "GetBucketLifecycleConfiguration"
  | "PutBucketLifecycleConfiguration"
  | "DeleteBucketLifecycle"
  | "GetBucketLogging"
  | "PutBucketLogging"
  | "GetBucketNotificationConfiguration"
  | "PutBucketNotificationConfiguration"
  | "GetBucketReplication"
  | "PutBucketReplication"
  | "DeleteBucketReplication"
  | "GetBucketRequestPayment"
  | "PutBucketRequestPayment"
  | "GetBucketWebsite"
  | "PutBucketWebsite"
  | "DeleteBucketWebsite"
  | "ListBucketAnalyticsConfigurations"
  | "PutBucketAnalyticsConfiguration"
  | "DeleteBucketAnalyticsConfiguration"
  | "ListBucketIntelligentTieringConfigurations"
  | "PutBucketIntelligentTieringConfiguration"
  | "DeleteBucketIntelligentTieringConfiguration"
  | "ListBucketInventoryConfigurations"
  | "PutBucketInventoryConfiguration"
  | "DeleteBucketInventoryConfiguration"
  | "ListBucketMetricsConfigurations"
  | "PutBucketMetricsConfiguration"
  | "DeleteBucketMetricsConfiguration";

/** The IAM action each operation needs, for AccessDenied messages (they differ from the names). */
const iamActions: Record<S3Operation, string> = {
  CreateBucket: "s3:CreateBucket",
  HeadBucket: "s3:ListBucket",
  GetBucketLocation: "s3:GetBucketLocation",
  ListBuckets: "s3:ListAllMyBuckets",
  // A directory bucket's own calls (every other one's action is under s3express: for it too).
  ListDirectoryBuckets: "s3express:ListAllMyDirectoryBuckets",
  ListTagsForResource: "s3express:ListTagsForResource",
  TagResource: "s3express:TagResource",
  UntagResource: "s3express:UntagResource",
  DeleteBucket: "s3:DeleteBucket",
  GetBucketTagging: "s3:GetBucketTagging",
  PutBucketTagging: "s3:PutBucketTagging",
  DeleteBucketTagging: "s3:PutBucketTagging",
  GetBucketVersioning: "s3:GetBucketVersioning",
  PutBucketVersioning: "s3:PutBucketVersioning",
  GetBucketEncryption: "s3:GetEncryptionConfiguration",
  PutBucketEncryption: "s3:PutEncryptionConfiguration",
  GetBucketPolicy: "s3:GetBucketPolicy",
  PutBucketPolicy: "s3:PutBucketPolicy",
  DeleteBucketPolicy: "s3:DeleteBucketPolicy",
  GetPublicAccessBlock: "s3:GetBucketPublicAccessBlock",
  PutPublicAccessBlock: "s3:PutBucketPublicAccessBlock",
  DeletePublicAccessBlock: "s3:PutBucketPublicAccessBlock",
  GetBucketOwnershipControls: "s3:GetBucketOwnershipControls",
  PutBucketOwnershipControls: "s3:PutBucketOwnershipControls",
  DeleteBucketOwnershipControls: "s3:PutBucketOwnershipControls",
  GetBucketAcl: "s3:GetBucketAcl",
  PutBucketAcl: "s3:PutBucketAcl",
  GetObjectLockConfiguration: "s3:GetBucketObjectLockConfiguration",
  PutObjectLockConfiguration: "s3:PutBucketObjectLockConfiguration",
  GetBucketAbac: "s3:GetBucketAbac",
  PutBucketAbac: "s3:PutBucketAbac",
  GetBucketAccelerateConfiguration: "s3:GetAccelerateConfiguration",
  PutBucketAccelerateConfiguration: "s3:PutAccelerateConfiguration",
  GetBucketCors: "s3:GetBucketCORS",
  PutBucketCors: "s3:PutBucketCORS",
  DeleteBucketCors: "s3:PutBucketCORS",
  GetBucketLifecycleConfiguration: "s3:GetLifecycleConfiguration",
  PutBucketLifecycleConfiguration: "s3:PutLifecycleConfiguration",
  DeleteBucketLifecycle: "s3:PutLifecycleConfiguration",
  GetBucketLogging: "s3:GetBucketLogging",
  PutBucketLogging: "s3:PutBucketLogging",
  GetBucketNotificationConfiguration: "s3:GetBucketNotification",
  PutBucketNotificationConfiguration: "s3:PutBucketNotification",
  GetBucketReplication: "s3:GetReplicationConfiguration",
  PutBucketReplication: "s3:PutReplicationConfiguration",
  DeleteBucketReplication: "s3:PutReplicationConfiguration",
  GetBucketRequestPayment: "s3:GetBucketRequestPayment",
  PutBucketRequestPayment: "s3:PutBucketRequestPayment",
  GetBucketWebsite: "s3:GetBucketWebsite",
  PutBucketWebsite: "s3:PutBucketWebsite",
  DeleteBucketWebsite: "s3:DeleteBucketWebsite",
  ListBucketAnalyticsConfigurations: "s3:GetAnalyticsConfiguration",
  PutBucketAnalyticsConfiguration: "s3:PutAnalyticsConfiguration",
  DeleteBucketAnalyticsConfiguration: "s3:PutAnalyticsConfiguration",
  ListBucketIntelligentTieringConfigurations: "s3:GetIntelligentTieringConfiguration",
  PutBucketIntelligentTieringConfiguration: "s3:PutIntelligentTieringConfiguration",
  DeleteBucketIntelligentTieringConfiguration: "s3:PutIntelligentTieringConfiguration",
  ListBucketInventoryConfigurations: "s3:GetInventoryConfiguration",
  PutBucketInventoryConfiguration: "s3:PutInventoryConfiguration",
  DeleteBucketInventoryConfiguration: "s3:PutInventoryConfiguration",
  ListBucketMetricsConfigurations: "s3:GetMetricsConfiguration",
  PutBucketMetricsConfiguration: "s3:PutMetricsConfiguration",
  DeleteBucketMetricsConfiguration: "s3:PutMetricsConfiguration",
};

export interface BucketErrorInit extends ObjectErrorInit<S3Operation, "bucket"> {
  /** The bucket's region when S3 said it lives in another one (PermanentRedirect). */
  readonly bucketRegion?: string;
}

/** A bucket's error also says where S3 said the bucket lives, when it said so. */
export class BucketError extends objectErrorClass<S3Operation, "bucket">("BucketError", "bucket") {
  readonly bucketRegion: string | undefined;

  constructor(init: BucketErrorInit) {
    super(init);
    this.bucketRegion = init.bucketRegion;
  }
}

export function isBucketError(err: unknown): err is BucketError {
  return err instanceof BucketError;
}

/** Codes only a change of the spec (or of the bucket's name) can fix. */
/** The declaration's terminal codes (s3's declaration): only a spec change fixes them. */
const terminalCodes: ReadonlySet<string> = new Set(bucketDeclared.terminalCodes);

/**
 * The error code: S3's `Code`, else the SDK's error name, else a Node system error code
 * (ECONNREFUSED), else one derived from the HTTP status (HEAD answers have no body, so the
 * SDK can only call them Unknown).
 */
export function errorCode(err: unknown): string {
  const named = sdkErrorCodeField(err) ?? sdkErrorName(err, genericNames);
  if (named !== undefined) return named;
  const fallback = fallbackCode(err);
  return codesOfBodilessAnswers.get(fallback) ?? fallback;
}

/** The codes S3 means by the HTTP status of an answer without a body (HEAD). */
const codesOfBodilessAnswers: ReadonlyMap<string, string> = new Map([
  ["HTTP301", "PermanentRedirect"],
  ["HTTP403", "AccessDenied"],
  ["HTTP404", "NotFound"],
]);

/** The region S3 named in a redirect (x-amz-bucket-region), if any. */
export function redirectRegion(err: unknown): string | undefined {
  return ((err ?? {}) as SdkErrorLike).$response?.headers?.["x-amz-bucket-region"];
}

export interface ErrorContext {
  readonly operation: S3Operation;
  readonly bucket: string;
  readonly field?: string;
}

/** S3 words its own hints for its codes, access denied included: only the 5xx one is shared. */
const rules: ServiceRules<S3Operation> = {
  service: "S3",
  noun: "bucket",
  genericNames,
  terminalCodes,
  iamActions,
};

/** Wraps any failure of an S3 call into a BucketError that says what to do about it. */
export function classifyError(err: unknown, ctx: ErrorContext): BucketError {
  if (isBucketError(err)) return err;
  const code = errorCode(err);
  const region = code === "PermanentRedirect" ? redirectRegion(err) : undefined;
  return new BucketError({
    // Bodiless answers carry the SDK's placeholder ("UnknownError"), which says nothing: it is
    // one of `genericNames`, so the message leaves it out.
    ...failureInit(rules, err, {
      operation: ctx.operation,
      name: ctx.bucket,
      code,
      field: ctx.field,
      hint: hint(code, ctx, region),
    }),
    bucket: ctx.bucket,
    ...(region === undefined ? {} : { bucketRegion: region }),
    cause: err,
  });
}

/** A directory bucket's actions are S3 Express's, of the same names. */
function iamActionOn(operation: S3Operation, bucket: string): string {
  const action = iamActions[operation];
  return isDirectoryBucketName(bucket) ? action.replace(/^s3:/, "s3express:") : action;
}

/** S3's own hints; 5xx answers get the shared one. */
function hint(code: string, ctx: ErrorContext, region: string | undefined): string | undefined {
  switch (code) {
    case "InvalidBucketName":
      return ` (spec.name "${ctx.bucket}" is not a valid S3 bucket name; choose another name)`;
    case "BucketAlreadyExists":
      return ` (spec.name "${ctx.bucket}" is taken by another AWS account: bucket names are global across all accounts; choose another name)`;
    case "PermanentRedirect":
      return region === undefined
        ? " (the bucket lives in another region than the one reconciled)"
        : ` (the bucket lives in region ${region})`;
    case "IllegalLocationConstraintException":
    case "InvalidLocationConstraint":
    case "IncompatibleLocationConstraint":
      return " (the S3 client's region and the bucket's LocationConstraint disagree)";
    case "BucketNotEmpty":
      return " (S3 deletes only empty buckets: empty it, or set the deletion policy to retain; retrying)";
    case "AccessDenied":
      return ` (the identity lacks ${iamActionOn(ctx.operation, ctx.bucket)} on this bucket, or the bucket is owned by another account; retrying)`;
    case "NoSuchBucket":
      return " (S3 may not show a new bucket everywhere yet; retrying)";
    default:
      return undefined;
  }
}
