import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { topicInvalidExamples, topicValidExamples } from "../../../test/support/examples/topic.ts";
import { buildCrd } from "../../api/crd.ts";
import { describeIssues } from "../../api/rules.ts";
import { structuralProblems } from "../../api/structural.ts";
import { maxTopicTags, topicCrdSource, topicSchema, topicSpecSchema } from "./schema.ts";

/** A spec as an ACK user writes it (field names and string booleans from ACK's sns-controller CRD). */
const ackSpec = {
  name: "shop-orders.fifo",
  displayName: "Shop orders",
  policy: '{"Version":"2012-10-17","Statement":[]}',
  deliveryPolicy: '{"http":{"defaultHealthyRetryPolicy":{"numRetries":3}}}',
  fifoTopic: "true",
  contentBasedDeduplication: "true",
  kmsMasterKeyID: "alias/aws/sns",
  tags: [{ key: "team", value: "shop" }],
  identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
};

function problems(spec: unknown): string[] {
  const result = topicSpecSchema.safeParse(spec);
  return result.success ? [] : describeIssues(result.error, ["spec"]);
}

describe("topicSpecSchema", () => {
  test("accepts an ACK manifest's spec with every managed field and an identityRef", () => {
    assert.deepEqual(problems(ackSpec), []);
  });

  test("requires only the name", () => {
    assert.deepEqual(problems({ name: "a" }), []);
    assert.deepEqual(problems({}), ["spec.name: name is required"]);
  });

  for (const [name, why] of [
    ["", "1-256 characters"],
    ["a".repeat(257), "1-256 characters"],
    ["shop orders", "ASCII letters"],
    ["shop.orders", "ASCII letters"],
    ["shöp", "ASCII letters"],
  ] as const) {
    test(`rejects the topic name ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}...` : name)} (${why})`, () => {
      const found = problems({ name });
      assert.ok(
        found.some((p) => p.startsWith("spec.name: ") && p.includes(why)),
        found.join("\n"),
      );
    });
  }

  test('a .fifo suffix exactly when fifoTopic is "true"', () => {
    assert.deepEqual(problems({ name: "orders.fifo", fifoTopic: "true" }), []);
    assert.deepEqual(problems({ name: "orders", fifoTopic: "false" }), []);
    for (const spec of [
      { name: "orders", fifoTopic: "true" },
      { name: "orders.fifo" },
      { name: "orders.fifo", fifoTopic: "false" },
    ]) {
      assert.ok(
        problems(spec).some((p) => p.startsWith("spec.name: ") && p.includes(".fifo")),
        JSON.stringify(spec),
      );
    }
  });

  test("fifoTopic and contentBasedDeduplication are ACK's string booleans", () => {
    assert.ok(problems({ name: "o.fifo", fifoTopic: true }).some((p) => p.startsWith("spec.fifoTopic: ")));
    assert.ok(problems({ name: "o", fifoTopic: "yes" }).some((p) => p.startsWith("spec.fifoTopic: ")));
    assert.ok(
      problems({ name: "o.fifo", fifoTopic: "true", contentBasedDeduplication: false }).some((p) =>
        p.startsWith("spec.contentBasedDeduplication: "),
      ),
    );
  });

  test('contentBasedDeduplication "true" only on a FIFO topic', () => {
    assert.deepEqual(problems({ name: "o", contentBasedDeduplication: "false" }), []);
    assert.ok(
      problems({ name: "o", contentBasedDeduplication: "true" }).some((p) =>
        p.startsWith("spec.contentBasedDeduplication: "),
      ),
    );
  });

  test("policy and deliveryPolicy must be JSON documents, not empty", () => {
    for (const field of ["policy", "deliveryPolicy"]) {
      assert.deepEqual(problems({ name: "o", [field]: '{"a":1}' }), []);
      assert.ok(problems({ name: "o", [field]: "" }).some((p) => p.startsWith(`spec.${field}: `)));
      assert.ok(problems({ name: "o", [field]: "[1]" }).some((p) => p.includes("JSON document")));
      assert.ok(problems({ name: "o", [field]: "{nope" }).some((p) => p.includes("JSON document")));
    }
  });

  test("rejects repeated tag keys, reserved aws: and ownership keys, and more tags than SNS leaves beside ownership", () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: "v" }));
    assert.deepEqual(problems({ name: "o", tags: tags(maxTopicTags) }), []);
    assert.ok(
      problems({ name: "o", tags: tags(maxTopicTags + 1) }).some((p) => p.includes("at most 46 tags")),
    );
    for (const key of ["crossrole.dev/owner", "crossrole.dev/anything", "services.k8s.aws/namespace"]) {
      assert.ok(
        problems({ name: "o", tags: [{ key, value: "x" }] }).some((p) => p.includes(`"${key}" is reserved`)),
        key,
      );
    }
    assert.ok(problems({ name: "o", tags: [{ key: "aws:x", value: "x" }] }).some((p) => p.includes("aws:")));
    assert.ok(
      problems({
        name: "o",
        tags: [
          { key: "a", value: "1" },
          { key: "a", value: "2" },
        ],
      }).some((p) => p.includes("repeat a key")),
    );
  });
});

describe("topicCrdSource", () => {
  const crd = buildCrd(topicCrdSource);
  const version = crd.spec.versions[0]!;
  const schema = version.schema.openAPIV3Schema;
  const spec = schema.properties?.["spec"];

  test("is ACK's group, version, kind and plural, namespaced, with a status subresource", () => {
    assert.equal(crd.metadata.name, "topics.sns.services.k8s.aws");
    assert.equal(crd.spec.group, "sns.services.k8s.aws");
    assert.equal(version.name, "v1alpha1");
    assert.deepEqual([crd.spec.names.kind, crd.spec.names.plural], ["Topic", "topics"]);
    assert.equal(crd.spec.scope, "Namespaced");
    assert.deepEqual(version.subresources, { status: {} });
  });

  test("is a structural schema the apiserver accepts", () => {
    assert.deepEqual(structuralProblems(schema), []);
  });

  test("has ACK's spec field names, requires name, and makes name and fifoTopic immutable", () => {
    // Exactly ACK's top-level fields (its CRD, test/fixtures/ack-crd-paths), plus identityRef.
    const ack = JSON.parse(
      readFileSync(
        join(import.meta.dirname, "../../../test/fixtures/ack-crd-paths/sns.services.k8s.aws_topics.json"),
        "utf8",
      ),
    ).paths as Record<string, string>;
    const ackFields = Object.keys(ack).flatMap((p) => /^spec\.([^.[{]+)$/.exec(p)?.slice(1) ?? []);
    assert.deepEqual(Object.keys(spec?.properties ?? {}).sort(), [...ackFields, "identityRef"].sort());
    for (const [field, schema] of Object.entries(spec?.properties ?? {})) {
      assert.ok((schema.description ?? "").length > 20, `${field} has a description`);
    }
    assert.deepEqual(spec?.required, ["name"]);
    for (const field of ["name", "fifoTopic"]) {
      const rules = spec?.properties?.[field]?.["x-kubernetes-validations"] ?? [];
      assert.ok(
        rules.some((r) => r.rule === "self == oldSelf" && r.message.startsWith(`${field} is immutable`)),
        field,
      );
    }
    assert.deepEqual(Object.keys(spec?.properties?.["tags"]?.items?.properties ?? {}).sort(), [
      "key",
      "value",
    ]);
  });

  test("declares ACK's status fields and shows account, region and readiness", () => {
    const status = schema.properties?.["status"]?.properties ?? {};
    for (const field of ["ackResourceMetadata", "conditions", "effectiveDeliveryPolicy", "owner"])
      assert.ok(status[field] !== undefined, field);
    const columns = (version.additionalPrinterColumns ?? []).map((c) => c.name);
    for (const name of ["Account", "Region", "Synced", "Ready", "Age"])
      assert.ok(columns.includes(name), name);
  });
});

describe("the Topic examples through zod (the admission test runs them through the apiserver)", () => {
  for (const example of topicValidExamples) {
    test(`valid: ${example.title}`, () => {
      const result = topicSchema.safeParse(example.object);
      assert.ok(result.success, result.success ? "" : describeIssues(result.error).join("\n"));
    });
  }
  for (const example of topicInvalidExamples) {
    test(`invalid: ${example.title}`, () => {
      const result = topicSchema.safeParse(example.object);
      const lines = result.success ? [] : describeIssues(result.error);
      assert.ok(
        lines.some((line) => line.startsWith(`${example.field}: `) && line.includes(example.message)),
        `expected "${example.field}: …${example.message}…" among:\n${lines.join("\n")}`,
      );
    });
  }
});
