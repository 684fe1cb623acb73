// The Topic CRD generated from src/services/sns/schema.ts on a real kube-apiserver: it is
// accepted, every valid Topic example is admitted, every invalid one is rejected at its field
// (the same table schema.test.ts runs through zod), and spec.name and spec.fifoTopic cannot
// change once set.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { topicCrdSource } from "../../src/services/sns/schema.ts";
import { rejection, show } from "../support/admission.ts";
import {
  topicExampleNamespace,
  topicInvalidExamples,
  topicValidExamples,
} from "../support/examples/topic.ts";
import { kindAdmissionSuite } from "../support/kind-admission.ts";

type Obj = Record<string, unknown>;

const kind = kindAdmissionSuite({
  kind: "Topic",
  source: topicCrdSource,
  namespace: topicExampleNamespace,
  valid: topicValidExamples,
  invalid: topicInvalidExamples,
});

describe("Topic spec.name and spec.fifoTopic are immutable", () => {
  test("renaming or switching FIFO is rejected; changing other fields is not; status is kept", async () => {
    const original = {
      apiVersion: "sns.services.k8s.aws/v1alpha1",
      kind: "Topic",
      metadata: { name: "immutable-name", namespace: topicExampleNamespace },
      spec: { name: "orders.fifo", fifoTopic: "true" },
    };
    const stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) => kind.replace(original, stored.metadata, spec);
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
    const withStatus = (await kind.replaceStatus(original, updated.metadata, updated.spec, status)) as {
      status?: Obj;
    };
    assert.deepEqual(withStatus.status, status);
  });
});
