// RDS failures sorted into what the reconciler does with them: `terminal` (ACK.Terminal, no
// retry until the spec changes: only the user can fix it — ACK's terminal codes for DBInstance
// are InvalidParameter, InvalidParameterValue and InvalidParameterCombination) or `retryable`
// (back off and try again: throttling, quotas an administrator may raise, capacity, 5xx,
// network, permissions, an instance busy with an earlier change). Every message names the DB
// instance, the RDS operation and the spec field, and never contains the master password: calls
// that carry it say so (`secretFields`), and their errors then hold none of RDS's message and
// not the SDK's error (../service-error.ts says why a password cut out of the text is not enough).

import {
  deletionProtectedError,
  failureError,
  fallbackCode,
  genericErrorNames,
  messageOf,
  objectErrorClass,
  type ServiceRules,
  sdkErrorCodeField,
  sdkErrorName,
} from "../service-error.ts";
import { dbInstanceDeclared } from "./generated/db-instance-fields.ts";

/** The RDS operations this module calls; each error names the one that failed. */
export type RdsOperation =
  | "CreateDBInstance"
  | "DescribeDBInstances"
  | "ModifyDBInstance"
  | "DeleteDBInstance"
  | "AddTagsToResource"
  | "RemoveTagsFromResource";

/** The IAM action each operation needs, for AccessDenied messages. */
const iamActions: Record<RdsOperation, string> = {
  CreateDBInstance: "rds:CreateDBInstance (and rds:AddTagsToResource to tag at creation)",
  DescribeDBInstances: "rds:DescribeDBInstances",
  ModifyDBInstance: "rds:ModifyDBInstance",
  DeleteDBInstance: "rds:DeleteDBInstance (and rds:CreateDBSnapshot for a final snapshot)",
  AddTagsToResource: "rds:AddTagsToResource",
  RemoveTagsFromResource: "rds:RemoveTagsFromResource",
};

export const DBInstanceError = objectErrorClass<RdsOperation, "dbInstance">("DBInstanceError", "dbInstance");
export type DBInstanceError = InstanceType<typeof DBInstanceError>;

export function isDBInstanceError(err: unknown): err is DBInstanceError {
  return err instanceof DBInstanceError;
}

/** Codes only a change of the spec can fix (ACK's terminal codes, and RDS's other refusals of a value). */
/** The declaration's terminal codes (rds's declaration): only a spec change fixes them. */
const terminalCodes: ReadonlySet<string> = new Set(dbInstanceDeclared.terminalCodes);

/**
 * RDS's codes that are about one spec field whatever the message says: a group, key, role or
 * certificate the field names that RDS cannot find or use. Those that may appear later (a
 * subnet group another tool creates) stay retryable; the field is named either way.
 */
const fieldsByCode: Readonly<Record<string, string>> = {
  DBSubnetGroupNotFound: "spec.dbSubnetGroupName",
  DBSubnetGroupDoesNotCoverEnoughAZs: "spec.dbSubnetGroupName",
  InvalidSubnet: "spec.dbSubnetGroupName",
  InvalidVPCNetworkState: "spec.dbSubnetGroupName",
  DBParameterGroupNotFound: "spec.dbParameterGroupName",
  OptionGroupNotFound: "spec.optionGroupName",
  DBSecurityGroupNotFound: "spec.vpcSecurityGroupIDs",
  AuthorizationNotFound: "spec.vpcSecurityGroupIDs",
  KMSKeyNotAccessible: "spec.kmsKeyID",
  DomainNotFound: "spec.domain",
  CertificateNotFound: "spec.caCertificateIdentifier",
  NetworkTypeNotSupported: "spec.networkType",
  ProvisionedIopsNotAvailableInAZ: "spec.iops",
  StorageTypeNotSupported: "spec.storageType",
};

const genericNames = new Set([...genericErrorNames, "RDSServiceException"]);

/**
 * RDS's error code without the SDK's "Fault" / "Exception" suffix (DBInstanceNotFound,
 * DBInstanceAlreadyExists, InvalidDBInstanceState, InvalidParameterValue, ...), else the
 * query protocol's `Code`, else a Node system error code (ECONNREFUSED), else HTTP<n>.
 */
export function errorCode(err: unknown): string {
  const named = sdkErrorName(err, genericNames) ?? sdkErrorCodeField(err);
  return named === undefined ? fallbackCode(err) : named.replace(/Fault$/, "").replace(/Exception$/, "");
}

/** No DB instance of that identifier in this account and region. */
export function isNotFound(err: unknown): boolean {
  return errorCode(err) === "DBInstanceNotFound";
}

/** CreateDBInstance on an identifier the account already has. */
export function isAlreadyExists(err: unknown): boolean {
  return errorCode(err) === "DBInstanceAlreadyExists";
}

/** The instance is not in a state that allows the call (busy, or already being deleted). */
export function isInvalidState(err: unknown): boolean {
  return errorCode(err) === "InvalidDBInstanceState";
}

/** DeleteDBInstance refused because deletion protection is on. */
export function isDeletionProtected(err: unknown): boolean {
  const code = errorCode(err);
  return (
    (code === "InvalidParameterCombination" || code === "InvalidParameterValue") &&
    /deletion protection|protected DB Instance/i.test(messageOf(err))
  );
}

/** RDS's request parameters → the spec field they come from, for messages that name a parameter. */
const fieldsByParameter: readonly [RegExp, string][] = [
  [/ManageMasterUserPassword/i, "spec.manageMasterUserPassword"],
  [/MasterUserSecretKmsKeyId/i, "spec.masterUserSecretKMSKeyID"],
  [/TdeCredential/i, "spec.tdeCredentialARN"],
  [/MasterUserPassword|password/i, "spec.masterUserPassword"],
  [/MasterUsername|master user ?name/i, "spec.masterUsername"],
  [/DBInstanceIdentifier/i, "spec.dbInstanceIdentifier"],
  [/DBInstanceClass|instance class/i, "spec.dbInstanceClass"],
  [/MaxAllocatedStorage|max storage|storage autoscaling/i, "spec.maxAllocatedStorage"],
  [/AllocatedStorage|storage size|allocated storage/i, "spec.allocatedStorage"],
  [/EngineVersion|engine version|\bversion\b/i, "spec.engineVersion"],
  [/\bEngine\b/i, "spec.engine"],
  [/StorageType|storage type/i, "spec.storageType"],
  [/PerformanceInsightsKMSKeyId/i, "spec.performanceInsightsKMSKeyID"],
  [/PerformanceInsightsRetentionPeriod/i, "spec.performanceInsightsRetentionPeriod"],
  [/EnablePerformanceInsights|Performance Insights/i, "spec.performanceInsightsEnabled"],
  [/DatabaseInsightsMode|Database Insights/i, "spec.databaseInsightsMode"],
  [/KmsKeyId|KMS key/i, "spec.kmsKeyID"],
  [/StorageEncrypted|encrypt/i, "spec.storageEncrypted"],
  [/MultiAZ|Multi-AZ/i, "spec.multiAZ"],
  [/PubliclyAccessible|publicly accessible/i, "spec.publiclyAccessible"],
  [/BackupRetentionPeriod|retention period/i, "spec.backupRetentionPeriod"],
  [/DeletionProtection|deletion protection/i, "spec.deletionProtection"],
  [/DBName|database name/i, "spec.dbName"],
  [/VpcSecurityGroup|security group/i, "spec.vpcSecurityGroupIDs"],
  [/DBSubnetGroup|subnet/i, "spec.dbSubnetGroupName"],
  [/DBParameterGroup|parameter group/i, "spec.dbParameterGroupName"],
  [/OptionGroup|option group/i, "spec.optionGroupName"],
  [/MonitoringRoleArn|monitoring role/i, "spec.monitoringRoleARN"],
  [/MonitoringInterval|monitoring interval/i, "spec.monitoringInterval"],
  [/DBPortNumber|\bPort\b/i, "spec.port"],
  [/StorageThroughput|throughput/i, "spec.storageThroughput"],
  [/\bIops\b|\bIOPS\b/i, "spec.iops"],
  [/PreferredBackupWindow|backup window/i, "spec.preferredBackupWindow"],
  [/PreferredMaintenanceWindow|maintenance window/i, "spec.preferredMaintenanceWindow"],
  [/CACertificateIdentifier|certificate/i, "spec.caCertificateIdentifier"],
  [/CloudwatchLogsExport|log types?/i, "spec.enableCloudwatchLogsExports"],
  [/AvailabilityZone|availability zone/i, "spec.availabilityZone"],
  [/LicenseModel|license/i, "spec.licenseModel"],
  [/ProcessorFeature|coreCount|threadsPerCore/i, "spec.processorFeatures"],
  [/NetworkType|network type/i, "spec.networkType"],
  [/IAMDatabaseAuthentication|IAM database authentication/i, "spec.enableIAMDatabaseAuthentication"],
  [/DomainIAMRoleName/i, "spec.domainIAMRoleName"],
  [/\bDomain\b/i, "spec.domain"],
  [/CharacterSetName|character set/i, "spec.characterSetName"],
  [/Timezone|time zone/i, "spec.timezone"],
  [/PromotionTier/i, "spec.promotionTier"],
  [/CopyTagsToSnapshot/i, "spec.copyTagsToSnapshot"],
  [/\bTags?\b/i, "spec.tags"],
];

/** The spec field an RDS message names, when the operation did not say. */
export function fieldFromMessage(message: string): string | undefined {
  for (const [pattern, field] of fieldsByParameter) if (pattern.test(message)) return field;
  return undefined;
}

export interface ErrorContext {
  readonly operation: RdsOperation;
  readonly dbInstance: string;
  /** `spec.<field>` the operation was applying, when it was one field only. */
  readonly field?: string;
  /** The spec fields the call was applying (ModifyDBInstance), for messages that name none. */
  readonly fields?: readonly string[];
  /**
   * The spec fields whose secret values the call carried (spec.masterUserPassword): RDS's
   * message and the SDK error are then withheld from the error.
   */
  readonly secretFields?: readonly string[];
}

/** What the shared classification (../service-error.ts) needs of RDS: its names, its codes. */
const rules: ServiceRules<RdsOperation> = {
  service: "RDS",
  noun: "DB instance",
  genericNames,
  terminalCodes,
  iamActions,
  refusedValue: new Set([
    "InvalidParameter",
    "InvalidParameterValue",
    "InvalidParameterCombination",
    "MissingParameter",
    "ValidationError",
    "InvalidDBInstanceIdentifier",
  ]),
  accessDenied: new Set([
    "AccessDenied",
    "AccessDeniedException",
    "UnauthorizedOperation",
    "InvalidClientTokenId",
  ]),
  gone: new Set(["DBInstanceNotFound"]),
  throttled: new Set(["Throttling", "ThrottlingException", "RequestLimitExceeded"]),
};

/** Wraps any failure of an RDS call into a DBInstanceError that says what to do about it. */
export function classifyError(err: unknown, ctx: ErrorContext): DBInstanceError {
  if (isDBInstanceError(err)) return err;
  const code = errorCode(err);
  const { operation, dbInstance, secretFields } = ctx;
  if (operation === "DeleteDBInstance" && isDeletionProtected(err)) {
    const field = "spec.deletionProtection";
    const refused = { operation, name: dbInstance, code, field, keep: "instance", secretFields };
    return deletionProtectedError(DBInstanceError, rules, err, refused);
  }
  // The field is read from RDS's own words, which it writes without the password; reading them
  // with the password cut out would make the field shown depend on where the password occurs.
  const named = terminalCodes.has(code) ? fieldFromMessage(messageOf(err)) : undefined;
  const field =
    ctx.field ??
    fieldsByCode[code] ??
    (named !== undefined && (ctx.fields === undefined || ctx.fields.includes(named))
      ? named
      : ctx.fields?.length === 1
        ? ctx.fields[0]
        : named);
  const applying =
    field === undefined && ctx.fields !== undefined && ctx.fields.length > 1
      ? ` (applying ${ctx.fields.join(", ")})`
      : "";
  const failure = {
    operation,
    name: dbInstance,
    code,
    field,
    hint: hint(code, ctx, field),
    applying,
    secretFields,
  };
  return failureError(DBInstanceError, rules, err, failure);
}

/** RDS's own hints; the codes of `rules` (and 5xx answers) get the shared ones. */
function hint(code: string, ctx: ErrorContext, field: string | undefined): string | undefined {
  switch (code) {
    case "StorageTypeNotSupported":
      return " (this storage type is not offered for the engine or class; fix spec.storageType)";
    case "InvalidDBInstanceState":
      return ctx.operation === "DeleteDBInstance"
        ? " (the DB instance is busy with an earlier change; retrying)"
        : " (the DB instance is busy with an earlier change: RDS applies changes once it is available; retrying)";
    case "DBInstanceAlreadyExists":
      return ` (a DB instance "${ctx.dbInstance}" already exists in this account and region)`;
    case "DBSnapshotAlreadyExists":
      return " (a DB snapshot of the name rds.services.k8s.aws/final-db-snapshot-identifier gives already exists; choose another name, or skip the final snapshot; retrying)";
    case "InstanceQuotaExceeded":
    case "StorageQuotaExceeded":
    case "SnapshotQuotaExceeded":
      return " (an RDS quota of this account is reached; raise it or free some; retrying)";
    case "InsufficientDBInstanceCapacity":
      return ` (RDS has no capacity for this instance class here right now; retrying, or choose another ${field === "spec.dbInstanceClass" ? "class" : "spec.dbInstanceClass"})`;
    case "KMSKeyNotAccessible":
      return " (the KMS key for storage encryption is not usable; retrying)";
    case "DBSubnetGroupNotFound":
    case "DBParameterGroupNotFound":
    case "OptionGroupNotFound":
    case "DBSecurityGroupNotFound":
    case "DomainNotFound":
    case "CertificateNotFound":
      return ` (RDS finds no such ${field ?? "resource"} in this account and region: create it or fix ${field ?? "the spec"}; retrying)`;
    case "AuthorizationNotFound":
    case "InvalidSubnet":
    case "InvalidVPCNetworkState":
      return ` (RDS cannot place the instance in that network; fix ${field ?? "the spec"} or the VPC; retrying)`;
    case "NetworkTypeNotSupported":
    case "ProvisionedIopsNotAvailableInAZ":
    case "DBSubnetGroupDoesNotCoverEnoughAZs":
      return ` (RDS refused the value of ${field}; fix ${field} and the DB instance is reconciled again)`;
    default:
      return undefined;
  }
}
