// The DBInstance kind as a declaration (DESIGN §7): CreateDBInstance's input with ACK's
// renames and references.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const dbInstanceDeclaration = {
  service: "rds",
  kind: "DBInstance",
  spec: [
    {
      members: "CreateDBInstanceMessage",
      ignore: [
        // Left out by ACK's rds-controller v1.11.1 (its generator.yaml), or newer than it.
        "DBSecurityGroups",
        "DomainFqdn",
        "DomainOu",
        "DomainAuthSecretArn",
        "DomainDnsIps",
        "DBSystemId",
        "MultiTenant",
        "DedicatedLogVolume",
        "EngineLifecycleSupport",
        "AdditionalStorageVolumes",
        "TagSpecifications",
        "DBCapacityReservationIdentifier",
        "MasterUserAuthenticationType",
      ],
    },
    {
      members: "CreateDBInstanceReadReplicaMessage",
      only: ["PreSignedUrl", "ReplicaMode", "SourceDBInstanceIdentifier"],
    },
    {
      members: "RestoreDBInstanceFromDBSnapshotMessage",
      only: ["DBSnapshotIdentifier", "UseDefaultProcessorFeatures", "DBClusterSnapshotIdentifier"],
    },
    {
      field: "DestinationRegion",
      custom: "string",
      doc: "The Region a read replica's presigned CreateDBInstanceReadReplica request is signed for (the SDK's parameter; not sent to RDS).",
    },
    {
      field: "SourceRegion",
      custom: "string",
      doc: "The Region of the source DB instance of a cross-Region read replica, used to presign the request (not sent to RDS); the same Region as the source's ARN.",
    },
  ],
  renames: { EnablePerformanceInsights: "performanceInsightsEnabled" },
  secrets: ["MasterUserPassword"],
  references: [
    { field: "DBParameterGroupName", service: "rds", kind: "DBParameterGroup" },
    { field: "DBSubnetGroupName", service: "rds", kind: "DBSubnetGroup" },
    { field: "KmsKeyId", service: "kms", kind: "Key" },
    { field: "MasterUserSecretKmsKeyId", service: "kms", kind: "Key" },
    { field: "MonitoringRoleArn", service: "iam", kind: "Role" },
    { field: "PerformanceInsightsKMSKeyId", service: "kms", kind: "Key" },
    { field: "VpcSecurityGroupIds", service: "ec2", kind: "SecurityGroup" },
  ],
} as const satisfies KindDeclaration;
