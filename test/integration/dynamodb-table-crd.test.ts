// The Queue CRD generated from src/services/dynamodb/schema.ts on a real kube-apiserver: it is
// accepted, every valid Table example is admitted, every invalid one is rejected at its field
// (the same table schema.test.ts runs through zod), and spec.queueName and spec.fifoQueue cannot
// change once set.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tableCrdSource } from "../../src/services/dynamodb/schema.ts";
import { rejection, show } from "../support/admission.ts";
import {
  tableExampleNamespace,
  tableInvalidExamples,
  tableValidExamples,
} from "../support/examples/table.ts";
import { kindAdmissionSuite } from "../support/kind-admission.ts";

type Obj = Record<string, unknown>;

const kind = kindAdmissionSuite({
  kind: "Table",
  source: tableCrdSource,
  namespace: tableExampleNamespace,
  valid: tableValidExamples,
  invalid: tableInvalidExamples,
});

describe("Table spec.tableName, spec.keySchema and key attribute types are immutable", () => {
  test("changing them is rejected; changing throughput and adding attributes is not; status is kept", async () => {
    const original = {
      apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
      kind: "Table",
      metadata: { name: "immutable-name", namespace: tableExampleNamespace },
      spec: {
        tableName: "orders",
        attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
        keySchema: [{ attributeName: "id", keyType: "HASH" }],
        provisionedThroughput: { readCapacityUnits: 1, writeCapacityUnits: 1 },
      },
    };
    const stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) => kind.replace(original, stored.metadata, spec);
    const renamed = await rejection(() => replace({ ...original.spec, tableName: "orders2" }));
    assert.ok(
      renamed.some(
        (c) => c.field === "spec.tableName" && (c.message ?? "").includes("tableName is immutable"),
      ),
      show(renamed),
    );
    const rekeyed = await rejection(() =>
      replace({
        ...original.spec,
        attributeDefinitions: [
          { attributeName: "id", attributeType: "S" },
          { attributeName: "sk", attributeType: "N" },
        ],
        keySchema: [
          { attributeName: "id", keyType: "HASH" },
          { attributeName: "sk", keyType: "RANGE" },
        ],
      }),
    );
    assert.ok(
      rekeyed.some(
        (c) => c.field === "spec.keySchema" && (c.message ?? "").includes("keySchema is immutable"),
      ),
      show(rekeyed),
    );
    const retyped = await rejection(() =>
      replace({ ...original.spec, attributeDefinitions: [{ attributeName: "id", attributeType: "N" }] }),
    );
    assert.ok(
      retyped.some(
        (c) =>
          c.field === "spec.attributeDefinitions" &&
          (c.message ?? "").includes("key attributes are immutable"),
      ),
      show(retyped),
    );
    const updated = (await replace({
      ...original.spec,
      attributeDefinitions: [
        { attributeName: "id", attributeType: "S" },
        { attributeName: "status", attributeType: "S" },
      ],
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
    })) as { metadata: Obj; spec: Obj };
    assert.deepEqual(updated.spec["provisionedThroughput"], { readCapacityUnits: 5, writeCapacityUnits: 5 });

    const status = {
      tableStatus: "ACTIVE",
      creationDateTime: "2024-05-01T10:00:00Z",
      itemCount: 0,
      ackResourceMetadata: { arn: "arn:aws:dynamodb:us-east-1:111111111111:table/orders" },
    };
    const withStatus = (await kind.replaceStatus(original, updated.metadata, updated.spec, status)) as {
      status?: Obj;
    };
    assert.deepEqual(withStatus.status, status);
  });
});

describe("Table spec.localSecondaryIndexes are immutable (DynamoDB makes them with the table only)", () => {
  test("adding, changing or removing them is rejected; the status of replicas and archival is stored", async () => {
    const keyed = {
      tableName: "forum",
      attributeDefinitions: [
        { attributeName: "forum", attributeType: "S" },
        { attributeName: "subject", attributeType: "S" },
        { attributeName: "lastPost", attributeType: "S" },
      ],
      keySchema: [
        { attributeName: "forum", keyType: "HASH" },
        { attributeName: "subject", keyType: "RANGE" },
      ],
      billingMode: "PAY_PER_REQUEST",
    };
    const lsi = (projectionType: string) => [
      {
        indexName: "by-last-post",
        keySchema: [
          { attributeName: "forum", keyType: "HASH" },
          { attributeName: "lastPost", keyType: "RANGE" },
        ],
        projection: { projectionType },
      },
    ];
    const object = (name: string, spec: Obj) => ({
      apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
      kind: "Table",
      metadata: { name, namespace: tableExampleNamespace },
      spec,
    });
    const immutable = (found: Awaited<ReturnType<typeof rejection>>) =>
      found.some(
        (c) =>
          c.field === "spec.localSecondaryIndexes" &&
          (c.message ?? "").includes("localSecondaryIndexes are immutable"),
      );

    const withIndex = object("lsi-fixed", { ...keyed, localSecondaryIndexes: lsi("KEYS_ONLY") });
    const stored = (await kind.create(withIndex)) as { metadata: Obj; spec: Obj };
    const changed = await rejection(() =>
      kind.replace(withIndex, stored.metadata, { ...keyed, localSecondaryIndexes: lsi("ALL") }),
    );
    assert.ok(immutable(changed), show(changed));
    const removed = await rejection(() => kind.replace(withIndex, stored.metadata, keyed));
    assert.ok(immutable(removed), show(removed));

    const without = object("lsi-none", keyed);
    const plain = (await kind.create(without)) as { metadata: Obj; spec: Obj };
    const added = await rejection(() =>
      kind.replace(without, plain.metadata, { ...keyed, localSecondaryIndexes: lsi("ALL") }),
    );
    assert.ok(immutable(added), show(added));

    const status = {
      tableStatus: "ACTIVE",
      globalTableVersion: "2019.11.21",
      replicas: [
        {
          regionName: "eu-west-1",
          replicaStatus: "ACTIVE",
          replicaStatusPercentProgress: "100",
          replicaTableClassSummary: { tableClass: "STANDARD", lastUpdateDateTime: "2024-05-01T10:00:00Z" },
        },
      ],
      archivalSummary: { archivalReason: "INACCESSIBLE_ENCRYPTION_CREDENTIALS" },
      restoreSummary: { restoreInProgress: false, sourceTableARN: "arn:aws:dynamodb:us-east-1:1:table/a" },
    };
    const withStatus = (await kind.replaceStatus(without, plain.metadata, keyed, status)) as { status?: Obj };
    assert.deepEqual(withStatus.status, status);
  });
});

describe("Table index attributes: needed when an index is made, as DynamoDB rules", () => {
  test("ACK's test_create_update_gsi patch is admitted; a new or re-keyed index on an undefined attribute is not", async () => {
    const gsi = (indexName: string, attributeName: string, capacity: number) => ({
      indexName,
      keySchema: [{ attributeName, keyType: "HASH" }],
      projection: { projectionType: "ALL" },
      provisionedThroughput: { readCapacityUnits: capacity, writeCapacityUnits: capacity },
    });
    const definitions = (...names: string[]) =>
      names.map((attributeName) => ({ attributeName, attributeType: "S" }));
    const keyed = {
      tableName: "offices",
      keySchema: [
        { attributeName: "OfficeName", keyType: "HASH" },
        { attributeName: "Rank", keyType: "RANGE" },
      ],
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
    };
    const object = {
      apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
      kind: "Table",
      metadata: { name: "gsi-update", namespace: tableExampleNamespace },
      spec: {
        ...keyed,
        attributeDefinitions: definitions("OfficeName", "Rank", "City"),
        globalSecondaryIndexes: [gsi("office-per-city", "City", 5)],
      },
    };
    const undefinedAttribute = (found: Awaited<ReturnType<typeof rejection>>) =>
      found.some(
        (c) =>
          c.field === "spec.globalSecondaryIndexes" &&
          (c.message ?? "").includes("names an attribute that attributeDefinitions does not define"),
      );
    const stored = (await kind.create(object)) as { metadata: Obj; spec: Obj };

    // ACK's patch: City's definition dropped while office-per-city stays (its capacity changed),
    // office-per-country added with Country defined. DynamoDB and ACK accept it.
    const patched = {
      ...keyed,
      attributeDefinitions: definitions("OfficeName", "Rank", "Country"),
      globalSecondaryIndexes: [gsi("office-per-city", "City", 10), gsi("office-per-country", "Country", 5)],
    };
    const updated = (await kind.replace(object, stored.metadata, patched)) as { metadata: Obj; spec: Obj };
    assert.deepEqual(updated.spec["globalSecondaryIndexes"], patched.globalSecondaryIndexes);

    // A new index on an attribute nobody defines: DynamoDB's UpdateTable would refuse it.
    const added = await rejection(() =>
      kind.replace(object, updated.metadata, {
        ...patched,
        globalSecondaryIndexes: [...patched.globalSecondaryIndexes, gsi("office-per-region", "Region", 5)],
      }),
    );
    assert.ok(undefinedAttribute(added), show(added));
    // An index re-keyed under its old name is made again: its new key needs a definition too.
    const rekeyed = await rejection(() =>
      kind.replace(object, updated.metadata, {
        ...patched,
        globalSecondaryIndexes: [
          gsi("office-per-city", "Region", 10),
          gsi("office-per-country", "Country", 5),
        ],
      }),
    );
    assert.ok(undefinedAttribute(rekeyed), show(rekeyed));
  });
});
