// What the Table module sends on a create and reads back, on an in-process DynamoDB
// (test/support/fake-sdk.ts): CreateTable's input, DescribeTable and the settings' own reads in
// spec form, ACK's status fields.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type {
  ContinuousBackupsDescription,
  ContributorInsightsStatus,
  CreateTableCommandInput,
  TableDescription,
  TimeToLiveDescription,
} from "@aws-sdk/client-dynamodb";
import { awsError, fakeSdk } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { noSecrets } from "../service-module.ts";
import { userTags } from "../tag-list.ts";
import { type TableFields, tableSpecSchema, tableStatusSchema } from "./schema.ts";
import { parseTableArn, tableService, tableSource } from "./table.ts";

// The module's calls, named as the functions this test was first written against.
const arnOf = (name: string, region: string, account: string) =>
  tableService.arn({ tableName: name }, region, account);

/** The module on an in-process DynamoDB answering each call as `answer` says. */
function on(answer: (operation: string, input: Record<string, unknown>) => Record<string, unknown>) {
  const aws = fakeSdk((call) => answer(call.operation, call.input));
  return {
    aws,
    module: declaredKindModule({ ...tableSource, sdk: aws.sdk } as unknown as typeof tableSource),
  };
}

/** The CreateTable input the module sends for `spec`. */
async function createTableInput(
  spec: TableFields,
  ownerTags: Record<string, string>,
): Promise<CreateTableCommandInput> {
  const { aws, module } = on(() => ({}));
  await module.create(aws.client, spec, "us-east-1", ownerTags, {}, noSecrets);
  return aws.sent.find((c) => c.operation === "CreateTable")?.input as unknown as CreateTableCommandInput;
}

/** What the settings read by calls of their own answer (undefined: none). */
interface TableExtras {
  readonly ttl?: TimeToLiveDescription;
  readonly continuousBackups?: ContinuousBackupsDescription;
  readonly resourcePolicy?: string;
  readonly contributorInsights?: ContributorInsightsStatus;
}

/** What the module reads, in spec form and as status, from these answers. */
async function read(
  description: TableDescription,
  tags: Record<string, string> = {},
  extras: TableExtras = {},
) {
  const name = description.TableName ?? "t";
  const { aws, module } = on((operation) => {
    switch (operation) {
      case "DescribeTable":
        return {
          Table: { TableName: name, TableArn: `arn:aws:dynamodb:us-east-1:1:table/${name}`, ...description },
        };
      case "ListTagsOfResource":
        return { Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) };
      case "DescribeTimeToLive":
        return { TimeToLiveDescription: extras.ttl };
      case "DescribeContinuousBackups":
        return { ContinuousBackupsDescription: extras.continuousBackups };
      case "DescribeContributorInsights":
        return { ContributorInsightsStatus: extras.contributorInsights };
      case "GetResourcePolicy":
        if (extras.resourcePolicy === undefined) throw awsError("PolicyNotFoundException");
        return { Policy: extras.resourcePolicy };
      default:
        return {};
    }
  });
  // Contributor insights are read only while the spec manages them.
  const spec = {
    tableName: name,
    ...(extras.contributorInsights === undefined ? {} : { contributorInsights: "ENABLE" }),
  };
  const r = await module.read(aws.client, spec, {});
  assert.ok(r.found);
  return r.observed;
}
const tableFieldsFromAws = async (...args: Parameters<typeof read>) =>
  (await read(...args)).fields as TableFields;
const statusFromDescription = async (description: TableDescription) =>
  tableService.statusFrom?.(await read(description)) ?? {};

const owner = { "services.k8s.aws/owner-uid": "uid-1", "services.k8s.aws/namespace": "shop" };

describe("table ARNs", () => {
  test("are built from name, region and account, and parsed back", async () => {
    const arn = arnOf("orders", "eu-west-1", "111111111111");
    assert.equal(arn, "arn:aws:dynamodb:eu-west-1:111111111111:table/orders");
    assert.deepEqual(parseTableArn(arn), { region: "eu-west-1", account: "111111111111", name: "orders" });
    assert.equal(arnOf("t1", "cn-north-1", "1"), "arn:aws-cn:dynamodb:cn-north-1:1:table/t1");
    assert.equal(parseTableArn("arn:aws:sqs:us-east-1:1:q"), undefined);
  });
});

describe("createTableInput", () => {
  test("carries every setting and the user's and ownership tags in one call", async () => {
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
    const input = await createTableInput(spec, owner);
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
  test("reads DescribeTable, tags and TTL back in spec form; PAY_PER_REQUEST zeros are no throughput", async () => {
    const fields = await tableFieldsFromAws(
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

  test("status fields use ACK's names", async () => {
    const status = await statusFromDescription({
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

  test("CreateTable carries local indexes (and their attributes), on-demand maxima and the resource policy", async () => {
    const policy = '{"Version":"2012-10-17","Statement":[]}';
    const input = await createTableInput(
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

  test("read back: local indexes, maxima (-1 is none), replicas, backups, insights and policy", async () => {
    const fields = await tableFieldsFromAws(
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
    const off = await tableFieldsFromAws(
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

  test("every status field ACK exposes, from DescribeTable", async () => {
    const status = await statusFromDescription({
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
