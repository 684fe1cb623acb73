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
import { tableSpecSchema, tableStatusSchema } from "./schema.ts";

const owner = { "services.k8s.aws/owner-uid": "uid-1", "services.k8s.aws/namespace": "shop" };

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
      { ttl: { TimeToLiveStatus: "ENABLED", AttributeName: "exp" } },
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

describe("the fields added for ACK parity", () => {
  const forum = {
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
  const lsi = {
    indexName: "by-last-post",
    keySchema: [
      { attributeName: "forum", keyType: "HASH" },
      { attributeName: "lastPost", keyType: "RANGE" },
    ],
    projection: { projectionType: "KEYS_ONLY" },
  };

  test("CreateTable carries local indexes (and their attributes), on-demand maxima and the resource policy", () => {
    const policy = '{"Version":"2012-10-17","Statement":[]}';
    const input = createTableInput(
      tableSpecSchema.parse({
        ...forum,
        localSecondaryIndexes: [lsi],
        onDemandThroughput: { maxReadRequestUnits: 100 },
        globalSecondaryIndexes: [
          {
            indexName: "by-subject",
            keySchema: [{ attributeName: "subject", keyType: "HASH" }],
            projection: { projectionType: "ALL" },
            onDemandThroughput: { maxReadRequestUnits: 50, maxWriteRequestUnits: 50 },
          },
        ],
        resourcePolicy: policy,
        continuousBackups: { pointInTimeRecoveryEnabled: true },
        contributorInsights: "ENABLE",
        tableReplicas: [{ regionName: "eu-west-1" }],
      }),
      {},
    );
    assert.deepEqual(input.LocalSecondaryIndexes, [
      {
        IndexName: "by-last-post",
        KeySchema: [
          { AttributeName: "forum", KeyType: "HASH" },
          { AttributeName: "lastPost", KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "KEYS_ONLY" },
      },
    ]);
    assert.deepEqual(input.AttributeDefinitions?.map((a) => a.AttributeName).sort(), [
      "forum",
      "lastPost",
      "subject",
    ]);
    assert.deepEqual(input.OnDemandThroughput, { MaxReadRequestUnits: 100, MaxWriteRequestUnits: -1 });
    assert.deepEqual(input.GlobalSecondaryIndexes?.[0]?.OnDemandThroughput, {
      MaxReadRequestUnits: 50,
      MaxWriteRequestUnits: 50,
    });
    assert.equal(input.ResourcePolicy, policy);
    // Not CreateTable's: the update after the create sends them.
    for (const k of ["ReplicaUpdates", "PointInTimeRecoverySpecification", "ContributorInsightsAction"])
      assert.ok(!(k in input), k);
  });

  test("read back: local indexes, maxima (-1 is none), replicas, backups, insights and policy", () => {
    const fields = tableFieldsFromAws(
      {
        TableName: "forum",
        BillingModeSummary: { BillingMode: "PAY_PER_REQUEST" },
        OnDemandThroughput: { MaxReadRequestUnits: 100, MaxWriteRequestUnits: -1 },
        LocalSecondaryIndexes: [
          {
            IndexName: "by-last-post",
            KeySchema: [
              { AttributeName: "forum", KeyType: "HASH" },
              { AttributeName: "lastPost", KeyType: "RANGE" },
            ],
            Projection: { ProjectionType: "KEYS_ONLY" },
            IndexSizeBytes: 0,
          },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: "g",
            KeySchema: [{ AttributeName: "subject", KeyType: "HASH" }],
            Projection: { ProjectionType: "ALL" },
            OnDemandThroughput: { MaxReadRequestUnits: -1, MaxWriteRequestUnits: -1 },
          },
        ],
        Replicas: [
          {
            RegionName: "eu-west-1",
            ReplicaStatus: "ACTIVE",
            KMSMasterKeyId: "arn:aws:kms:eu-west-1:1:key/k",
            ReplicaTableClassSummary: { TableClass: "STANDARD_INFREQUENT_ACCESS" },
            GlobalSecondaryIndexes: [
              { IndexName: "g", OnDemandThroughputOverride: { MaxReadRequestUnits: 9 } },
            ],
          },
        ],
      },
      {},
      {
        continuousBackups: {
          ContinuousBackupsStatus: "ENABLED",
          PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: "ENABLED", RecoveryPeriodInDays: 35 },
        },
        contributorInsights: "ENABLING",
        resourcePolicy: '{"Version":"2012-10-17"}',
      },
    );
    assert.deepEqual(fields.localSecondaryIndexes, [lsi]);
    assert.deepEqual(fields.onDemandThroughput, { maxReadRequestUnits: 100 });
    assert.equal(fields.globalSecondaryIndexes?.[0]?.onDemandThroughput, undefined);
    assert.deepEqual(fields.tableReplicas, [
      {
        regionName: "eu-west-1",
        kmsMasterKeyID: "arn:aws:kms:eu-west-1:1:key/k",
        globalSecondaryIndexes: [{ indexName: "g", onDemandThroughputOverride: { maxReadRequestUnits: 9 } }],
        tableClassOverride: "STANDARD_INFREQUENT_ACCESS",
      },
    ]);
    assert.deepEqual(fields.continuousBackups, {
      pointInTimeRecoveryEnabled: true,
      recoveryPeriodInDays: 35,
    });
    assert.equal(fields.contributorInsights, "ENABLED");
    assert.equal(fields.resourcePolicy, '{"Version":"2012-10-17"}');
    const off = tableFieldsFromAws(
      { TableName: "forum" },
      {},
      {
        continuousBackups: {
          ContinuousBackupsStatus: "ENABLED",
          PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: "DISABLED" },
        },
      },
    );
    assert.equal(off.continuousBackups, undefined);
    assert.equal(off.contributorInsights, undefined, "not read: not managed");
  });

  test("every status field ACK exposes, from DescribeTable", () => {
    const status = statusFromDescription({
      TableStatus: "ACTIVE",
      GlobalTableVersion: "2019.11.21",
      ArchivalSummary: {
        ArchivalDateTime: new Date("2024-05-02T00:00:00Z"),
        ArchivalReason: "INACCESSIBLE_ENCRYPTION_CREDENTIALS",
        ArchivalBackupArn: "arn:aws:dynamodb:us-east-1:1:table/t/backup/b",
      },
      RestoreSummary: {
        SourceTableArn: "arn:aws:dynamodb:us-east-1:1:table/src",
        RestoreDateTime: new Date("2024-05-01T00:00:00Z"),
        RestoreInProgress: false,
      },
      Replicas: [
        {
          RegionName: "eu-west-1",
          ReplicaStatus: "CREATING",
          ReplicaStatusPercentProgress: "40",
          ReplicaTableClassSummary: { TableClass: "STANDARD" },
          ProvisionedThroughputOverride: { ReadCapacityUnits: 3 },
          GlobalSecondaryIndexes: [
            { IndexName: "g", ProvisionedThroughputOverride: { ReadCapacityUnits: 2 } },
          ],
        },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: "g",
          IndexStatus: "ACTIVE",
          Backfilling: false,
          IndexSizeBytes: 10,
          ItemCount: 2,
          KeySchema: [{ AttributeName: "s", KeyType: "HASH" }],
          Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["a"] },
          ProvisionedThroughput: {
            ReadCapacityUnits: 1,
            WriteCapacityUnits: 1,
            NumberOfDecreasesToday: 0,
            LastIncreaseDateTime: new Date("2024-05-01T01:00:00Z"),
          },
          OnDemandThroughput: { MaxReadRequestUnits: 5 },
        },
      ],
    });
    assert.deepEqual(status, {
      tableStatus: "ACTIVE",
      globalTableVersion: "2019.11.21",
      archivalSummary: {
        archivalDateTime: "2024-05-02T00:00:00Z",
        archivalReason: "INACCESSIBLE_ENCRYPTION_CREDENTIALS",
        archivalBackupARN: "arn:aws:dynamodb:us-east-1:1:table/t/backup/b",
      },
      restoreSummary: {
        sourceTableARN: "arn:aws:dynamodb:us-east-1:1:table/src",
        restoreDateTime: "2024-05-01T00:00:00Z",
        restoreInProgress: false,
      },
      replicas: [
        {
          regionName: "eu-west-1",
          replicaStatus: "CREATING",
          replicaStatusPercentProgress: "40",
          replicaTableClassSummary: { tableClass: "STANDARD" },
          provisionedThroughputOverride: { readCapacityUnits: 3 },
          globalSecondaryIndexes: [
            { indexName: "g", provisionedThroughputOverride: { readCapacityUnits: 2 } },
          ],
        },
      ],
      globalSecondaryIndexesDescriptions: [
        {
          indexName: "g",
          indexStatus: "ACTIVE",
          backfilling: false,
          indexSizeBytes: 10,
          itemCount: 2,
          keySchema: [{ attributeName: "s", keyType: "HASH" }],
          projection: { projectionType: "INCLUDE", nonKeyAttributes: ["a"] },
          provisionedThroughput: {
            readCapacityUnits: 1,
            writeCapacityUnits: 1,
            numberOfDecreasesToday: 0,
            lastIncreaseDateTime: "2024-05-01T01:00:00Z",
          },
          onDemandThroughput: { maxReadRequestUnits: 5 },
        },
      ],
    });
    assert.ok(tableStatusSchema.safeParse(status).success, "the status schema accepts it");
  });
});
