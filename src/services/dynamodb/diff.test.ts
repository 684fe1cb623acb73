import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { diff, gsiChanges, lateInitialize } from "./diff.ts";
import type { TableFields } from "./schema.ts";

const base: TableFields = {
  tableName: "orders",
  attributeDefinitions: [
    { attributeName: "id", attributeType: "S" },
    { attributeName: "s", attributeType: "S" },
  ],
  keySchema: [{ attributeName: "id", keyType: "HASH" }],
  billingMode: "PROVISIONED",
  provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
  deletionProtectionEnabled: false,
};
const paths = (d: TableFields, o: TableFields) => diff(d, o).map((x) => x.path);
const gsi = (name: string, r = 1) => ({
  indexName: name,
  keySchema: [{ attributeName: "s", keyType: "HASH" as const }],
  projection: { projectionType: "ALL" as const },
  provisionedThroughput: { readCapacityUnits: r, writeCapacityUnits: 1 },
});

describe("diff", () => {
  test("nothing differs when AWS has the spec", () => {
    assert.deepEqual(paths(base, base), []);
  });
  test("throughput and billing mode", () => {
    assert.deepEqual(
      paths(base, { ...base, provisionedThroughput: { readCapacityUnits: 1, writeCapacityUnits: 5 } }),
      ["spec.provisionedThroughput"],
    );
    const { provisionedThroughput: _p, ...onDemand } = base;
    assert.deepEqual(paths({ ...onDemand, billingMode: "PAY_PER_REQUEST" }, base), ["spec.billingMode"]);
    // absent billingMode is PROVISIONED
    const { billingMode: _b, ...noMode } = base;
    assert.deepEqual(paths(noMode, base), []);
  });
  test("streams and TTL: absent means disabled; out-of-band enabling is drift", () => {
    assert.deepEqual(paths(base, { ...base, streamSpecification: { streamEnabled: false } }), []);
    assert.deepEqual(
      paths(base, { ...base, streamSpecification: { streamEnabled: true, streamViewType: "KEYS_ONLY" } }),
      ["spec.streamSpecification"],
    );
    assert.deepEqual(paths({ ...base, timeToLive: { attributeName: "exp", enabled: true } }, base), [
      "spec.timeToLive",
    ]);
    assert.deepEqual(paths({ ...base, timeToLive: { attributeName: "exp", enabled: false } }, base), []);
  });
  test("tags compare as a map without ownership tags; sse and tableClass only when set", () => {
    assert.deepEqual(
      paths(
        { ...base, tags: [{ key: "a", value: "1" }] },
        {
          ...base,
          tags: [
            { key: "crossrole.dev/owner-uid", value: "u" },
            { key: "a", value: "1" },
          ],
        },
      ),
      [],
    );
    assert.deepEqual(paths(base, { ...base, tags: [{ key: "x", value: "1" }] }), ["spec.tags"]);
    assert.deepEqual(
      paths(base, { ...base, sseSpecification: { enabled: true }, tableClass: "STANDARD_INFREQUENT_ACCESS" }),
      [],
    );
    assert.deepEqual(paths({ ...base, deletionProtectionEnabled: true }, base), [
      "spec.deletionProtectionEnabled",
    ]);
  });
  test("index changes: delete removed or reshaped, create new, update throughput", () => {
    assert.deepEqual(gsiChanges({ ...base, globalSecondaryIndexes: [gsi("a")] }, base), [
      { op: "create", index: gsi("a") },
    ]);
    assert.deepEqual(gsiChanges(base, { ...base, globalSecondaryIndexes: [gsi("a")] }), [
      { op: "delete", indexName: "a" },
    ]);
    assert.deepEqual(
      gsiChanges(
        { ...base, globalSecondaryIndexes: [gsi("a", 2)] },
        { ...base, globalSecondaryIndexes: [gsi("a")] },
      ),
      [{ op: "update", index: gsi("a", 2) }],
    );
    const reshaped = { ...gsi("a"), projection: { projectionType: "KEYS_ONLY" as const } };
    assert.deepEqual(
      gsiChanges(
        { ...base, globalSecondaryIndexes: [reshaped] },
        { ...base, globalSecondaryIndexes: [gsi("a")] },
      ).map((c) => c.op),
      ["delete", "create"],
    );
  });
});

describe("lateInitialize", () => {
  test("fills billingMode PROVISIONED (with throughput) and deletionProtectionEnabled from AWS", () => {
    const { billingMode: _b, deletionProtectionEnabled: _d, ...spec } = base;
    const r = lateInitialize<TableFields>(spec, { ...base, deletionProtectionEnabled: true });
    assert.deepEqual(r.initialized, ["billingMode", "deletionProtectionEnabled"]);
    assert.equal(r.spec.billingMode, "PROVISIONED");
    assert.equal(r.spec.deletionProtectionEnabled, true);
    assert.equal(lateInitialize(base, base).spec, base);
  });
});
