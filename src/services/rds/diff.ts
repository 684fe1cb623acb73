// Which settings of a DB instance differ between the spec and what RDS has (drift), and late
// initialisation of the ones RDS gives a default. Pure.
//
// What an absent field means: "whatever RDS has" (RDS's default at creation), copied into the
// spec once by `lateInitialize` — as ACK late-initialises engineVersion, allocatedStorage,
// masterUsername, dbName, multiAZ, storageType, storageEncrypted, publiclyAccessible,
// backupRetentionPeriod and deletionProtection — and managed from then on. `tags` absent means
// none: out-of-band additions are corrected, as ACK does.
//
// Compared (and changed with ModifyDBInstance): dbInstanceClass, engineVersion,
// allocatedStorage, multiAZ, storageType, publiclyAccessible, backupRetentionPeriod,
// deletionProtection; tags with Add/RemoveTagsFromResource. Never compared: what RDS cannot
// change (dbInstanceIdentifier, engine, masterUsername, dbName, storageEncrypted: immutable at
// admission) and masterUserPassword (RDS never reveals it; its Secret's changes are applied
// instead, see dbinstance.ts).
//
// Two comparisons are one-sided, because RDS only moves one way:
// - engineVersion: "16" matches "16.4" (RDS picks the minor version, as in ACK); within a major
//   version only a spec newer than RDS is drift — a minor upgrade RDS applied on its own
//   (auto minor version upgrade) is not undone (RDS cannot downgrade), one the spec asks for is
//   applied. A different major version is drift either way (RDS refuses a downgrade: the error
//   says so).
// - allocatedStorage: only a spec larger than RDS is drift. Storage grown outside the spec (by
//   hand or by storage autoscaling) cannot be shrunk back (admission refuses a smaller spec too).
import { canonicalTagMap, sameJson } from "../canonical-forms.ts";
import { differingFields, type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { modifiableFields, tagMapOf } from "./mapping.ts";
import { type DBInstanceFields, type StorageType, storageTypes } from "./schema.ts";

/** The compared fields: ModifyDBInstance's, then tags. */
export const dbInstanceFields = [...modifiableFields, "tags"] as const;
export type DBInstanceField = (typeof dbInstanceFields)[number];

/** Fields whose absence in the spec means "take RDS's value" (see the file comment). */
export const lateInitializedFields = [
  "engineVersion",
  "allocatedStorage",
  "masterUsername",
  "dbName",
  "multiAZ",
  "storageType",
  "storageEncrypted",
  "publiclyAccessible",
  "backupRetentionPeriod",
  "deletionProtection",
] as const satisfies readonly (keyof DBInstanceFields)[];
export type LateInitializedField = (typeof lateInitializedFields)[number];

export type FieldDifference = FieldDifferenceOf<DBInstanceField>;

/** The fields to change so that RDS matches `desired`. */
export function diff(desired: DBInstanceFields, observed: DBInstanceFields): FieldDifference[] {
  return differingFields(dbInstanceFields, desired, observed, equalField);
}

function equalField(field: DBInstanceField, desired: DBInstanceFields, observed: DBInstanceFields): boolean {
  switch (field) {
    case "engineVersion":
      return (
        desired.engineVersion === undefined ||
        !engineVersionDrift(desired.engineVersion, observed.engineVersion)
      );
    case "allocatedStorage":
      return (
        desired.allocatedStorage === undefined ||
        (observed.allocatedStorage !== undefined && desired.allocatedStorage <= observed.allocatedStorage)
      );
    case "tags":
      return sameJson(canonicalTags(desired), canonicalTags(observed));
    default: {
      const want = desired[field];
      return want === undefined || want === observed[field];
    }
  }
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

/** Tags compare as a map; ownership tags are the controller's, never drift (DESIGN §3.5). */
function canonicalTags(spec: DBInstanceFields): [string, string][] {
  return canonicalTagMap(tagMapOf(spec.tags));
}

/** A storage type the spec may hold (io1 and io2 need iops, which crossrole does not manage). */
export function specStorageType(t: string | undefined): StorageType | undefined {
  return t !== undefined && t !== "io1" && t !== "io2" && (storageTypes as readonly string[]).includes(t)
    ? (t as StorageType)
    : undefined;
}

/**
 * Fills the late-initialised fields the spec leaves out with what RDS has (only values the
 * spec's schema accepts: an io1 storage type is left out). Returns the spec (a new object when
 * something was filled) and the fields filled.
 */
export function lateInitialize<Spec extends DBInstanceFields>(
  spec: Spec,
  observed: DBInstanceFields,
): { spec: Spec; initialized: LateInitializedField[] } {
  return lateInitializeFields(spec, lateInitializedFields, (field) =>
    field === "storageType" ? specStorageType(observed.storageType) : observed[field],
  );
}
