// The Table kind as a declaration (DESIGN §7): CreateTable's input, plus the settings ACK's
// dynamodb-controller manages through other calls (continuous backups, time to live,
// contributor insights, replicas).
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const tableDeclaration = {
  service: "dynamodb",
  kind: "Table",
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
  references: [{ field: "SSESpecification.KMSMasterKeyId", service: "kms", kind: "Key" }],
} as const satisfies KindDeclaration;
