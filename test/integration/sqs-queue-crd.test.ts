// The Queue CRD generated from src/services/sqs/schema.ts on a real kube-apiserver: it is
// accepted, every valid Queue example is admitted, every invalid one is rejected at its field
// (the same table schema.test.ts runs through zod), and spec.queueName and spec.fifoQueue cannot
// change once set.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { buildCrd } from "../../src/api/crd.ts";
import { type Crd, installCrdObjects } from "../../src/deploy/install-crds.ts";
import { createKubeClient } from "../../src/runtime/kubeClient.ts";
import {
  queueExampleNamespace,
  queueInvalidExamples,
  queueValidExamples,
} from "../../src/services/sqs/examples.ts";
import { queueCrdSource } from "../../src/services/sqs/schema.ts";
import { type Stack, startStack } from "../harness/index.ts";
import { rejection, show } from "../support/admission.ts";

type Obj = Record<string, unknown>;

const crd = buildCrd(queueCrdSource);
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
    .createNamespace({ body: { metadata: { name: queueExampleNamespace } } });
  await installCrdObjects(createKubeClient(stack.kubeConfig), [crd as unknown as Crd]);
});
after(() => stack?.stop());

function nameOf(object: Obj): string {
  return (object["metadata"] as { name: string }).name;
}

async function create(object: Obj): Promise<Obj> {
  return (await custom.createNamespacedCustomObject({
    ...where,
    namespace: queueExampleNamespace,
    body: object,
  })) as Obj;
}

async function remove(object: Obj): Promise<void> {
  await custom.deleteNamespacedCustomObject({
    ...where,
    namespace: queueExampleNamespace,
    name: nameOf(object),
  });
}

describe("the apiserver admits every valid Queue example, and stores its spec unchanged", () => {
  for (const example of queueValidExamples) {
    test(example.title, async () => {
      const created = (await create(example.object)) as { spec?: Obj };
      assert.deepEqual(created.spec, example.object["spec"]);
      await remove(example.object);
    });
  }
});

describe("the apiserver rejects each invalid Queue example at its field, with a message naming it", () => {
  for (const example of queueInvalidExamples) {
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

describe("Queue spec.queueName and spec.fifoQueue are immutable", () => {
  test("renaming or switching FIFO is rejected; changing other fields is not; status is kept", async () => {
    const original = {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "immutable-name", namespace: queueExampleNamespace },
      spec: { queueName: "orders.fifo", fifoQueue: "true" },
    };
    const stored = (await create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) =>
      custom.replaceNamespacedCustomObject({
        ...where,
        namespace: queueExampleNamespace,
        name: original.metadata.name,
        body: { ...original, metadata: stored.metadata, spec },
      });
    const renamed = await rejection(() => replace({ queueName: "orders2.fifo", fifoQueue: "true" }));
    assert.ok(
      renamed.some(
        (c) => c.field === "spec.queueName" && (c.message ?? "").includes("queueName is immutable"),
      ),
      show(renamed),
    );
    const switched = await rejection(() => replace({ queueName: "orders.fifo", fifoQueue: "false" }));
    assert.ok(
      switched.some(
        (c) => c.field === "spec.fifoQueue" && (c.message ?? "").includes("fifoQueue is immutable"),
      ),
      show(switched),
    );
    const dropped = await rejection(() => replace({ queueName: "orders.fifo" }));
    assert.ok(
      dropped.some((c) => c.field === "spec.queueName" && (c.message ?? "").includes('end with ".fifo"')),
      show(dropped),
    );
    const updated = (await replace({
      queueName: "orders.fifo",
      fifoQueue: "true",
      visibilityTimeout: "60",
      contentBasedDeduplication: "true",
    })) as { metadata: Obj; spec: Obj };
    assert.equal(updated.spec["visibilityTimeout"], "60");

    const status = {
      queueURL: "https://sqs.us-east-1.amazonaws.com/111111111111/orders.fifo",
      queueARN: "arn:aws:sqs:us-east-1:111111111111:orders.fifo",
      ackResourceMetadata: { arn: "arn:aws:sqs:us-east-1:111111111111:orders.fifo" },
    };
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...where,
      namespace: queueExampleNamespace,
      name: original.metadata.name,
      body: { ...original, metadata: updated.metadata, spec: updated.spec, status },
    })) as { status?: Obj };
    assert.deepEqual(withStatus.status, status);
  });
});
