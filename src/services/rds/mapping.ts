// DBInstance spec ⇄ RDS API shapes, as pure functions: the ARN, CreateDBInstance's input, the
// ModifyDBInstance input for a set of changed fields, and a DescribeDBInstances answer in spec
// form (ACK's field names: dbInstanceClass, allocatedStorage, multiAZ, ...) and status form.
//
// RDS stores identifiers lowercase and matches them case-insensitively; `awsIdentifier` is the
// one place the spec's identifier becomes what RDS is asked about, so a spec written "MyDB"
// reads, tags and deletes "mydb".
import type {
  DBInstance as AwsDBInstance,
  CreateDBInstanceCommandInput,
  ModifyDBInstanceCommandInput,
} from "@aws-sdk/client-rds";
import { parseRegionalArn, regionalArn } from "../arn.ts";
import { fieldsSetBy } from "../declared-drift.ts";
import { awsMembers, specMembers, toAws } from "../shape-codec.ts";
import { awsTags, tagMapFromAws, tagMapOf, userTags, withOwnerTags } from "../tag-list.ts";
import {
  dbInstanceCodecs,
  dbInstanceDeclared,
  dbInstanceFieldGroups,
  dbInstanceStatusCodecs,
} from "./generated/db-instance-fields.ts";
import type { DBInstanceEngine, DBInstanceFields, Tag } from "./schema.ts";

/** What RDS calls the instance: the spec's identifier, lowercased (RDS stores it so). */
export function awsIdentifier(spec: Pick<DBInstanceFields, "dbInstanceIdentifier">): string {
  return spec.dbInstanceIdentifier.toLowerCase();
}

/** `arn:<partition>:rds:<region>:<account>:db:<identifier>`: known before the instance exists. */
export function arnOf(identifier: string, region: string, account: string): string {
  return regionalArn("rds", region, account, `db:${identifier.toLowerCase()}`);
}

/** The region, account and identifier a DB instance ARN names; undefined when it is not one. */
export function parseDBInstanceArn(
  arn: string,
): { readonly region: string; readonly account: string; readonly identifier: string } | undefined {
  const parts = parseRegionalArn(arn, "rds");
  if (parts?.resource.length !== 2 || parts.resource[0] !== "db") return undefined;
  return { region: parts.region, account: parts.account, identifier: parts.resource[1] ?? "" };
}

// ---- tags ----

export { awsTags, tagMapOf, userTags };
/** The tag map AWS should hold: the user's tags and the ownership tags (which win). */
export const instanceTags = withOwnerTags;

// ---- spec → AWS ----

/**
 * CreateDBInstance with every setting the spec has, the master password (from its Secret, never
 * from the spec) and every tag (the user's and ownership), so the instance never exists untagged.
 */
export function createDBInstanceInput(
  spec: DBInstanceFields,
  ownerTags: Readonly<Record<string, string>>,
  masterUserPassword: string | undefined,
): CreateDBInstanceCommandInput {
  const tags = instanceTags(spec.tags, ownerTags);
  return {
    DBInstanceIdentifier: awsIdentifier(spec),
    ...(awsMembers(dbInstanceCodecs, spec, createFields) as Omit<
      CreateDBInstanceCommandInput,
      "DBInstanceIdentifier"
    > & { DBInstanceClass: string; Engine: string }),
    ...(masterUserPassword === undefined ? {} : { MasterUserPassword: masterUserPassword }),
    ...(Object.keys(tags).length > 0 ? { Tags: awsTags(tags) } : {}),
  };
}

/** The fields ModifyDBInstance can change, by spec field, in the order they are compared (the declaration's). */
export const modifiableFields = fieldsSetBy(dbInstanceFieldGroups, "ModifyDBInstance");
export type ModifiableField = (typeof modifiableFields)[number];

/**
 * The spec fields CreateDBInstance takes as they are (the generated codecs name their members):
 * every field ModifyDBInstance can change, the ones RDS fixes at creation (the declaration's
 * immutable fields) and the TDE password. Not here: the identifier (lowercased), the password (a
 * Secret), tags (with ownership tags), useDefaultProcessorFeatures (ModifyDBInstance's) and the
 * fields the spec check refuses.
 */
export const createFields: readonly string[] = [
  ...dbInstanceDeclared.immutable.filter((f) => f !== dbInstanceDeclared.identifier),
  "tdeCredentialPassword",
  ...modifiableFields,
];

/** The ModifyDBInstance parameter each modifiable field is sent as (where it is not its create name). */
const modifyParameters = {
  ...(Object.fromEntries(modifiableFields.map((f) => [f, dbInstanceCodecs[f][0]])) as Record<
    ModifiableField,
    keyof ModifyDBInstanceCommandInput
  >),
  port: "DBPortNumber",
  enableCloudwatchLogsExports: "CloudwatchLogsExportConfiguration",
} as const satisfies Record<ModifiableField, keyof ModifyDBInstanceCommandInput>;

/**
 * What ModifyDBInstance is sent for a field the spec no longer has, where RDS can take it back
 * (the declaration's notes say which): off, 0, autoscaling off, out of the domain, the class's
 * processor features. Undefined: the field is kept (nothing to send).
 */
function removal(
  field: ModifiableField,
  desired: DBInstanceFields,
  observed: DBInstanceFields,
): Partial<ModifyDBInstanceCommandInput> | undefined {
  switch (field) {
    case "copyTagsToSnapshot":
    case "enableIAMDatabaseAuthentication":
    case "performanceInsightsEnabled":
      return { [modifyParameters[field]]: false };
    case "monitoringInterval":
      return { MonitoringInterval: 0 };
    case "maxAllocatedStorage": {
      // RDS turns storage autoscaling off when the maximum is the allocated storage.
      const allocated = desired.allocatedStorage ?? observed.allocatedStorage;
      return allocated === undefined ? undefined : { MaxAllocatedStorage: allocated };
    }
    case "domain":
      return { DisableDomain: true };
    case "processorFeatures":
      return desired.useDefaultProcessorFeatures === true ? { UseDefaultProcessorFeatures: true } : undefined;
    default:
      return undefined;
  }
}

/** The log types to turn on and off so that RDS exports exactly `desired` (absent: none). */
export function cloudwatchLogsChange(
  desired: readonly string[] | undefined,
  observed: readonly string[] | undefined,
): { EnableLogTypes: string[]; DisableLogTypes: string[] } {
  const want = new Set(desired ?? []);
  const have = new Set(observed ?? []);
  return {
    EnableLogTypes: [...want].filter((t) => !have.has(t)).sort(),
    DisableLogTypes: [...have].filter((t) => !want.has(t)).sort(),
  };
}

/**
 * One ModifyDBInstance for the changed fields (and the master password when its Secret
 * changed, or when manageMasterUserPassword turns off: RDS then needs one). ApplyImmediately,
 * as ACK does: a spec change (or a drift correction) takes effect now, not in the next
 * maintenance window. AllowMajorVersionUpgrade with an engine version change, as ACK does: the
 * spec is the decision. A new TDE credential ARN carries its password.
 */
export function modifyDBInstanceInput(
  desired: DBInstanceFields,
  fields: readonly ModifiableField[],
  masterUserPassword: string | undefined,
  observed: DBInstanceFields = desired,
): ModifyDBInstanceCommandInput {
  const input: ModifyDBInstanceCommandInput = {
    DBInstanceIdentifier: awsIdentifier(desired),
    ApplyImmediately: true,
  };
  for (const f of fields) {
    if (f === "enableCloudwatchLogsExports") {
      // A change, not a list: absent (none) turns every exported log type off.
      input.CloudwatchLogsExportConfiguration = cloudwatchLogsChange(
        desired.enableCloudwatchLogsExports,
        observed.enableCloudwatchLogsExports,
      );
      continue;
    }
    if (desired[f] === undefined) {
      Object.assign(input, removal(f, desired, observed) ?? {});
      continue;
    }
    const [, codec] = dbInstanceCodecs[f];
    Object.assign(input, { [modifyParameters[f]]: toAws(codec, desired[f]) });
    if (f === "engineVersion") input.AllowMajorVersionUpgrade = true;
    if (f === "tdeCredentialARN" && desired.tdeCredentialPassword !== undefined) {
      input.TdeCredentialPassword = desired.tdeCredentialPassword;
    }
  }
  if (masterUserPassword !== undefined) input.MasterUserPassword = masterUserPassword;
  return input;
}

// ---- AWS → spec ----

/**
 * The spec fields DescribeDBInstances' DBInstance reports under their create names (the
 * generated codecs read them). The others are read by hand below: RDS reports them as
 * memberships (security groups, parameter and option groups, the domain) or under other names.
 */
const describedFields = [
  "dbInstanceClass",
  "engineVersion",
  "allocatedStorage",
  "masterUsername",
  "dbName",
  "multiAZ",
  "availabilityZone",
  "storageType",
  "iops",
  "storageThroughput",
  "maxAllocatedStorage",
  "storageEncrypted",
  "kmsKeyID",
  "publiclyAccessible",
  "networkType",
  "caCertificateIdentifier",
  "backupRetentionPeriod",
  "preferredBackupWindow",
  "preferredMaintenanceWindow",
  "backupTarget",
  "copyTagsToSnapshot",
  "autoMinorVersionUpgrade",
  "licenseModel",
  "characterSetName",
  "ncharCharacterSetName",
  "timezone",
  "monitoringInterval",
  "monitoringRoleARN",
  "performanceInsightsKMSKeyID",
  "performanceInsightsRetentionPeriod",
  "databaseInsightsMode",
  "promotionTier",
  "processorFeatures",
  "customIAMInstanceProfile",
  "tdeCredentialARN",
  "deletionProtection",
] as const satisfies readonly (keyof DBInstanceFields & keyof typeof dbInstanceCodecs)[];

/** The fields RDS reports as pending modifications under their create names (PendingModifiedValues). */
const pendingFields = [
  "dbInstanceClass",
  "allocatedStorage",
  "port",
  "backupRetentionPeriod",
  "multiAZ",
  "engineVersion",
  "licenseModel",
  "iops",
  "storageThroughput",
  "storageType",
  "caCertificateIdentifier",
  "dbSubnetGroupName",
  "processorFeatures",
] as const satisfies readonly (keyof DBInstanceFields & keyof typeof dbInstanceCodecs)[];

/**
 * What DescribeDBInstances says, in spec form (tags: every tag, ownership tags included). Values
 * RDS holds as pending modifications count as the instance's (as ACK does): a change already
 * asked for is not drift to be asked for again.
 */
export function fieldsFromAws(instance: AwsDBInstance, specIdentifier?: string): DBInstanceFields {
  const pending = instance.PendingModifiedValues ?? {};
  const tags = tagListOf(tagMapFromAws(instance.TagList));
  const described = specMembers(dbInstanceCodecs, instance as Record<string, unknown>, describedFields);
  const pendingValues = specMembers(dbInstanceCodecs, pending as Record<string, unknown>, pendingFields);
  const domain = instance.DomainMemberships?.[0];
  const secret = instance.MasterUserSecret;
  const logs = pendingLogExports(instance);
  return {
    ...(described as Partial<DBInstanceFields>),
    dbInstanceIdentifier: specIdentifier ?? instance.DBInstanceIdentifier ?? "",
    dbInstanceClass: instance.DBInstanceClass ?? "",
    engine: (instance.Engine ?? "") as DBInstanceEngine,
    ...defined("port", instance.Endpoint?.Port),
    ...defined("dbSubnetGroupName", instance.DBSubnetGroup?.DBSubnetGroupName),
    ...defined(
      "vpcSecurityGroupIDs",
      instance.VpcSecurityGroups?.flatMap((g) => (g.VpcSecurityGroupId ? [g.VpcSecurityGroupId] : [])),
    ),
    ...defined("dbParameterGroupName", instance.DBParameterGroups?.[0]?.DBParameterGroupName),
    ...defined("optionGroupName", instance.OptionGroupMemberships?.[0]?.OptionGroupName),
    ...defined("enableIAMDatabaseAuthentication", instance.IAMDatabaseAuthenticationEnabled),
    ...defined("performanceInsightsEnabled", instance.PerformanceInsightsEnabled),
    ...defined("enableCloudwatchLogsExports", logs),
    ...defined("enableCustomerOwnedIP", instance.CustomerOwnedIpEnabled),
    ...defined("domain", domain?.Domain),
    ...defined("domainIAMRoleName", domain?.IAMRoleName),
    ...(secret === undefined ? {} : { manageMasterUserPassword: true }),
    ...defined("masterUserSecretKMSKeyID", secret?.KmsKeyId),
    ...(pendingValues as Partial<DBInstanceFields>),
    ...defined("enableIAMDatabaseAuthentication", pending.IAMDatabaseAuthenticationEnabled),
    ...(tags.length > 0 ? { tags } : {}),
  } as DBInstanceFields;
}

/** The log types exported once RDS has applied what is pending (as ACK counts them). */
function pendingLogExports(instance: AwsDBInstance): string[] | undefined {
  const enabled = instance.EnabledCloudwatchLogsExports;
  const p = instance.PendingModifiedValues?.PendingCloudwatchLogsExports;
  if (p === undefined) return enabled;
  const off = new Set(p.LogTypesToDisable ?? []);
  return [...new Set([...(enabled ?? []).filter((t) => !off.has(t)), ...(p.LogTypesToEnable ?? [])])];
}

function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined || value === null ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Every tag in spec form, ownership tags included, sorted by key. */
function tagListOf(tags: Readonly<Record<string, string>>): Tag[] {
  return Object.entries(tags)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ({ key, value }));
}

// ---- status ----

/**
 * The states in which crossrole changes an instance: `available`, and `storage-full` (where
 * growing the storage is the fix). ACK syncs only in `available`; everything else is RDS at work
 * (creating, modifying, backing-up, rebooting, upgrading, ...) or a state only AWS or an
 * operator can leave (stopped, failed, incompatible-*, ...).
 */
export const steadyStatuses: ReadonlySet<string> = new Set(["available", "storage-full"]);

/** States RDS does not leave on its own (ACK treats most as terminal): looked at less often. */
export const stuckStatuses: ReadonlySet<string> = new Set([
  "stopped",
  "failed",
  "inaccessible-encryption-credentials",
  "inaccessible-encryption-credentials-recoverable",
  "incompatible-network",
  "incompatible-option-group",
  "incompatible-parameters",
  "incompatible-restore",
  "incompatible-credentials",
  "restore-error",
  "insufficient-capacity",
  "unsupported-configuration",
  "automation-paused",
]);

/**
 * ACK's status fields from a DescribeDBInstances answer (status.dbInstanceStatus, endpoint,
 * pendingModifiedValues, vpcSecurityGroups, ...), through the generated status codecs.
 * Timestamps in whole seconds, as metav1.Time (and so ACK) writes them.
 */
export function statusFromInstance(instance: AwsDBInstance): Record<string, unknown> {
  const status = specMembers(
    dbInstanceStatusCodecs,
    instance as Record<string, unknown>,
    Object.keys(dbInstanceStatusCodecs),
  );
  return JSON.parse(
    JSON.stringify(status, (_k, v) =>
      typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/.test(v)
        ? v.replace(/\.\d+Z$/, "Z")
        : v,
    ),
  );
}
