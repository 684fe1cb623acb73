// The Bucket CRD generated from src/services/s3/schema.ts on a real kube-apiserver: it is
// accepted and becomes Established, every valid Bucket example is admitted, every invalid one
// is rejected at its field (the same table schema.test.ts runs through zod), and spec.name
// cannot change once set.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bucketCrdSource } from "../../src/services/s3/schema.ts";
import { rejection, show } from "../support/admission.ts";
import {
  bucketExampleNamespace,
  bucketInvalidExamples,
  bucketValidExamples,
} from "../support/examples/bucket.ts";
import { kindAdmissionSuite } from "../support/kind-admission.ts";

type Obj = Record<string, unknown>;

const kind = kindAdmissionSuite({
  kind: "Bucket",
  source: bucketCrdSource,
  namespace: bucketExampleNamespace,
  valid: bucketValidExamples,
  invalid: bucketInvalidExamples,
});

describe("Bucket spec.name is immutable", () => {
  test("renaming is rejected; changing other fields is not; status.location is kept", async () => {
    const original = {
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: { name: "immutable-name", namespace: bucketExampleNamespace },
      spec: { name: "shop-first" },
    };
    const stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) => kind.replace(original, stored.metadata, spec);
    const causes = await rejection(() => replace({ name: "shop-second" }));
    assert.ok(
      causes.some((c) => c.field === "spec.name" && (c.message ?? "").includes("name is immutable")),
      show(causes),
    );
    const updated = (await replace({ name: "shop-first", versioning: { status: "Enabled" } })) as {
      metadata: Obj;
      spec: Obj;
    };
    assert.deepEqual(updated.spec["versioning"], { status: "Enabled" });

    const status = { location: "/shop-first", ackResourceMetadata: { arn: "arn:aws:s3:::shop-first" } };
    const withStatus = (await kind.replaceStatus(original, updated.metadata, updated.spec, status)) as {
      status?: Obj;
    };
    assert.deepEqual(withStatus.status, status);
  });
});

describe("a directory bucket's spec after its create", () => {
  test("may leave createBucketConfiguration out (ACK's tests replace the spec so); still refuses what S3 Express lacks", async () => {
    const name = "s3-bucket-replaced--usw2-az1--x-s3";
    const original = {
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: { name: "directory-replaced", namespace: bucketExampleNamespace },
      spec: {
        name,
        createBucketConfiguration: {
          bucket: { type: "Directory", dataRedundancy: "SingleAvailabilityZone" },
          location: { name: "usw2-az1", type: "AvailabilityZone" },
        },
      },
    };
    const stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    // ACK's _update_assert_tagging_directory_bucket: the whole spec replaced by bucket_tagging.yaml.
    const tagging = { tagSet: [{ key: "first", value: "1" }] };
    const updated = (await kind.replace(original, stored.metadata, { name, tagging })) as {
      metadata: Obj;
      spec: Obj;
    };
    assert.deepEqual(updated.spec, { name, tagging });
    const causes = await rejection(() =>
      kind.replace(original, updated.metadata, {
        name,
        tagging,
        website: { indexDocument: { suffix: "index.html" } },
      }),
    );
    assert.ok(
      causes.some(
        (c) => c.field === "spec.website" && (c.message ?? "").includes("has no website; remove it"),
      ),
      show(causes),
    );
  });
});
