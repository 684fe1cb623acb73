// The Queue CRD generated from src/services/sqs/schema.ts on a real kube-apiserver: it is
// accepted, every valid Queue example is admitted, every invalid one is rejected at its field
// (the same table schema.test.ts runs through zod), and spec.queueName and spec.fifoQueue cannot
// change once set.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { queueCrdSource } from "../../src/services/sqs/schema.ts";
import { rejection, show } from "../support/admission.ts";
import {
  queueExampleNamespace,
  queueInvalidExamples,
  queueValidExamples,
} from "../support/examples/queue.ts";
import { kindAdmissionSuite } from "../support/kind-admission.ts";

type Obj = Record<string, unknown>;

const kind = kindAdmissionSuite({
  kind: "Queue",
  source: queueCrdSource,
  namespace: queueExampleNamespace,
  valid: queueValidExamples,
  invalid: queueInvalidExamples,
});

describe("Queue spec.queueName and spec.fifoQueue are immutable", () => {
  test("renaming or switching FIFO is rejected; changing other fields is not; status is kept", async () => {
    const original = {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "immutable-name", namespace: queueExampleNamespace },
      spec: { queueName: "orders.fifo", fifoQueue: "true" },
    };
    const stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) => kind.replace(original, stored.metadata, spec);
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
    const withStatus = (await kind.replaceStatus(original, updated.metadata, updated.spec, status)) as {
      status?: Obj;
    };
    assert.deepEqual(withStatus.status, status);
  });
});
