// The Table kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateTable's input, plus the settings ACK's
// dynamodb-controller manages through other calls (continuous backups, time to live,
// contributor insights, replicas), and ACK's status fields from DescribeTable's answer.
import type { KindDeclaration } from "../../codegen/declaration.ts";

const unlimited = "Removed from the spec, the limit is removed (DynamoDB's -1: no maximum).";

export const tableDeclaration = {
  service: "dynamodb",
  kind: "Table",
  identifier: "TableName",
  immutable: ["TableName", "KeySchema"],
  lateInitialized: ["BillingMode", "DeletionProtectionEnabled"],
  terminalCodes: ["Validation", "InvalidParameter", "InvalidParameterValue", "Serialization"],
  spec: [
    {
      members: "CreateTableInput",
      // Newer than ACK's dynamodb-controller v1.9.2, and not managed yet.
      ignore: [
        "WarmThroughput",
        "GlobalTableSourceArn",
        "GlobalTableSettingsReplicationMode",
        "VectorIndexes",
      ],
    },
    { field: "ContinuousBackups", from: "UpdateContinuousBackups.PointInTimeRecoverySpecification" },
    { field: "ContributorInsights", from: "UpdateContributorInsights.ContributorInsightsAction" },
    {
      field: "TableReplicas",
      listOf: "CreateReplicationGroupMemberAction",
      doc: "The replicas of a global table (version 2019.11.21), one per Region: DynamoDB keeps each in sync with this table.",
    },
    { field: "TimeToLive", from: "UpdateTimeToLive.TimeToLiveSpecification" },
  ],
  create: "CreateTable",
  groups: [
    {
      set: "UpdateTable",
      read: "DescribeTable",
      // DynamoDB takes one change per UpdateTable, and none while the table is busy with the last.
      oneChangePerCall: true,
      fields: {
        BillingMode: { absent: "none", default: "PROVISIONED" },
        ProvisionedThroughput: { absent: "kept" },
        OnDemandThroughput: { custom: "compared only for an on-demand table; a maximum left out is -1" },
        StreamSpecification: { custom: "a disabled stream compares equal whatever its view type" },
        SSESpecification: { custom: "only whether it is enabled: DynamoDB reports the key it chose" },
        DeletionProtectionEnabled: { default: false },
        TableClass: { absent: "kept", default: "STANDARD" },
        GlobalSecondaryIndexes: { custom: "index by index: one change per UpdateTable" },
        // After the stream (a replica needs one) and the indexes (a replica's index overrides name them).
        TableReplicas: { custom: "by Region, and of each replica only the overrides the spec sets" },
      },
    },
    {
      set: "UpdateTimeToLive",
      read: "DescribeTimeToLive",
      fields: { TimeToLive: { custom: "a disabled time to live compares equal whatever its attribute" } },
    },
    {
      set: "UpdateContinuousBackups",
      read: "DescribeContinuousBackups",
      fields: {
        ContinuousBackups: { custom: "the recovery period only while recovery is on and the spec sets it" },
      },
    },
    {
      set: "UpdateContributorInsights",
      read: "DescribeContributorInsights",
      fields: {
        ContributorInsights: {
          absent: "kept",
          custom: "ENABLE and ENABLED (DISABLE, DISABLED) are one; managed while set",
        },
      },
    },
    {
      set: "PutResourcePolicy",
      remove: "DeleteResourcePolicy",
      read: "GetResourcePolicy",
      // A table without a policy.
      notFound: ["PolicyNotFound"],
      fields: { ResourcePolicy: { form: "document" } },
    },
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "ListTagsOfResource",
      fields: { Tags: { form: "tags" } },
    },
  ],
  notCompared: {
    AttributeDefinitions:
      "DynamoDB reports only the key attributes back; the creates of the table and of its indexes use it",
    LocalSecondaryIndexes: "fixed at creation: DynamoDB cannot add, change or remove one",
  },
  references: [{ field: "SSESpecification.KMSMasterKeyId", service: "kms", kind: "Key", fills: "arn" }],
  // DynamoDB reports only the key attributes' definitions back.
  partlyReported: { AttributeDefinitions: "AttributeName" },
  notes: {
    TableName: "Immutable: DynamoDB cannot rename a table.",
    KeySchema: "Immutable: DynamoDB cannot change a table's primary key.",
    LocalSecondaryIndexes:
      "Immutable: DynamoDB creates local secondary indexes with the table only, and cannot add, change or remove one later.",
    BillingMode: "Left out with provisionedThroughput set, it is PROVISIONED (DynamoDB's default).",
    SSESpecification:
      "Left out, DynamoDB's encryption setting is kept (a table is always encrypted, by default with an AWS owned key).",
    TableClass: "Left out, DynamoDB's table class is kept (STANDARD for a new table).",
    DeletionProtectionEnabled: "Left out, DynamoDB's setting is kept and copied into the spec.",
    OnDemandThroughput: unlimited,
    "GlobalSecondaryIndexes.OnDemandThroughput": unlimited,
    ResourcePolicy: "Removed from the spec, the policy is deleted from the table.",
    ContinuousBackups: "Removed from the spec, point in time recovery is turned off.",
    "ContinuousBackups.RecoveryPeriodInDays": "Left out, DynamoDB's period is kept (35 days for a new one).",
    ContributorInsights:
      "ENABLED and DISABLED (ACK's spelling) are accepted too. Managed while it is in the spec; left out, DynamoDB's setting is kept: set DISABLE to turn it off.",
    TableReplicas:
      "A replica removed from the spec is deleted in its Region. DynamoDB adds or removes one replica per change, and needs streams of NEW_AND_OLD_IMAGES.",
  },
  status: {
    from: "TableDescription",
    only: [
      "TableStatus",
      "CreationDateTime",
      "TableSizeBytes",
      "ItemCount",
      "TableId",
      "GlobalSecondaryIndexes",
      "LatestStreamLabel",
      "LatestStreamArn",
      "GlobalTableVersion",
      "Replicas",
      "RestoreSummary",
      "ArchivalSummary",
    ],
    renames: { GlobalSecondaryIndexes: "globalSecondaryIndexesDescriptions" },
  },
  // Served by the generic runtime (src/services/declared-kind/), with DynamoDB's quirks as hooks
  // (table.ts): tables are named per account and region, so a read only ever looks there.
  runtime: {
    service: "DynamoDB",
    noun: "table",
    // The settings (TTL, backups, insights, policy) and tags are read together, after the table.
    read: { call: "DescribeTable", output: "Table", groupsAtOnce: true },
    delete: "DeleteTable",
    arn: "TableArn",
    arnResource: "table/",
    // The resource policy calls take the table's ARN.
    arnInput: ["ResourceArn"],
    notFound: ["ResourceNotFound", "TableNotFound"],
    alreadyExists: ["ResourceInUse"],
    objectIn: { CreateTable: "TableDescription", UpdateTable: "TableDescription" },
    states: {
      member: "TableStatus",
      busy: ["CREATING", "UPDATING", "DELETING"],
      pollSeconds: 5,
      parts: [
        { list: "GlobalSecondaryIndexes", member: "IndexStatus", name: "IndexName", noun: "index" },
        { list: "Replicas", member: "ReplicaStatus", name: "RegionName", noun: "replica in" },
      ],
    },
    tags: { resource: "ResourceArn", keys: "TagKeys", list: "Tags" },
    deletionProtected: { code: "Validation", words: "deletion ?protect", field: "DeletionProtectionEnabled" },
    // DynamoDB's request parameters, as ValidationException messages name them → the spec field.
    fieldPatterns: {
      codes: ["Validation", "InvalidParameter"],
      patterns: [
        ["ReplicaUpdates|Replica|RegionName", "TableReplicas"],
        ["LocalSecondaryIndex", "LocalSecondaryIndexes"],
        ["GlobalSecondaryIndex", "GlobalSecondaryIndexes"],
        ["OnDemandThroughput|RequestUnits", "OnDemandThroughput"],
        ["ResourcePolicy|\\bPolicy\\b", "ResourcePolicy"],
        ["PointInTimeRecovery|RecoveryPeriod", "ContinuousBackups"],
        ["ContributorInsights", "ContributorInsights"],
        ["ProvisionedThroughput|ReadCapacityUnits|WriteCapacityUnits", "ProvisionedThroughput"],
        ["BillingMode|PAY_PER_REQUEST", "BillingMode"],
        ["StreamSpecification|StreamViewType|stream", "StreamSpecification"],
        ["SSESpecification|KMSMasterKey|SSEType", "SSESpecification"],
        ["TimeToLive", "TimeToLive"],
        ["DeletionProtection", "DeletionProtectionEnabled"],
        ["TableClass", "TableClass"],
        ["KeySchema", "KeySchema"],
        ["AttributeDefinition", "AttributeDefinitions"],
        ["TableName", "TableName"],
        ["\\bTags?\\b", "Tags"],
      ],
    },
    throttled: ["ProvisionedThroughputExceeded"],
    accessDenied: ["UnrecognizedClient"],
    iamActions: { CreateTable: "dynamodb:CreateTable (and dynamodb:TagResource to tag at creation)" },
    hints: {
      ResourceInUse: {
        DeleteTable: " (table is busy with an earlier change; retrying)",
        "": " (table is busy with an earlier change: DynamoDB takes one change at a time; retrying)",
      },
      LimitExceeded:
        " (a DynamoDB limit on concurrent table operations or throughput decreases was reached; retrying)",
    },
  },
} as const satisfies KindDeclaration;
