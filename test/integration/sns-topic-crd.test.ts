// The Topic CRD generated from src/services/sns/schema.ts on a real kube-apiserver: it is
// accepted, every valid Topic example is admitted, every invalid one is rejected at its field
// (the same table schema.test.ts runs through zod), and spec.name and spec.fifoTopic cannot
// change once set.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { buildCrd } from "../../src/api/crd.ts";
import { type Crd, installCrdObjects } from "../../src/deploy/install-crds.ts";
import { createKubeClient } from "../../src/runtime/kubeClient.ts";
import {
  topicExampleNamespace,
  topicInvalidExamples,
  topicValidExamples,
} from "../../src/services/sns/examples.ts";
import { topicCrdSource } from "../../src/services/sns/schema.ts";
import { type Stack, startStack } from "../harness/index.ts";
import { rejection, show } from "../support/admission.ts";

type Obj = Record<string, unknown>;

const crd = buildCrd(topicCrdSource);
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
    .createNamespace({ body: { metadata: { name: topicExampleNamespace } } });
  await installCrdObjects(createKubeClient(stack.kubeConfig), [crd as unknown as Crd]);
});
after(() => stack?.stop());

function nameOf(object: Obj): string {
  return (object["metadata"] as { name: string }).name;
}

async function create(object: Obj): Promise<Obj> {
  return (await custom.createNamespacedCustomObject({
    ...where,
    namespace: topicExampleNamespace,
    body: object,
  })) as Obj;
}

async function remove(object: Obj): Promise<void> {
  await custom.deleteNamespacedCustomObject({
    ...where,
    namespace: topicExampleNamespace,
    name: nameOf(object),
  });
}

describe("the apiserver admits every valid Topic example, and stores its spec unchanged", () => {
  for (const example of topicValidExamples) {
    test(example.title, async () => {
      const created = (await create(example.object)) as { spec?: Obj };
      assert.deepEqual(created.spec, example.object["spec"]);
      await remove(example.object);
    });
  }
});

describe("the apiserver rejects each invalid Topic example at its field, with a message naming it", () => {
  for (const example of topicInvalidExamples) {
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

describe("Topic spec.name and spec.fifoTopic are immutable", () => {
  test("renaming or switching FIFO is rejected; changing other fields is not; status is kept", async () => {
    const original = {
      apiVersion: "sns.services.k8s.aws/v1alpha1",
      kind: "Topic",
      metadata: { name: "immutable-name", namespace: topicExampleNamespace },
      spec: { name: "orders.fifo", fifoTopic: "true" },
    };
    const stored = (await create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) =>
      custom.replaceNamespacedCustomObject({
        ...where,
        namespace: topicExampleNamespace,
        name: original.metadata.name,
        body: { ...original, metadata: stored.metadata, spec },
      });
    const renamed = await rejection(() => replace({ name: "orders2.fifo", fifoTopic: "true" }));
    assert.ok(
      renamed.some((c) => c.field === "spec.name" && (c.message ?? "").includes("name is immutable")),
      show(renamed),
    );
    const switched = await rejection(() => replace({ name: "orders.fifo", fifoTopic: "false" }));
    assert.ok(
      switched.some(
        (c) => c.field === "spec.fifoTopic" && (c.message ?? "").includes("fifoTopic is immutable"),
      ),
      show(switched),
    );
    const dropped = await rejection(() => replace({ name: "orders.fifo" }));
    assert.ok(
      dropped.some((c) => c.field === "spec.name" && (c.message ?? "").includes('end with ".fifo"')),
      show(dropped),
    );
    const updated = (await replace({
      name: "orders.fifo",
      fifoTopic: "true",
      displayName: "Orders",
      contentBasedDeduplication: "true",
    })) as { metadata: Obj; spec: Obj };
    assert.equal(updated.spec["displayName"], "Orders");

    const status = {
      owner: "111111111111",
      ackResourceMetadata: { arn: "arn:aws:sns:us-east-1:111111111111:orders.fifo" },
    };
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...where,
      namespace: topicExampleNamespace,
      name: original.metadata.name,
      body: { ...original, metadata: updated.metadata, spec: updated.spec, status },
    })) as { status?: Obj };
    assert.deepEqual(withStatus.status, status);
  });
});
