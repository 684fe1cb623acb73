// The S3 Bucket service module: what the reconciler imports (schema, mapping, diff, CRUD, errors).
export {
  bucketCreatedAt,
  type CreateResult,
  claimBucket,
  createBucket,
  deleteBucket,
  type ObservedBucket,
  type OwnerTags,
  type ReadResult,
  readBucket,
  readCreatedBucket,
  updateBucket,
} from "./bucket.ts";
export { s3ClientFactory } from "./client.ts";
export {
  afterApplying,
  diff,
  type FieldDifference,
  lateInitialize,
  lateInitializedSubresources,
} from "./diff.ts";
export {
  BucketError,
  classifyError,
  type ErrorDisposition,
  isBucketError,
  type S3Operation,
} from "./errors.ts";
export { arnOf, defaultBucketRegion, locationOf, tagMapOf, userTagging } from "./mapping.ts";
export {
  type Bucket,
  type BucketFields,
  type BucketSpec,
  type BucketStatus,
  type BucketSubresource,
  bucketCrdSource,
  bucketKind,
  bucketSchema,
  bucketSpecSchema,
  bucketStatusSchema,
  bucketSubresources,
} from "./schema.ts";
