// Which settings of a DB instance differ between the spec and what RDS has (drift), and late
// initialisation of the ones RDS gives a default. Pure.
//
// What an absent field means (the declaration's notes say it in each field's description):
// - "whatever RDS has" for the settings RDS gives a default (engineVersion, allocatedStorage,
//   port, windows, parameter and option groups, subnet group, security groups, CA, ...):
//   copied into the spec once by `lateInitialize`, as ACK does, and managed from then on.
// - off for copyTagsToSnapshot, enableIAMDatabaseAuthentication, performanceInsightsEnabled
//   (false), enableCloudwatchLogsExports (none), monitoringInterval (0), maxAllocatedStorage
//   (no autoscaling) and domain (none): RDS's value is drift, taken back (mapping.ts `removal`).
// - kept for manageMasterUserPassword, masterUserSecretKMSKeyID, tdeCredentialARN and
//   processorFeatures (unless useDefaultProcessorFeatures): compared only while the spec sets them.
// - tags absent means none: out-of-band additions are corrected, as ACK does.
// Never compared: what RDS cannot change (identifier, engine, masterUsername, dbName,
// storageEncrypted, kmsKeyID, availabilityZone, characterSetName, ...: immutable at admission)
// and the secrets (RDS never reveals them; the master password's Secret changes are applied
// instead, see dbinstance.ts).
//
// Compared canonically, as RDS normalises: the maintenance window and group names
// case-insensitively, security groups, log types and processor features as sets, KMS keys by
// key ID or ARN. Two comparisons are one-sided, because RDS only moves one way:
// - engineVersion: "16" matches "16.4" (RDS picks the minor version, as in ACK); within a major
//   version only a spec newer than RDS is drift — a minor upgrade RDS applied on its own
//   (auto minor version upgrade) is not undone (RDS cannot downgrade), one the spec asks for is
//   applied. A different major version is drift either way (RDS refuses a downgrade: the error
//   says so).
// - allocatedStorage: only a spec larger than RDS is drift. Storage grown outside the spec (by
//   hand or by storage autoscaling) cannot be shrunk back (admission refuses a smaller spec too).
import { type ComparedField, declaredDrift } from "../declared-drift.ts";
import { type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { dbInstanceDeclared, dbInstanceFieldGroups } from "./generated/db-instance-fields.ts";
import { type DBInstanceFields, type StorageType, storageTypes } from "./schema.ts";

/** The compared fields: ModifyDBInstance's, then tags (the declaration's groups). */
export type DBInstanceField = ComparedField<typeof dbInstanceFieldGroups>;

/** Fields whose absence in the spec means "take RDS's value" (see the file comment). */
export const lateInitializedFields =
  dbInstanceDeclared.lateInitialized satisfies readonly (keyof DBInstanceFields)[];
export type LateInitializedField = (typeof lateInitializedFields)[number];

export type FieldDifference = FieldDifferenceOf<DBInstanceField>;

/** The fields to change so that RDS matches `desired`; the hooks are RDS's one-way moves and key names. */
export const diff: (desired: DBInstanceFields, observed: DBInstanceFields) => FieldDifference[] =
  declaredDrift<DBInstanceFields, typeof dbInstanceFieldGroups>(dbInstanceFieldGroups, {
    engineVersion: (desired, observed) =>
      desired.engineVersion === undefined ||
      !engineVersionDrift(desired.engineVersion, observed.engineVersion),
    allocatedStorage: (desired, observed) =>
      desired.allocatedStorage === undefined ||
      (observed.allocatedStorage !== undefined && desired.allocatedStorage <= observed.allocatedStorage),
    maxAllocatedStorage: (desired, observed) => {
      // RDS reports no maximum (or one no larger than the storage) when autoscaling is off.
      const allocated = observed.allocatedStorage ?? 0;
      const autoscaling = (m: number | undefined) => (m !== undefined && m > allocated ? m : undefined);
      return desired.maxAllocatedStorage === undefined
        ? autoscaling(observed.maxAllocatedStorage) === undefined
        : desired.maxAllocatedStorage === observed.maxAllocatedStorage;
    },
    performanceInsightsKMSKeyID: (desired, observed) =>
      desired.performanceInsightsKMSKeyID === undefined ||
      sameKmsKey(desired.performanceInsightsKMSKeyID, observed.performanceInsightsKMSKeyID),
    masterUserSecretKMSKeyID: (desired, observed) =>
      desired.masterUserSecretKMSKeyID === undefined ||
      sameKmsKey(desired.masterUserSecretKMSKeyID, observed.masterUserSecretKMSKeyID),
    processorFeatures: (desired, observed) => {
      const want = desired.processorFeatures;
      if (want === undefined) {
        return (
          desired.useDefaultProcessorFeatures !== true || (observed.processorFeatures ?? []).length === 0
        );
      }
      const feature = (f: { name?: string | undefined; value?: string | undefined }) =>
        `${f.name}=${f.value}`;
      return sameSet(want.map(feature), (observed.processorFeatures ?? []).map(feature));
    },
  });

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * Whether a KMS key the spec names is the one RDS reports (always as a key ARN): the same ARN,
 * or the key ID it ends with. An alias cannot be resolved without KMS: it is taken as matching,
 * so it never causes a change at every resync.
 */
export function sameKmsKey(desired: string, observed: string | undefined): boolean {
  if (observed === undefined) return false;
  if (desired === observed || observed.endsWith(`:key/${desired}`)) return true;
  return /(^|:)alias\//.test(desired);
}

/** Whether RDS's engine version must be changed to the spec's (see the file comment). */
export function engineVersionDrift(desired: string, observed: string | undefined): boolean {
  if (observed === undefined) return false;
  if (observed === desired || observed.startsWith(`${desired}.`)) return false;
  const major = (v: string) => /^[0-9]+/.exec(v)?.[0];
  if (major(desired) !== major(observed)) return true;
  return compareVersions(desired, observed) > 0;
}

/** Numeric segments compare as numbers, others as strings: "16.10" > "16.9". */
export function compareVersions(a: string, b: string): number {
  const as = a.split(/[._-]/);
  const bs = b.split(/[._-]/);
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = as[i];
    const y = bs[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    const c = Number.isNaN(nx) || Number.isNaN(ny) ? (x < y ? -1 : x > y ? 1 : 0) : nx - ny;
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  return 0;
}

/** A storage type the spec may hold (RDS may report others, such as aurora's). */
export function specStorageType(t: string | undefined): StorageType | undefined {
  return t !== undefined && (storageTypes as readonly string[]).includes(t) ? (t as StorageType) : undefined;
}

/**
 * Fills the late-initialised fields the spec leaves out with what RDS has (only values the
 * spec's schema accepts: a storage type it does not know is left out). Returns the spec (a new object when
 * something was filled) and the fields filled.
 */
export function lateInitialize<Spec extends DBInstanceFields>(
  spec: Spec,
  observed: DBInstanceFields,
): { spec: Spec; initialized: LateInitializedField[] } {
  return lateInitializeFields(spec, lateInitializedFields, (field) => {
    if (field === "storageType") return specStorageType(observed.storageType);
    // RDS refuses an Availability Zone beside Multi-AZ: a Multi-AZ instance's is not copied.
    if (field === "availabilityZone")
      return observed.multiAZ === true ? undefined : observed.availabilityZone;
    return observed[field];
  });
}
