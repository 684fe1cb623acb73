// The DynamoDB calls the Table module's update and delete make, checked on a fake client: the SDK
// inputs of the settings moto does not implement (replicas, on-demand maxima, contributor
// insights) and of the ones it does, as DynamoDB takes them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DynamoDBClient, TableDescription } from "@aws-sdk/client-dynamodb";
import { noSecrets } from "../service-module.ts";
import type { TableFields } from "./schema.ts";
import { tableService } from "./table.ts";

type Sent = [operation: string, input: Record<string, unknown>];

interface TableClient {
  readonly sdk: DynamoDBClient;
  readonly region: string;
}

/** A client that records each command and answers DescribeTable with `table`, the rest with {}. */
function fakeClient(table: TableDescription = {}): { client: TableClient; sent: Sent[] } {
  const sent: Sent[] = [];
  const dynamodb = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const operation = command.constructor.name.replace(/Command$/, "");
      sent.push([operation, command.input]);
      return operation === "DescribeTable" ? { Table: table } : {};
    },
  } as unknown as DynamoDBClient;
  return { client: { sdk: dynamodb, region: "us-east-1" }, sent };
}

// The module's calls, named as the functions this test was first written against.
const updateTable = (
  client: TableClient,
  desired: TableFields,
  { tableARN, ...fields }: TableFields & { tableARN: string },
) =>
  tableService.update(
    client as never,
    desired,
    { fields, tags: {}, status: {}, arn: tableARN },
    {},
    {},
    noSecrets,
  );
const deleteTable = (client: TableClient, name: string) =>
  tableService.delete(client as never, { tableName: name }, {}, {});

const base: TableFields = {
  tableName: "orders",
  attributeDefinitions: [
    { attributeName: "id", attributeType: "S" },
    { attributeName: "s", attributeType: "S" },
  ],
  keySchema: [{ attributeName: "id", keyType: "HASH" }],
  billingMode: "PAY_PER_REQUEST",
  deletionProtectionEnabled: false,
};
const observed = { ...base, tableARN: "arn:aws:dynamodb:us-east-1:111111111111:table/orders" };

describe("updateTable's SDK inputs", () => {
  test("on-demand maxima of the table and an index; -1 where the spec has none", async () => {
    const { client, sent } = fakeClient();
    const index = {
      indexName: "g",
      keySchema: [{ attributeName: "s", keyType: "HASH" as const }],
      projection: { projectionType: "ALL" as const },
    };
    await updateTable(
      client,
      {
        ...base,
        onDemandThroughput: { maxReadRequestUnits: 100 },
        globalSecondaryIndexes: [{ ...index, onDemandThroughput: { maxWriteRequestUnits: 7 } }],
      },
      { ...observed, globalSecondaryIndexes: [index] },
    );
    assert.deepEqual(sent, [
      [
        "UpdateTable",
        { TableName: "orders", OnDemandThroughput: { MaxReadRequestUnits: 100, MaxWriteRequestUnits: -1 } },
      ],
      [
        "UpdateTable",
        {
          TableName: "orders",
          GlobalSecondaryIndexUpdates: [
            {
              Update: {
                IndexName: "g",
                OnDemandThroughput: { MaxReadRequestUnits: -1, MaxWriteRequestUnits: 7 },
              },
            },
          ],
        },
      ],
    ]);
  });

  test("replicas: one ReplicaUpdates action per UpdateTable, deletes first", async () => {
    const { client, sent } = fakeClient();
    await updateTable(
      client,
      {
        ...base,
        tableReplicas: [
          { regionName: "eu-west-1", tableClassOverride: "STANDARD_INFREQUENT_ACCESS" },
          {
            regionName: "us-west-2",
            globalSecondaryIndexes: [
              { indexName: "g", onDemandThroughputOverride: { maxReadRequestUnits: 9 } },
            ],
          },
        ],
      },
      { ...observed, tableReplicas: [{ regionName: "ap-south-1" }, { regionName: "us-west-2" }] },
    );
    assert.deepEqual(sent, [
      ["UpdateTable", { TableName: "orders", ReplicaUpdates: [{ Delete: { RegionName: "ap-south-1" } }] }],
      [
        "UpdateTable",
        {
          TableName: "orders",
          ReplicaUpdates: [
            { Create: { RegionName: "eu-west-1", TableClassOverride: "STANDARD_INFREQUENT_ACCESS" } },
          ],
        },
      ],
      [
        "UpdateTable",
        {
          TableName: "orders",
          ReplicaUpdates: [
            {
              Update: {
                RegionName: "us-west-2",
                GlobalSecondaryIndexes: [
                  { IndexName: "g", OnDemandThroughputOverride: { MaxReadRequestUnits: 9 } },
                ],
              },
            },
          ],
        },
      ],
    ]);
  });

  test("contributor insights (ACK's ENABLED is ENABLE), continuous backups, resource policy put and delete", async () => {
    const { client, sent } = fakeClient();
    const policy = '{"Version":"2012-10-17","Statement":[]}';
    await updateTable(
      client,
      {
        ...base,
        contributorInsights: "ENABLED",
        continuousBackups: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 },
        resourcePolicy: policy,
      },
      { ...observed, contributorInsights: "DISABLED" },
    );
    assert.deepEqual(sent, [
      [
        "UpdateContinuousBackups",
        {
          TableName: "orders",
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
        },
      ],
      ["UpdateContributorInsights", { TableName: "orders", ContributorInsightsAction: "ENABLE" }],
      ["PutResourcePolicy", { ResourceArn: observed.tableARN, Policy: policy }],
    ]);

    const removed = fakeClient();
    await updateTable(removed.client, base, {
      ...observed,
      continuousBackups: { pointInTimeRecoveryEnabled: true },
      contributorInsights: "ENABLED",
      resourcePolicy: policy,
    });
    assert.deepEqual(removed.sent, [
      [
        "UpdateContinuousBackups",
        { TableName: "orders", PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } },
      ],
      ["DeleteResourcePolicy", { ResourceArn: observed.tableARN }],
    ]);
  });
});

describe("deleteTable", () => {
  test("a global table's replicas in other Regions go first, one per call, retried until gone", async () => {
    const { client, sent } = fakeClient({
      TableName: "orders",
      TableStatus: "ACTIVE",
      Replicas: [
        { RegionName: "us-east-1", ReplicaStatus: "ACTIVE" },
        { RegionName: "eu-west-1", ReplicaStatus: "ACTIVE" },
        { RegionName: "us-west-2", ReplicaStatus: "ACTIVE" },
      ],
    });
    await assert.rejects(deleteTable(client, "orders"), (err: Error & { terminal?: boolean }) => {
      assert.match(err.message, /replicas in eu-west-1, us-west-2 are deleted first/);
      assert.equal(err.terminal, false);
      return true;
    });
    assert.deepEqual(sent, [
      ["DescribeTable", { TableName: "orders" }],
      ["UpdateTable", { TableName: "orders", ReplicaUpdates: [{ Delete: { RegionName: "eu-west-1" } }] }],
    ]);
  });

  test("a table without replicas elsewhere is deleted at once", async () => {
    const { client, sent } = fakeClient({ TableName: "orders", Replicas: [{ RegionName: "us-east-1" }] });
    assert.equal(await deleteTable(client, "orders"), "deleted");
    assert.deepEqual(
      sent.map(([op]) => op),
      ["DescribeTable", "DeleteTable"],
    );
  });
});
