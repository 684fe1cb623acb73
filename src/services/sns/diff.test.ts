import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { diff, lateInitialize } from "./diff.ts";
import type { TopicFields } from "./schema.ts";

const paths = (desired: TopicFields, observed: TopicFields) => diff(desired, observed).map((d) => d.path);

describe("diff", () => {
  test("nothing differs when SNS has what the spec says", () => {
    const t: TopicFields = {
      name: "o",
      displayName: "D",
      policy: '{"a":1,"b":2}',
      kmsMasterKeyID: "k",
      tags: [{ key: "team", value: "shop" }],
    };
    assert.deepEqual(paths(t, t), []);
  });
  test("displayName and kmsMasterKeyID absent mean none: an out-of-band value is drift", () => {
    assert.deepEqual(paths({ name: "o" }, { name: "o", displayName: "oob", kmsMasterKeyID: "k" }), [
      "spec.displayName",
      "spec.kmsMasterKeyID",
    ]);
    assert.deepEqual(paths({ name: "o", displayName: "" }, { name: "o" }), []);
  });
  test("policies compare as JSON documents and absent ones are SNS's (late-initialised)", () => {
    assert.deepEqual(
      paths({ name: "o", policy: '{"b":2, "a":1}' }, { name: "o", policy: '{"a":1,"b":2}' }),
      [],
    );
    assert.deepEqual(paths({ name: "o", policy: '{"a":1}' }, { name: "o", policy: '{"a":2}' }), [
      "spec.policy",
    ]);
    assert.deepEqual(paths({ name: "o" }, { name: "o", policy: '{"a":2}', deliveryPolicy: "{}" }), []);
    assert.deepEqual(paths({ name: "o", deliveryPolicy: '{"x":1}' }, { name: "o" }), ["spec.deliveryPolicy"]);
  });
  test("contentBasedDeduplication: absent is false, case does not matter", () => {
    assert.deepEqual(paths({ name: "o" }, { name: "o", contentBasedDeduplication: "false" }), []);
    assert.deepEqual(
      paths({ name: "o.fifo", fifoTopic: "true", contentBasedDeduplication: "true" }, { name: "o.fifo" }),
      ["spec.contentBasedDeduplication"],
    );
  });
  test("tags compare as a map, and ownership tags never count", () => {
    const owner = [{ key: "services.k8s.aws/owner-uid", value: "u" }];
    assert.deepEqual(
      paths(
        {
          name: "o",
          tags: [
            { key: "b", value: "2" },
            { key: "a", value: "1" },
          ],
        },
        {
          name: "o",
          tags: [{ key: "a", value: "1" }, ...owner, { key: "b", value: "2" }],
        },
      ),
      [],
    );
    assert.deepEqual(paths({ name: "o" }, { name: "o", tags: owner }), []);
    assert.deepEqual(paths({ name: "o" }, { name: "o", tags: [{ key: "oob", value: "x" }] }), ["spec.tags"]);
  });
  test("name and fifoTopic are never compared (immutable at admission)", () => {
    assert.deepEqual(paths({ name: "o", fifoTopic: "false" }, { name: "o" }), []);
  });
});

describe("lateInitialize", () => {
  test("fills policy and deliveryPolicy from SNS when the spec leaves them out", () => {
    const r = lateInitialize(
      { name: "o" },
      { name: "o", policy: "{}", deliveryPolicy: '{"h":1}', displayName: "x" },
    );
    assert.deepEqual(r.initialized, ["policy", "deliveryPolicy"]);
    assert.deepEqual(r.spec, { name: "o", policy: "{}", deliveryPolicy: '{"h":1}' });
  });
  test("keeps the spec (same object) when there is nothing to fill", () => {
    const spec = { name: "o", policy: '{"a":1}' };
    const r = lateInitialize(spec, { name: "o", policy: "{}" });
    assert.equal(r.spec, spec);
    assert.deepEqual(r.initialized, []);
  });
});
