// The Table module's drift by DynamoDB's rules (the declaration's, and the kind's compare hooks)
// and its late initialisation. Pure.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { TableFields } from "./schema.ts";
import { gsiChanges, replicaChanges, tableService } from "./table.ts";

// The module's drift and late initialisation, in the shapes this test was first written against.
const observed = (fields: TableFields) => ({ fields, tags: {}, status: {}, arn: "" });
const diff = (desired: TableFields, have: TableFields) =>
  tableService.diff(desired, observed(have)).map((path) => ({ path }));
function lateInitialize<Spec extends TableFields>(spec: Spec, have: TableFields) {
  const r = tableService.lateInitialize(spec, observed(have));
  return { spec: r.spec as Spec, initialized: r.initialized.map((p) => p.slice("spec.".length)) };
}

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
            { key: "services.k8s.aws/owner-uid", value: "u" },
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

const { provisionedThroughput: _t, ...unprovisioned } = base;
const onDemand: TableFields = { ...unprovisioned, billingMode: "PAY_PER_REQUEST" };
const onDemandGsi = (name: string, max?: number) => ({
  indexName: name,
  keySchema: [{ attributeName: "s", keyType: "HASH" as const }],
  projection: { projectionType: "ALL" as const },
  ...(max === undefined ? {} : { onDemandThroughput: { maxReadRequestUnits: max } }),
});

describe("diff of the fields added for ACK parity", () => {
  test("onDemandThroughput: a side left out is no maximum; compared on on-demand tables only", () => {
    const limited = { ...onDemand, onDemandThroughput: { maxReadRequestUnits: 10 } };
    assert.deepEqual(paths(limited, limited), []);
    assert.deepEqual(paths(limited, onDemand), ["spec.onDemandThroughput"]);
    assert.deepEqual(
      paths(onDemand, limited),
      ["spec.onDemandThroughput"],
      "an out-of-band maximum is drift",
    );
    assert.deepEqual(
      paths(limited, {
        ...onDemand,
        onDemandThroughput: { maxReadRequestUnits: 10, maxWriteRequestUnits: 5 },
      }),
      ["spec.onDemandThroughput"],
    );
    assert.deepEqual(paths(base, { ...base, onDemandThroughput: { maxReadRequestUnits: 1 } }), []);
  });
  test("an index's on-demand maximum is an index update", () => {
    assert.deepEqual(
      gsiChanges(
        { ...onDemand, globalSecondaryIndexes: [onDemandGsi("a", 50)] },
        { ...onDemand, globalSecondaryIndexes: [onDemandGsi("a")] },
      ),
      [{ op: "update", index: onDemandGsi("a", 50) }],
    );
    assert.deepEqual(
      gsiChanges(
        { ...onDemand, globalSecondaryIndexes: [onDemandGsi("a")] },
        { ...onDemand, globalSecondaryIndexes: [onDemandGsi("a", 50)] },
      ).map((c) => c.op),
      ["update"],
      "removing the maximum is an update too",
    );
  });
  test("continuousBackups: absent is off; the recovery period only when the spec sets it", () => {
    const on = { ...base, continuousBackups: { pointInTimeRecoveryEnabled: true } };
    assert.deepEqual(paths(base, { ...base, continuousBackups: { pointInTimeRecoveryEnabled: false } }), []);
    assert.deepEqual(paths(on, base), ["spec.continuousBackups"]);
    assert.deepEqual(paths(base, on), ["spec.continuousBackups"], "out-of-band enabling is drift");
    const observed = {
      ...base,
      continuousBackups: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 35 },
    };
    assert.deepEqual(paths(on, observed), []);
    assert.deepEqual(
      paths(
        { ...base, continuousBackups: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 } },
        observed,
      ),
      ["spec.continuousBackups"],
    );
  });
  test("contributorInsights: ACK's two spellings are one; absent is not managed", () => {
    assert.deepEqual(
      paths({ ...base, contributorInsights: "ENABLE" }, { ...base, contributorInsights: "ENABLED" }),
      [],
    );
    assert.deepEqual(
      paths({ ...base, contributorInsights: "ENABLED" }, { ...base, contributorInsights: "DISABLED" }),
      ["spec.contributorInsights"],
    );
    assert.deepEqual(paths({ ...base, contributorInsights: "DISABLE" }, base), []);
    assert.deepEqual(paths(base, { ...base, contributorInsights: "ENABLED" }), []);
  });
  test("resourcePolicy compares as a JSON document; removal is drift", () => {
    const policy = '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem"}]}';
    const spaced =
      '{ "Statement": [ { "Action": "dynamodb:GetItem", "Effect": "Allow" } ], "Version": "2012-10-17" }';
    assert.deepEqual(paths({ ...base, resourcePolicy: policy }, { ...base, resourcePolicy: spaced }), []);
    assert.deepEqual(paths(base, { ...base, resourcePolicy: policy }), ["spec.resourcePolicy"]);
    assert.deepEqual(paths({ ...base, resourcePolicy: policy }, base), ["spec.resourcePolicy"]);
  });
  test("replicas: by Region, one change each; only the overrides the spec sets are compared", () => {
    const withReplicas = (...replicas: TableFields["tableReplicas"] & object) => ({
      ...onDemand,
      tableReplicas: replicas,
    });
    assert.deepEqual(
      replicaChanges(
        withReplicas({ regionName: "eu-west-1" }, { regionName: "us-west-2" }),
        withReplicas({ regionName: "ap-south-1" }, { regionName: "eu-west-1" }),
      ),
      [
        { op: "delete", regionName: "ap-south-1" },
        { op: "create", replica: { regionName: "us-west-2" } },
      ],
    );
    const reported = {
      regionName: "eu-west-1",
      kmsMasterKeyID: "arn:aws:kms:eu-west-1:111111111111:key/k",
      tableClassOverride: "STANDARD" as const,
      onDemandThroughputOverride: { maxReadRequestUnits: 5 },
    };
    assert.deepEqual(replicaChanges(withReplicas({ regionName: "eu-west-1" }), withReplicas(reported)), []);
    assert.deepEqual(
      replicaChanges(
        withReplicas({ regionName: "eu-west-1", kmsMasterKeyID: "alias/replica" }),
        withReplicas(reported),
      ),
      [],
      "a key named by alias is reported by ARN: not drift",
    );
    const classed = { regionName: "eu-west-1", tableClassOverride: "STANDARD_INFREQUENT_ACCESS" as const };
    assert.deepEqual(replicaChanges(withReplicas(classed), withReplicas(reported)), [
      { op: "update", replica: classed },
    ]);
    const gsiOverride = {
      regionName: "eu-west-1",
      globalSecondaryIndexes: [{ indexName: "g", onDemandThroughputOverride: { maxReadRequestUnits: 9 } }],
    };
    assert.deepEqual(
      replicaChanges(withReplicas(gsiOverride), withReplicas(reported)).map((c) => c.op),
      ["update"],
    );
    assert.deepEqual(
      paths(onDemand, withReplicas(reported)),
      ["spec.tableReplicas"],
      "a replica removed from the spec is deleted",
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
