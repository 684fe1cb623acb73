import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { queueInvalidExamples, queueValidExamples } from "../../../test/support/examples/queue.ts";
import { buildCrd } from "../../api/crd.ts";
import { ownershipTagKeys } from "../../api/ownership-tags.ts";
import { reservedTagMapKeysRule } from "../../api/reserved-tag-keys.ts";
import { describeIssues } from "../../api/rules.ts";
import { structuralProblems } from "../../api/structural.ts";
import { maxQueueTags, queueCrdSource, queueSchema, queueSpecSchema } from "./schema.ts";

/** A spec as an ACK user writes it (field names and string values from ACK's sqs-controller CRD). */
const ackSpec = {
  queueName: "shop-orders.fifo",
  delaySeconds: "0",
  maximumMessageSize: "262144",
  messageRetentionPeriod: "345600",
  receiveMessageWaitTimeSeconds: "0",
  visibilityTimeout: "30",
  policy: '{"Version":"2012-10-17","Statement":[]}',
  redrivePolicy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:111111111111:dlq.fifo","maxReceiveCount":5}',
  fifoQueue: "true",
  contentBasedDeduplication: "true",
  kmsMasterKeyID: "alias/aws/sqs",
  kmsDataKeyReusePeriodSeconds: "300",
  tags: { team: "shop" },
  identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
};

function problems(spec: unknown): string[] {
  const result = queueSpecSchema.safeParse(spec);
  return result.success ? [] : describeIssues(result.error, ["spec"]);
}

describe("queueSpecSchema", () => {
  test("accepts an ACK manifest's spec with every managed field and an identityRef", () => {
    assert.deepEqual(problems(ackSpec), []);
  });

  test("requires only the queueName", () => {
    assert.deepEqual(problems({ queueName: "a" }), []);
    assert.deepEqual(problems({}), ["spec.queueName: queueName is required"]);
  });

  for (const [name, why] of [
    ["", "1-80 characters"],
    ["q".repeat(81), "1-80 characters"],
    [`${"q".repeat(76)}.fifo`, "1-80 characters"],
    ["shop orders", "ASCII letters"],
    ["shop.orders", "ASCII letters"],
    ["shöp", "ASCII letters"],
  ] as const) {
    test(`rejects the queue name ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}...` : name)} (${why})`, () => {
      const found = problems({ queueName: name, ...(name.endsWith(".fifo") ? { fifoQueue: "true" } : {}) });
      assert.ok(
        found.some((p) => p.startsWith("spec.queueName: ") && p.includes(why)),
        found.join("\n"),
      );
    });
  }

  test('a .fifo suffix exactly when fifoQueue is "true"', () => {
    assert.deepEqual(problems({ queueName: "orders.fifo", fifoQueue: "true" }), []);
    assert.deepEqual(problems({ queueName: `${"q".repeat(75)}.fifo`, fifoQueue: "true" }), []);
    assert.deepEqual(problems({ queueName: "orders", fifoQueue: "false" }), []);
    for (const spec of [
      { queueName: "orders", fifoQueue: "true" },
      { queueName: "orders.fifo" },
      { queueName: "orders.fifo", fifoQueue: "false" },
    ]) {
      assert.ok(
        problems(spec).some((p) => p.startsWith("spec.queueName: ") && p.includes(".fifo")),
        JSON.stringify(spec),
      );
    }
  });

  test("numbers are ACK's strings, within SQS's limits", () => {
    const cases: [string, string, string][] = [
      ["delaySeconds", "0", "901"],
      ["maximumMessageSize", "1048576", "1023"],
      ["messageRetentionPeriod", "60", "59"],
      ["receiveMessageWaitTimeSeconds", "20", "21"],
      ["visibilityTimeout", "43200", "43201"],
      ["kmsDataKeyReusePeriodSeconds", "86400", "59"],
    ];
    for (const [field, ok, bad] of cases) {
      assert.deepEqual(problems({ queueName: "o", [field]: ok }), [], field);
      for (const value of [bad, "-1", "1.5", "30s", "", 30]) {
        assert.ok(
          problems({ queueName: "o", [field]: value }).some((p) =>
            p.startsWith(`spec.${field}: ${field} must`),
          ),
          `${field}=${JSON.stringify(value)}`,
        );
      }
    }
  });

  test("fifoQueue, contentBasedDeduplication and sqsManagedSSEEnabled are ACK's string booleans", () => {
    for (const field of ["fifoQueue", "contentBasedDeduplication", "sqsManagedSSEEnabled"]) {
      assert.ok(
        problems({ queueName: "o.fifo", fifoQueue: "true", [field]: true }).some((p) =>
          p.startsWith(`spec.${field}: `),
        ),
        field,
      );
    }
  });

  test("contentBasedDeduplication only on a FIFO queue; SSE-SQS and a KMS key not together", () => {
    assert.ok(
      problems({ queueName: "o", contentBasedDeduplication: "false" }).some((p) =>
        p.startsWith("spec.contentBasedDeduplication: "),
      ),
    );
    assert.deepEqual(problems({ queueName: "o", kmsMasterKeyID: "k", sqsManagedSSEEnabled: "false" }), []);
    assert.ok(
      problems({ queueName: "o", kmsMasterKeyID: "k", sqsManagedSSEEnabled: "true" }).some((p) =>
        p.startsWith("spec.sqsManagedSSEEnabled: "),
      ),
    );
  });

  test("policy and redrivePolicy must be JSON documents, not empty", () => {
    for (const field of ["policy", "redrivePolicy"]) {
      assert.deepEqual(problems({ queueName: "o", [field]: '{"a":1}' }), []);
      assert.ok(problems({ queueName: "o", [field]: "" }).some((p) => p.startsWith(`spec.${field}: `)));
      assert.ok(problems({ queueName: "o", [field]: "[1]" }).some((p) => p.includes("JSON document")));
      assert.ok(problems({ queueName: "o", [field]: "{nope" }).some((p) => p.includes("JSON document")));
    }
  });

  test("tags: a map; no reserved aws: or ownership keys; no more than SQS leaves beside ownership", () => {
    const tags = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    assert.deepEqual(problems({ queueName: "o", tags: tags(maxQueueTags) }), []);
    assert.ok(
      problems({ queueName: "o", tags: tags(maxQueueTags + 1) }).some((p) => p.includes("at most 46 tags")),
    );
    for (const key of [...Object.values(ownershipTagKeys), "crossrole.dev/anything"]) {
      assert.ok(
        problems({ queueName: "o", tags: { [key]: "x" } }).some((p) => p.includes(`"${key}" is reserved`)),
        key,
      );
    }
    assert.ok(problems({ queueName: "o", tags: { "aws:x": "x" } }).some((p) => p.includes("aws:")));
    assert.ok(
      problems({ queueName: "o", tags: { ["k".repeat(129)]: "x" } }).some((p) => p.includes("1-128")),
    );
    assert.ok(problems({ queueName: "o", tags: { k: "v".repeat(257) } }).some((p) => p.includes("256")));
  });

  test("the CEL rule on tag keys is the one every kind's tags use (src/api/reserved-tag-keys.ts)", () => {
    const crd = buildCrd(queueCrdSource);
    const tags = crd.spec.versions[0]?.schema.openAPIV3Schema.properties?.["spec"]?.properties?.["tags"];
    const shared = reservedTagMapKeysRule("tags");
    const rule = (tags?.["x-kubernetes-validations"] ?? []).find((r) => r.rule === shared.cel);
    assert.equal(rule?.messageExpression, shared.messageOf?.cel);
  });
});

describe("queueCrdSource", () => {
  const crd = buildCrd(queueCrdSource);
  const version = crd.spec.versions[0]!;
  const schema = version.schema.openAPIV3Schema;
  const spec = schema.properties?.["spec"];

  test("is ACK's group, version, kind and plural, namespaced, with a status subresource", () => {
    assert.equal(crd.metadata.name, "queues.sqs.services.k8s.aws");
    assert.equal(crd.spec.group, "sqs.services.k8s.aws");
    assert.equal(version.name, "v1alpha1");
    assert.deepEqual([crd.spec.names.kind, crd.spec.names.plural], ["Queue", "queues"]);
    assert.equal(crd.spec.scope, "Namespaced");
    assert.deepEqual(version.subresources, { status: {} });
  });

  test("is a structural schema the apiserver accepts", () => {
    assert.deepEqual(structuralProblems(schema), []);
  });

  test("has ACK's spec field names and types, requires queueName, makes queueName and fifoQueue immutable", () => {
    const fields = [
      "contentBasedDeduplication",
      "deduplicationScope",
      "delaySeconds",
      "fifoQueue",
      "fifoThroughputLimit",
      "identityRef",
      "kmsDataKeyReusePeriodSeconds",
      "kmsMasterKeyID",
      "kmsMasterKeyRef",
      "maximumMessageSize",
      "messageRetentionPeriod",
      "policy",
      "policyRef",
      "queueName",
      "receiveMessageWaitTimeSeconds",
      "redriveAllowPolicy",
      "redrivePolicy",
      "sqsManagedSSEEnabled",
      "tags",
      "visibilityTimeout",
    ];
    assert.deepEqual(Object.keys(spec?.properties ?? {}).sort(), fields);
    const objects = ["identityRef", "tags", "kmsMasterKeyRef", "policyRef"];
    for (const field of fields.filter((f) => !objects.includes(f))) {
      assert.equal(spec?.properties?.[field]?.type, "string", field);
      assert.ok((spec?.properties?.[field]?.description ?? "").length > 20, `${field} has AWS's description`);
    }
    assert.equal(spec?.properties?.["tags"]?.type, "object");
    assert.deepEqual(spec?.properties?.["tags"]?.additionalProperties, { type: "string", maxLength: 256 });
    assert.deepEqual(spec?.required, ["queueName"]);
    for (const field of ["queueName", "fifoQueue"]) {
      const rules = spec?.properties?.[field]?.["x-kubernetes-validations"] ?? [];
      assert.ok(
        rules.some((r) => r.rule === "self == oldSelf" && r.message.startsWith(`${field} is immutable`)),
        field,
      );
    }
  });

  test("declares ACK's status fields plus queueARN, and shows account, region and readiness", () => {
    const status = schema.properties?.["status"]?.properties ?? {};
    for (const field of ["ackResourceMetadata", "conditions", "queueURL", "queueARN"])
      assert.ok(status[field] !== undefined, field);
    const columns = (version.additionalPrinterColumns ?? []).map((c) => c.name);
    for (const name of ["Account", "Region", "Synced", "Ready", "Age"])
      assert.ok(columns.includes(name), name);
  });
});

describe("the Queue examples through zod (the admission test runs them through the apiserver)", () => {
  for (const example of queueValidExamples) {
    test(`valid: ${example.title}`, () => {
      const result = queueSchema.safeParse(example.object);
      assert.ok(result.success, result.success ? "" : describeIssues(result.error).join("\n"));
    });
  }
  for (const example of queueInvalidExamples) {
    test(`invalid: ${example.title}`, () => {
      const result = queueSchema.safeParse(example.object);
      const lines = result.success ? [] : describeIssues(result.error);
      assert.ok(
        lines.some((line) => line.startsWith(`${example.field}: `) && line.includes(example.message)),
        `expected "${example.field}: …${example.message}…" among:\n${lines.join("\n")}`,
      );
    });
  }
});
