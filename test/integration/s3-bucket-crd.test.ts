// The Bucket CRD generated from src/services/s3/schema.ts on a real kube-apiserver: it is
// accepted and becomes Established, every valid Bucket example is admitted, every invalid one
// is rejected at its field (the same table schema.test.ts runs through zod), and spec.name
// cannot change once set.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { buildCrd } from "../../src/api/crd.ts";
import { type Crd, installCrdObjects } from "../../src/deploy/install-crds.ts";
import { createKubeClient } from "../../src/runtime/kubeClient.ts";
import {
  bucketExampleNamespace,
  bucketInvalidExamples,
  bucketValidExamples,
} from "../../src/services/s3/examples.ts";
import { bucketCrdSource } from "../../src/services/s3/schema.ts";
import { type Stack, startStack } from "../harness/index.ts";
import { rejection, show } from "../support/admission.ts";

type Obj = Record<string, unknown>;

const crd = buildCrd(bucketCrdSource);
const where = {
  group: crd.spec.group,
  version: crd.spec.versions[0]?.name ?? "",
  plural: crd.spec.names.plural,
};

let stack: Stack;
let custom: CustomObjectsApi;

before(async () => {
  stack = await startStack({ aws: false });
  custom = stack.kubeConfig.makeApiClient(CustomObjectsApi);
  await stack.kubeConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: bucketExampleNamespace } } });
  await installCrdObjects(createKubeClient(stack.kubeConfig), [crd as unknown as Crd]);
});
after(() => stack?.stop());

function nameOf(object: Obj): string {
  return (object["metadata"] as { name: string }).name;
}

async function create(object: Obj): Promise<Obj> {
  return (await custom.createNamespacedCustomObject({
    ...where,
    namespace: bucketExampleNamespace,
    body: object,
  })) as Obj;
}

async function remove(object: Obj): Promise<void> {
  await custom.deleteNamespacedCustomObject({
    ...where,
    namespace: bucketExampleNamespace,
    name: nameOf(object),
  });
}

describe("the apiserver admits every valid Bucket example, and stores its spec unchanged", () => {
  for (const example of bucketValidExamples) {
    test(example.title, async () => {
      const created = (await create(example.object)) as { spec?: Obj };
      assert.deepEqual(created.spec, example.object["spec"]);
      await remove(example.object);
    });
  }
});

describe("the apiserver rejects each invalid Bucket example at its field, with a message naming it", () => {
  for (const example of bucketInvalidExamples) {
    test(example.title, async () => {
      const causes = await rejection(() => create(example.object));
      const field = example.apiserverField ?? example.field;
      const expected = example.apiserverMessage ?? example.message;
      assert.ok(
        causes.some((c) => c.field === field && (c.message ?? "").includes(expected)),
        `expected "${field}: …${expected}…" among:\n${show(causes)}`,
      );
    });
  }
});

describe("Bucket spec.name is immutable", () => {
  test("renaming is rejected; changing other fields is not; status.location is kept", async () => {
    const original = {
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: { name: "immutable-name", namespace: bucketExampleNamespace },
      spec: { name: "shop-first" },
    };
    const stored = (await create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) =>
      custom.replaceNamespacedCustomObject({
        ...where,
        namespace: bucketExampleNamespace,
        name: original.metadata.name,
        body: { ...original, metadata: stored.metadata, spec },
      });
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
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...where,
      namespace: bucketExampleNamespace,
      name: original.metadata.name,
      body: { ...original, metadata: updated.metadata, spec: updated.spec, status },
    })) as { status?: Obj };
    assert.deepEqual(withStatus.status, status);
  });
});
