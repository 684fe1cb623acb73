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
import { awsTags, tagMapFromAws, tagMapOf, userTags, withOwnerTags } from "../tag-list.ts";
import type { DBInstanceEngine, DBInstanceFields, StorageType, Tag } from "./schema.ts";

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
    DBInstanceClass: spec.dbInstanceClass,
    Engine: spec.engine,
    ...(spec.engineVersion === undefined ? {} : { EngineVersion: spec.engineVersion }),
    ...(spec.allocatedStorage === undefined ? {} : { AllocatedStorage: spec.allocatedStorage }),
    ...(spec.masterUsername === undefined ? {} : { MasterUsername: spec.masterUsername }),
    ...(masterUserPassword === undefined ? {} : { MasterUserPassword: masterUserPassword }),
    ...(spec.dbName === undefined ? {} : { DBName: spec.dbName }),
    ...(spec.multiAZ === undefined ? {} : { MultiAZ: spec.multiAZ }),
    ...(spec.storageType === undefined ? {} : { StorageType: spec.storageType }),
    ...(spec.storageEncrypted === undefined ? {} : { StorageEncrypted: spec.storageEncrypted }),
    ...(spec.publiclyAccessible === undefined ? {} : { PubliclyAccessible: spec.publiclyAccessible }),
    ...(spec.backupRetentionPeriod === undefined
      ? {}
      : { BackupRetentionPeriod: spec.backupRetentionPeriod }),
    ...(spec.deletionProtection === undefined ? {} : { DeletionProtection: spec.deletionProtection }),
    ...(Object.keys(tags).length > 0 ? { Tags: awsTags(tags) } : {}),
  };
}

/** The fields ModifyDBInstance can change, by spec field. */
export const modifiableFields = [
  "dbInstanceClass",
  "engineVersion",
  "allocatedStorage",
  "multiAZ",
  "storageType",
  "publiclyAccessible",
  "backupRetentionPeriod",
  "deletionProtection",
] as const;
export type ModifiableField = (typeof modifiableFields)[number];

/** The ModifyDBInstance parameter each modifiable field is sent as. */
const modifyParameters = {
  dbInstanceClass: "DBInstanceClass",
  engineVersion: "EngineVersion",
  allocatedStorage: "AllocatedStorage",
  multiAZ: "MultiAZ",
  storageType: "StorageType",
  publiclyAccessible: "PubliclyAccessible",
  backupRetentionPeriod: "BackupRetentionPeriod",
  deletionProtection: "DeletionProtection",
} as const satisfies Record<ModifiableField, keyof ModifyDBInstanceCommandInput>;

/**
 * One ModifyDBInstance for the changed fields (and the master password when its Secret
 * changed). ApplyImmediately, as ACK does: a spec change (or a drift correction) takes effect
 * now, not in the next maintenance window. AllowMajorVersionUpgrade with an engine version
 * change, as ACK does: the spec is the decision.
 */
export function modifyDBInstanceInput(
  desired: DBInstanceFields,
  fields: readonly ModifiableField[],
  masterUserPassword: string | undefined,
): ModifyDBInstanceCommandInput {
  const input: ModifyDBInstanceCommandInput = {
    DBInstanceIdentifier: awsIdentifier(desired),
    ApplyImmediately: true,
  };
  for (const f of fields) {
    const value = desired[f];
    if (value === undefined) continue;
    Object.assign(input, { [modifyParameters[f]]: value });
    if (f === "engineVersion") input.AllowMajorVersionUpgrade = true;
  }
  if (masterUserPassword !== undefined) input.MasterUserPassword = masterUserPassword;
  return input;
}

// ---- AWS → spec ----

/**
 * What DescribeDBInstances says, in spec form (tags: every tag, ownership tags included). Values
 * RDS holds as pending modifications count as the instance's (as ACK does): a change already
 * asked for is not drift to be asked for again.
 */
export function fieldsFromAws(instance: AwsDBInstance, specIdentifier?: string): DBInstanceFields {
  const pending = instance.PendingModifiedValues ?? {};
  const tags = tagListOf(tagMapFromAws(instance.TagList));
  const storageType = pending.StorageType ?? instance.StorageType;
  return {
    dbInstanceIdentifier: specIdentifier ?? instance.DBInstanceIdentifier ?? "",
    dbInstanceClass: pending.DBInstanceClass ?? instance.DBInstanceClass ?? "",
    engine: (instance.Engine ?? "") as DBInstanceEngine,
    ...defined("engineVersion", pending.EngineVersion ?? instance.EngineVersion),
    ...defined("allocatedStorage", pending.AllocatedStorage ?? instance.AllocatedStorage),
    ...defined("masterUsername", instance.MasterUsername),
    ...defined("dbName", instance.DBName),
    ...defined("multiAZ", pending.MultiAZ ?? instance.MultiAZ),
    ...(storageType === undefined ? {} : { storageType: storageType as StorageType }),
    ...defined("storageEncrypted", instance.StorageEncrypted),
    ...defined("publiclyAccessible", instance.PubliclyAccessible),
    ...defined("backupRetentionPeriod", pending.BackupRetentionPeriod ?? instance.BackupRetentionPeriod),
    ...defined("deletionProtection", instance.DeletionProtection),
    ...(tags.length > 0 ? { tags } : {}),
  };
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

/** ACK's status fields from a DescribeDBInstances answer (status.dbInstanceStatus, endpoint, ...). */
export function statusFromInstance(instance: AwsDBInstance): Record<string, unknown> {
  const e = instance.Endpoint;
  const endpoint = e
    ? {
        ...(e.Address ? { address: e.Address } : {}),
        ...(e.Port === undefined ? {} : { port: e.Port }),
        ...(e.HostedZoneId ? { hostedZoneID: e.HostedZoneId } : {}),
      }
    : undefined;
  return {
    ...(instance.DBInstanceStatus ? { dbInstanceStatus: instance.DBInstanceStatus } : {}),
    ...(endpoint && Object.keys(endpoint).length > 0 ? { endpoint } : {}),
    ...(instance.DbiResourceId ? { dbiResourceID: instance.DbiResourceId } : {}),
    ...(instance.InstanceCreateTime
      ? { instanceCreateTime: secondsPrecision(instance.InstanceCreateTime) }
      : {}),
  };
}

/** metav1.Time's form: RFC 3339 in UTC, whole seconds. */
function secondsPrecision(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}
