import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  arnOf,
  createTableInput,
  parseTableArn,
  statusFromDescription,
  tableFieldsFromAws,
  userTags,
} from "./mapping.ts";
import { tableSpecSchema } from "./schema.ts";

const owner = { "crossrole.dev/owner-uid": "uid-1", "services.k8s.aws/namespace": "shop" };

describe("table ARNs", () => {
  test("are built from name, region and account, and parsed back", () => {
    const arn = arnOf("orders", "eu-west-1", "111111111111");
    assert.equal(arn, "arn:aws:dynamodb:eu-west-1:111111111111:table/orders");
    assert.deepEqual(parseTableArn(arn), { region: "eu-west-1", account: "111111111111", name: "orders" });
    assert.equal(arnOf("t1", "cn-north-1", "1"), "arn:aws-cn:dynamodb:cn-north-1:1:table/t1");
    assert.equal(parseTableArn("arn:aws:sqs:us-east-1:1:q"), undefined);
  });
});

describe("createTableInput", () => {
  test("carries every setting and the user's and ownership tags in one call", () => {
    const spec = tableSpecSchema.parse({
      tableName: "orders",
      attributeDefinitions: [
        { attributeName: "id", attributeType: "S" },
        { attributeName: "s", attributeType: "S" },
      ],
      keySchema: [{ attributeName: "id", keyType: "HASH" }],
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 2 },
      globalSecondaryIndexes: [
        {
          indexName: "by-s",
          keySchema: [{ attributeName: "s", keyType: "HASH" }],
          projection: { projectionType: "ALL" },
          provisionedThroughput: { readCapacityUnits: 1, writeCapacityUnits: 1 },
        },
      ],
      streamSpecification: { streamEnabled: true, streamViewType: "KEYS_ONLY" },
      deletionProtectionEnabled: true,
      tags: [{ key: "team", value: "shop" }],
    });
    const input = createTableInput(spec, owner);
    assert.equal(input.BillingMode, "PROVISIONED");
    assert.deepEqual(input.ProvisionedThroughput, { ReadCapacityUnits: 5, WriteCapacityUnits: 2 });
    assert.equal(input.GlobalSecondaryIndexes?.[0]?.IndexName, "by-s");
    assert.deepEqual(input.StreamSpecification, { StreamEnabled: true, StreamViewType: "KEYS_ONLY" });
    assert.equal(input.DeletionProtectionEnabled, true);
    assert.deepEqual(Object.fromEntries((input.Tags ?? []).map((t) => [t.Key, t.Value])), {
      team: "shop",
      ...owner,
    });
  });
});

describe("tableFieldsFromAws", () => {
  test("reads DescribeTable, tags and TTL back in spec form; PAY_PER_REQUEST zeros are no throughput", () => {
    const fields = tableFieldsFromAws(
      {
        TableName: "orders",
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        BillingModeSummary: { BillingMode: "PAY_PER_REQUEST" },
        ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
        StreamSpecification: { StreamEnabled: false },
        DeletionProtectionEnabled: false,
      },
      { team: "shop", ...owner },
      { TimeToLiveStatus: "ENABLED", AttributeName: "exp" },
    );
    assert.equal(fields.billingMode, "PAY_PER_REQUEST");
    assert.equal(fields.provisionedThroughput, undefined);
    assert.deepEqual(fields.streamSpecification, { streamEnabled: false });
    assert.deepEqual(fields.timeToLive, { attributeName: "exp", enabled: true });
    assert.equal(fields.deletionProtectionEnabled, false);
    assert.deepEqual(userTags(Object.fromEntries((fields.tags ?? []).map((t) => [t.key, t.value ?? ""]))), [
      { key: "team", value: "shop" },
    ]);
  });

  test("status fields use ACK's names", () => {
    const status = statusFromDescription({
      TableStatus: "ACTIVE",
      CreationDateTime: new Date("2024-05-01T10:00:00.123Z"),
      ItemCount: 3,
      TableId: "abc",
      GlobalSecondaryIndexes: [{ IndexName: "g", IndexStatus: "CREATING" }],
    });
    assert.deepEqual(status, {
      tableStatus: "ACTIVE",
      creationDateTime: "2024-05-01T10:00:00Z",
      itemCount: 3,
      tableID: "abc",
      globalSecondaryIndexesDescriptions: [{ indexName: "g", indexStatus: "CREATING" }],
    });
  });
});
