// The S3 Bucket kind plugged into the generic reconciler.
import type { S3Client } from "@aws-sdk/client-s3";
import { describeIssues } from "../../api/rules.ts";
import {
  arnOf,
  type BucketFields,
  type BucketSpec,
  bucketKind,
  bucketSpecSchema,
  classifyError,
  createBucket,
  deleteBucket,
  diff,
  isBucketError,
  lateInitialize,
  type ObservedBucket,
  readBucket,
  updateBucket,
} from "../../services/s3/index.ts";
import type { ServiceModule } from "../serviceModule.ts";

function withoutRegion(observed: ObservedBucket): BucketFields {
  const { region: _region, ...fields } = observed;
  return fields;
}

export const bucketService: ServiceModule<BucketSpec, ObservedBucket, S3Client> = {
  kind: bucketKind,
  parseSpec(spec) {
    const r = bucketSpecSchema.safeParse(spec);
    return r.success
      ? { ok: true, value: r.data }
      : { ok: false, message: describeIssues(r.error, ["spec"]).join("; ") };
  },
  client: (credentials, decision, resource) => credentials.s3Client(decision, resource),
  async read(client, spec) {
    const r = await readBucket(client, spec);
    return r.found ? { found: true, observed: r.bucket } : { found: false };
  },
  async create(client, spec, region) {
    const r = await createBucket(client, spec, region);
    return { location: r.location };
  },
  async update(client, desired, observed) {
    return (await updateBucket(client, desired, observed)).map((d) => d.path);
  },
  delete: (client, spec) => deleteBucket(client, spec.name),
  diff: (desired, observed) => diff(desired, withoutRegion(observed)).map((d) => d.path),
  lateInitialize(spec, observed) {
    const r = lateInitialize(spec, withoutRegion(observed));
    return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
  },
  specFromObserved: (observed, spec) => ({
    ...withoutRegion(observed),
    ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
  }),
  arn: (spec, region) => arnOf(spec.name, region),
  observedRegion: (observed) => observed.region,
  isTerminal: (err) => isBucketError(err) && err.terminal,
  describeError(err, spec) {
    return (isBucketError(err) ? err : classifyError(err, { operation: "HeadBucket", bucket: spec.name }))
      .message;
  },
};
