// The DBInstance kind as a declaration (DESIGN §7): CreateDBInstance's input with ACK's
// renames and references, what removing each field does (notes, in the CRD's descriptions),
// and ACK's status fields from DescribeDBInstances' DBInstance.
import type { KindDeclaration } from "../../codegen/declaration.ts";

const immutable = "Immutable: RDS sets it at creation and cannot change it afterwards.";
const kept = "Left out, RDS's value is kept and copied into the spec: it can be changed, not removed.";
const keptWhileSet = "Managed while it is in the spec; removed from the spec, RDS keeps what it has.";
const offWhenRemoved = "Removed from the spec, it is set to false.";
const replicaOrRestore =
  "Creating a read replica or restoring from a snapshot is not supported by crossrole yet: a DBInstance that sets it is refused (ACK.Terminal) and nothing is created.";

/** RDS's fields the late initialisation copies into the spec (diff.ts's list, by AWS name). */
const lateInitialised = [
  "EngineVersion",
  "MultiAZ",
  "StorageType",
  "PubliclyAccessible",
  "BackupRetentionPeriod",
  "DeletionProtection",
  "Port",
  "PreferredBackupWindow",
  "PreferredMaintenanceWindow",
  "AutoMinorVersionUpgrade",
  "LicenseModel",
  "Iops",
  "StorageThroughput",
  "DBParameterGroupName",
  "OptionGroupName",
  "DBSubnetGroupName",
  "VpcSecurityGroupIds",
  "CACertificateIdentifier",
  "NetworkType",
  "MonitoringRoleArn",
  "PromotionTier",
  "PerformanceInsightsKMSKeyId",
  "PerformanceInsightsRetentionPeriod",
  "DatabaseInsightsMode",
  "EnableCustomerOwnedIp",
  "DomainIAMRoleName",
];

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
  notes: {
    ...Object.fromEntries(lateInitialised.map((a) => [a, kept])),
    ...Object.fromEntries(
      [
        "DBInstanceIdentifier",
        "Engine",
        "MasterUsername",
        "DBName",
        "StorageEncrypted",
        "CharacterSetName",
        "NcharCharacterSetName",
        "Timezone",
        "BackupTarget",
        "CustomIamInstanceProfile",
      ].map((a) => [a, immutable]),
    ),
    AvailabilityZone: `${immutable} Left out, RDS's choice is copied into the spec; never compared afterwards (a Multi-AZ failover moves the instance).`,
    KmsKeyId: `${immutable} Left out, RDS's key of an encrypted instance is copied into the spec.`,
    AllocatedStorage:
      "It can only grow: RDS cannot shrink storage. Left out, RDS's value is kept and copied into the spec.",
    MasterUserPassword:
      "RDS never reports it: sent at creation and again whenever the Secret's value changes. Not with manageMasterUserPassword true.",
    ...Object.fromEntries(
      ["CopyTagsToSnapshot", "EnableIAMDatabaseAuthentication", "EnablePerformanceInsights"].map((a) => [
        a,
        offWhenRemoved,
      ]),
    ),
    EnableCloudwatchLogsExports:
      "Compared as a set; a log type removed from the list (or the whole field removed) stops being exported.",
    MonitoringInterval: "Removed from the spec, Enhanced Monitoring is turned off (0).",
    MaxAllocatedStorage: "Removed from the spec, storage autoscaling is turned off.",
    Domain: "Removed from the spec, the instance leaves the Active Directory domain.",
    ManageMasterUserPassword: `${keptWhileSet} Set false together with masterUserPassword to take the password back from Secrets Manager.`,
    MasterUserSecretKmsKeyId: `${keptWhileSet} Used with manageMasterUserPassword.`,
    TdeCredentialArn: keptWhileSet,
    TdeCredentialPassword:
      "RDS never reports it: sent at creation and with every change of tdeCredentialARN. Prefer a Secret: this value is stored in the spec.",
    ProcessorFeatures: `${keptWhileSet} Compared as a set; useDefaultProcessorFeatures true with this left out restores the class's defaults.`,
    UseDefaultProcessorFeatures:
      "With processorFeatures left out, true sets the DB instance class's default processor features (ModifyDBInstance).",
    DBClusterIdentifier:
      "An instance of a DB cluster (Aurora, Multi-AZ DB cluster) is not supported by crossrole yet: a DBInstance that sets it is refused (ACK.Terminal) and nothing is created.",
    ...Object.fromEntries(
      [
        "SourceDBInstanceIdentifier",
        "PreSignedUrl",
        "ReplicaMode",
        "DestinationRegion",
        "SourceRegion",
        "DBSnapshotIdentifier",
        "DBClusterSnapshotIdentifier",
      ].map((a) => [a, replicaOrRestore]),
    ),
    Tags: "Removed from the spec, a tag is removed from the instance (crossrole's ownership tags stay).",
  },
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
  status: {
    from: "DBInstance",
    only: [
      "DBInstanceStatus",
      "Endpoint",
      "DbiResourceId",
      "InstanceCreateTime",
      "ActivityStreamEngineNativeAuditFieldsIncluded",
      "ActivityStreamKmsKeyId",
      "ActivityStreamKinesisStreamName",
      "ActivityStreamMode",
      "ActivityStreamPolicyStatus",
      "ActivityStreamStatus",
      "AssociatedRoles",
      "AutomaticRestartTime",
      "AutomationMode",
      "AwsBackupRecoveryPointArn",
      "CertificateDetails",
      "CustomerOwnedIpEnabled",
      "DBInstanceAutomatedBackupsReplications",
      "DbInstancePort",
      "DBParameterGroups",
      "DBSubnetGroup",
      "DBSystemId",
      "DomainMemberships",
      "EnabledCloudwatchLogsExports",
      "EnhancedMonitoringResourceArn",
      "IAMDatabaseAuthenticationEnabled",
      "LatestRestorableTime",
      "ListenerEndpoint",
      "MasterUserSecret",
      "OptionGroupMemberships",
      "PendingModifiedValues",
      "ReadReplicaDBClusterIdentifiers",
      "ReadReplicaDBInstanceIdentifiers",
      "ReadReplicaSourceDBClusterIdentifier",
      "ReadReplicaSourceDBInstanceIdentifier",
      "ResumeFullAutomationModeTime",
      "SecondaryAvailabilityZone",
      "StatusInfos",
      "VpcSecurityGroups",
    ],
  },
} as const satisfies KindDeclaration;
