// The S3 Bucket kind plugged into the generic reconciler.
import { parseSpecWith, parseStatusWith, type ServiceModule } from "../service-module.ts";
import {
  adoptedSpec,
  errorReporting,
  fromDeclared,
  observationOf,
  pathsOf,
  specFieldComparison,
  withoutKeys,
} from "../service-module-parts.ts";
import { grantFields } from "./acl.ts";
import {
  bucketCreatedAt,
  claimBucket,
  createBucket,
  deleteBucket,
  type ObservedBucket,
  readBucket,
  readCreatedBucket,
  updateBucket,
} from "./bucket.ts";
import { bucketClient, s3ClientFactory } from "./client.ts";
import { afterApplying, diff, lateInitialize } from "./diff.ts";
import { directoryBucketArn, isDirectoryBucketName } from "./directory-bucket.ts";
import type { BucketClient } from "./directory-bucket-calls.ts";
import { classifyError, isBucketError } from "./errors.ts";
import { bucketDeclared } from "./generated/bucket-fields.ts";
import { arnOf, tagMapOf, userTagging } from "./mapping.ts";
import {
  type BucketFields,
  type BucketSpec,
  bucketKind,
  bucketSpecSchema,
  bucketStatusSchema,
} from "./schema.ts";

/** The spec fields of what AWS has. */
const withoutRegion = (observed: ObservedBucket): BucketFields => withoutKeys(observed, ["region"]);

export const bucketService: ServiceModule<BucketSpec, ObservedBucket, BucketClient> = {
  kind: bucketKind,
  parseSpec: parseSpecWith(bucketSpecSchema),
  parseStatus: parseStatusWith(bucketStatusSchema),
  async client(credentials, decision, resource) {
    const s3 = await credentials.client(s3ClientFactory, decision, resource);
    // S3 Control, for a directory bucket's tags: its account is the decision's, or the caller's.
    return bucketClient(s3, async () => {
      const { s3ControlClientFactory } = await import("./control-client.ts");
      const client = await credentials.client(s3ControlClientFactory, decision, resource);
      const account = decision.account ?? (await credentials.callerIdentity(decision, resource)).account;
      return { client, account, region: await s3.config.region() };
    });
  },
  ...fromDeclared(bucketDeclared),
  // A name another account holds reads as `found: false` with `heldElsewhere`.
  read: async (client, spec, ctx) => observationOf(await readBucket(client, spec, ctx), "bucket"),
  tagsOf: (observed) => tagMapOf(observed.tagging),
  // S3 stores that ignore CreateBucket's tags (the emulator among them) tag in a second call.
  createdAt: (client, spec, ctx) => bucketCreatedAt(client, spec.name, ctx),
  async create(client, spec, region, ownerTags, ctx) {
    const r = await createBucket(client, spec, region, ownerTags, ctx);
    return r.created ? { created: true, status: { location: r.location } } : { created: false };
  },
  readCreated: async (client, spec, region, ctx) =>
    observationOf(await readCreatedBucket(client, spec, region, ctx), "bucket"),
  update: async (client, desired, observed, ownerTags, ctx) =>
    pathsOf(await updateBucket(client, desired, observed, ownerTags, ctx)),
  afterUpdate: (desired, observed, ownerTags) => afterApplying(desired, observed, ownerTags),
  claim: (client, observed, ownerTags, ctx) => claimBucket(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteBucket(client, spec.name, ctx),
  ...specFieldComparison(withoutRegion, diff, lateInitialize),
  specFromObserved(observed, spec) {
    const { tagging, ...fields } = withoutRegion(observed);
    // S3's ACL reads back in both forms; a spec takes one (the canned ACL where there is one).
    const acl = fields.acl === undefined ? fields : withoutKeys(fields, grantFields);
    // No user tags: `tagging: {}` (no tagSet), as ACK's adopted Bucket has it (its tag sync sets
    // an empty Tagging); absent or empty, the spec means the same, no tags.
    return adoptedSpec(acl, "tagging", userTagging(tagging) ?? {}, spec);
  },
  arn: (spec, region, account) =>
    isDirectoryBucketName(spec.name)
      ? directoryBucketArn(spec.name, region, account)
      : arnOf(spec.name, region),
  observedRegion: (observed) => observed.region,
  ...errorReporting(isBucketError, (err, spec: BucketSpec) =>
    classifyError(err, { operation: "HeadBucket", bucket: spec.name }),
  ),
};
