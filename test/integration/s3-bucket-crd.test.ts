// The Bucket CRD generated from src/services/s3/schema.ts on a real kube-apiserver: it is
// accepted and becomes Established, every valid Bucket example is admitted, every invalid one
// is rejected at its field (the same table schema.test.ts runs through zod), and spec.name
// cannot change once set.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  loadAllYaml,
  type V1CustomResourceDefinition,
} from "@kubernetes/client-node";
import { buildCrd } from "../../src/api/crd.ts";
import { crdToYaml } from "../../src/api/crd-yaml.ts";
import {
  bucketExampleNamespace,
  bucketInvalidExamples,
  bucketValidExamples,
} from "../../src/services/s3/examples.ts";
import { bucketCrdSource } from "../../src/services/s3/schema.ts";
import { type Stack, startStack, waitFor } from "../harness/index.ts";

type Obj = Record<string, unknown>;
interface Cause {
  readonly field?: string;
  readonly message?: string;
}

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
  const ext = stack.kubeConfig.makeApiClient(ApiextensionsV1Api);
  await stack.kubeConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: bucketExampleNamespace } } });
  // Through client-node's typed model: a plain object would lose every x-kubernetes-* keyword.
  const [typed] = loadAllYaml(crdToYaml(crd)) as V1CustomResourceDefinition[];
  assert.ok(typed, "the CRD renders to YAML");
  await ext.createCustomResourceDefinition({ body: typed });
  await waitFor(
    async () => {
      const got = await ext.readCustomResourceDefinition({ name: crd.metadata.name });
      return got.status?.conditions?.some((c) => c.type === "Established" && c.status === "True");
    },
    { what: `CRD ${crd.metadata.name} Established`, timeoutMs: 30_000 },
  );
  // Established can precede the REST endpoint being routable by a moment: poll a harmless list.
  await waitFor(() => custom.listClusterCustomObject(where).then(() => true), {
    what: "buckets served",
    timeoutMs: 30_000,
  });
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

/** Runs `write`, expecting a 422 Invalid; returns the field causes the apiserver gave. */
async function rejection(write: () => Promise<unknown>): Promise<Cause[]> {
  try {
    await write();
  } catch (err) {
    assert.ok(err instanceof ApiException, `expected an API error, got ${String(err)}`);
    assert.equal(err.code, 422, `expected 422 Invalid, got ${err.code}: ${String(err.body)}`);
    const status = (typeof err.body === "string" ? JSON.parse(err.body) : err.body) as {
      details?: { causes?: Cause[] };
    };
    return status.details?.causes ?? [];
  }
  assert.fail("the apiserver accepted the object");
}

function show(causes: readonly Cause[]): string {
  return causes.map((c) => `${c.field ?? "<no field>"}: ${c.message ?? ""}`).join("\n");
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
