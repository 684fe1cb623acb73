import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { diff, lateInitialize } from "./diff.ts";
import type { QueueFields } from "./schema.ts";

const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };

/** What SQS reports for a new standard queue (moto's and AWS's defaults). */
const fresh: QueueFields = {
  queueName: "o",
  delaySeconds: "0",
  maximumMessageSize: "262144",
  messageRetentionPeriod: "345600",
  receiveMessageWaitTimeSeconds: "0",
  visibilityTimeout: "30",
  sqsManagedSSEEnabled: "true",
  tags: owner,
};

const paths = (desired: QueueFields, observed: QueueFields) => diff(desired, observed).map((d) => d.path);

describe("diff", () => {
  test("a spec with only the name matches a fresh queue: defaults and ownership tags are not drift", () => {
    assert.deepEqual(paths({ queueName: "o" }, fresh), []);
  });

  test("a managed number that differs is drift; '030' and '30' are the same", () => {
    assert.deepEqual(paths({ queueName: "o", visibilityTimeout: "60" }, fresh), ["spec.visibilityTimeout"]);
    assert.deepEqual(paths({ queueName: "o", visibilityTimeout: "030" }, fresh), []);
    assert.deepEqual(
      paths(
        { queueName: "o", delaySeconds: "5", messageRetentionPeriod: "60", sqsManagedSSEEnabled: "false" },
        fresh,
      ),
      ["spec.delaySeconds", "spec.messageRetentionPeriod", "spec.sqsManagedSSEEnabled"],
    );
  });

  test("policy and redrivePolicy compare as JSON; absent means none, so one added out of band is drift", () => {
    const policy = '{"Version":"2012-10-17","Statement":[]}';
    assert.deepEqual(
      paths({ queueName: "o", policy }, { ...fresh, policy: '{ "Statement": [], "Version": "2012-10-17" }' }),
      [],
    );
    assert.deepEqual(paths({ queueName: "o" }, { ...fresh, policy }), ["spec.policy"]);
    assert.deepEqual(
      paths(
        { queueName: "o", redrivePolicy: '{"deadLetterTargetArn":"arn:x","maxReceiveCount":"5"}' },
        { ...fresh, redrivePolicy: '{"maxReceiveCount":5,"deadLetterTargetArn":"arn:x"}' },
      ),
      [],
    );
    assert.deepEqual(paths({ queueName: "o", redrivePolicy: '{"maxReceiveCount":5}' }, fresh), [
      "spec.redrivePolicy",
    ]);
  });

  test("kmsMasterKeyID absent means none", () => {
    assert.deepEqual(paths({ queueName: "o" }, { ...fresh, kmsMasterKeyID: "alias/k" }), [
      "spec.kmsMasterKeyID",
    ]);
    assert.deepEqual(
      paths({ queueName: "o", kmsMasterKeyID: "alias/k" }, { ...fresh, kmsMasterKeyID: "alias/k" }),
      [],
    );
  });

  test("contentBasedDeduplication is compared on FIFO queues only, absent meaning false", () => {
    const fifo = {
      ...fresh,
      queueName: "o.fifo",
      fifoQueue: "true" as const,
      contentBasedDeduplication: "true" as const,
    };
    assert.deepEqual(paths({ queueName: "o.fifo", fifoQueue: "true" }, fifo), [
      "spec.contentBasedDeduplication",
    ]);
    assert.deepEqual(
      paths({ queueName: "o.fifo", fifoQueue: "true", contentBasedDeduplication: "true" }, fifo),
      [],
    );
    assert.deepEqual(paths({ queueName: "o" }, fresh), []);
  });

  test("user tags are compared as a map; ownership tags never count", () => {
    assert.deepEqual(
      paths({ queueName: "o", tags: { a: "1" } }, { ...fresh, tags: { ...owner, a: "1" } }),
      [],
    );
    assert.deepEqual(paths({ queueName: "o", tags: { a: "1" } }, fresh), ["spec.tags"]);
    assert.deepEqual(paths({ queueName: "o" }, { ...fresh, tags: { ...owner, extra: "x" } }), ["spec.tags"]);
    assert.deepEqual(paths({ queueName: "o", tags: { a: "2" } }, { ...fresh, tags: { a: "1" } }), [
      "spec.tags",
    ]);
  });

  test("queueName and fifoQueue are never compared (immutable at admission)", () => {
    assert.deepEqual(paths({ queueName: "o", fifoQueue: "false" }, { ...fresh, fifoQueue: "true" }), []);
  });
});

describe("lateInitialize", () => {
  test("fills the defaults the user left out with what SQS reports", () => {
    const r = lateInitialize<QueueFields>({ queueName: "o", visibilityTimeout: "60" }, fresh);
    assert.deepEqual(r.initialized, [
      "delaySeconds",
      "maximumMessageSize",
      "messageRetentionPeriod",
      "receiveMessageWaitTimeSeconds",
      "sqsManagedSSEEnabled",
    ]);
    assert.deepEqual(r.spec, {
      queueName: "o",
      visibilityTimeout: "60",
      delaySeconds: "0",
      maximumMessageSize: "262144",
      messageRetentionPeriod: "345600",
      receiveMessageWaitTimeSeconds: "0",
      sqsManagedSSEEnabled: "true",
    });
    assert.deepEqual(paths(r.spec, fresh), ["spec.visibilityTimeout"]);
  });
  test("never fills policy, tags or the KMS key; returns the same spec when nothing is missing", () => {
    const full = lateInitialize({ queueName: "o" }, fresh).spec;
    const again = lateInitialize(full, { ...fresh, policy: "{}", kmsMasterKeyID: "k" });
    assert.equal(again.spec, full);
    assert.deepEqual(again.initialized, []);
  });
});
