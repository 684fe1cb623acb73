// The S3 Bucket kind plugged into the generic reconciler.
import type { S3Client } from "@aws-sdk/client-s3";
import { parseSpecWith, type ServiceModule } from "../service-module.ts";
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
import { s3ClientFactory } from "./client.ts";
import { afterApplying, diff, lateInitialize } from "./diff.ts";
import { classifyError, isBucketError } from "./errors.ts";
import { arnOf, tagMapOf, userTagging } from "./mapping.ts";
import { type BucketFields, type BucketSpec, bucketKind, bucketSpecSchema } from "./schema.ts";

function withoutRegion(observed: ObservedBucket): BucketFields {
  const { region: _region, ...fields } = observed;
  return fields;
}

export const bucketService: ServiceModule<BucketSpec, ObservedBucket, S3Client> = {
  kind: bucketKind,
  parseSpec: parseSpecWith(bucketSpecSchema),
  client: (credentials, decision, resource) => credentials.client(s3ClientFactory, decision, resource),
  identifier: (spec) => spec.name,
  identifierField: "spec.name",
  async read(client, spec, ctx) {
    const r = await readBucket(client, spec, ctx);
    if (r.found) return { found: true, observed: r.bucket };
    return r.heldElsewhere === undefined
      ? { found: false }
      : { found: false, heldElsewhere: r.heldElsewhere };
  },
  tagsOf: (observed) => tagMapOf(observed.tagging),
  // S3 stores that ignore CreateBucket's tags (the emulator among them) tag in a second call.
  createdAt: (client, spec, ctx) => bucketCreatedAt(client, spec.name, ctx),
  async create(client, spec, region, ownerTags, ctx) {
    const r = await createBucket(client, spec, region, ownerTags, ctx);
    return r.created ? { created: true, status: { location: r.location } } : { created: false };
  },
  async readCreated(client, spec, region, ctx) {
    const r = await readCreatedBucket(client, spec, region, ctx);
    return r.found ? { found: true, observed: r.bucket } : { found: false };
  },
  async update(client, desired, observed, ownerTags, ctx) {
    return (await updateBucket(client, desired, observed, ownerTags, ctx)).map((d) => d.path);
  },
  afterUpdate: (desired, observed, ownerTags) => afterApplying(desired, observed, ownerTags),
  claim: (client, observed, ownerTags, ctx) => claimBucket(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteBucket(client, spec.name, ctx),
  diff: (desired, observed) => diff(desired, withoutRegion(observed)).map((d) => d.path),
  lateInitialize(spec, observed) {
    const r = lateInitialize(spec, withoutRegion(observed));
    return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
  },
  specFromObserved(observed, spec) {
    const { tagging, ...fields } = withoutRegion(observed);
    const user = userTagging(tagging);
    return {
      ...fields,
      ...(user ? { tagging: user } : {}),
      ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
    };
  },
  arn: (spec, region) => arnOf(spec.name, region),
  observedRegion: (observed) => observed.region,
  isTerminal: (err) => isBucketError(err) && err.terminal,
  describeError(err, spec) {
    return (isBucketError(err) ? err : classifyError(err, { operation: "HeadBucket", bucket: spec.name }))
      .message;
  },
};
