// Which settings of a table differ between the spec and what DynamoDB has (drift), and late
// initialisation of the ones DynamoDB gives a default. Pure.
//
// What an absent field means:
// - billingMode: PROVISIONED (DynamoDB's default; the schema then requires provisionedThroughput).
//   `lateInitialize` writes it into the spec, as ACK does.
// - deletionProtectionEnabled: "whatever DynamoDB has" (false for a new table), late-initialised.
// - provisionedThroughput: only absent for PAY_PER_REQUEST, where there is none to compare.
// - sseSpecification, tableClass: "whatever DynamoDB has" (the AWS owned key, STANDARD): never
//   compared until set, like ACK, which ignores sseSpecification in its compare.
// - streamSpecification, timeToLive, continuousBackups: disabled; globalSecondaryIndexes,
//   tableReplicas, resourcePolicy: none; onDemandThroughput (of the table or an index of an
//   on-demand table): no maximum; tags: none. Out-of-band additions are corrected, as ACK does.
// - continuousBackups.recoveryPeriodInDays: "whatever DynamoDB has" (35 days by default).
// - contributorInsights: managed only while the spec sets it (it is read only then, table.ts);
//   ENABLE and ENABLED (DISABLE, DISABLED) are the same, as in ACK.
// - tableReplicas: compared by Region; of each replica only the overrides the spec sets, and its
//   KMS key only when the spec names it by ARN (DynamoDB reports the key's ARN, whatever alias
//   or ID named it).
// - tableName, keySchema, localSecondaryIndexes: fixed at creation (immutable at admission), never compared;
//   attributeDefinitions: DynamoDB only reports the key attributes, so it is not compared either
//   (as in ACK); it is what creates of tables and indexes use.
import { sameJson } from "../canonical-forms.ts";
import { type ComparedField, declaredDrift } from "../declared-drift.ts";
import type { FieldDifferenceOf } from "../field-drift.ts";
import { tableDeclared, tableFieldGroups } from "./generated/table-fields.ts";
import { billingModeOf } from "./mapping.ts";
import type {
  ContributorInsights,
  GlobalSecondaryIndex,
  OnDemandThroughput,
  TableFields,
  TableReplica,
} from "./schema.ts";

export type TableField = ComparedField<typeof tableFieldGroups>;

/** Fields whose absence in the spec means "take DynamoDB's value" (see the file comment). */
export const lateInitializedFields = tableDeclared.lateInitialized;

export type FieldDifference = FieldDifferenceOf<TableField>;

/**
 * The fields to change so that DynamoDB matches `desired`, in the order update applies them
 * (the declaration's); the hooks are DynamoDB's quirks.
 */
export const diff: (desired: TableFields, observed: TableFields) => FieldDifference[] = declaredDrift<
  TableFields,
  typeof tableFieldGroups
>(tableFieldGroups, {
  onDemandThroughput: (desired, observed) =>
    billingModeOf(desired) !== "PAY_PER_REQUEST" ||
    sameOnDemand(desired.onDemandThroughput, observed.onDemandThroughput),
  streamSpecification: (desired, observed) => canonicalStream(desired) === canonicalStream(observed),
  sseSpecification: (desired, observed) => {
    const want = desired.sseSpecification;
    return want === undefined || (want.enabled ?? false) === (observed.sseSpecification?.enabled ?? false);
  },
  globalSecondaryIndexes: (desired, observed) => gsiChanges(desired, observed).length === 0,
  tableReplicas: (desired, observed) => replicaChanges(desired, observed).length === 0,
  timeToLive: (desired, observed) => canonicalTtl(desired) === canonicalTtl(observed),
  continuousBackups: (desired, observed) => {
    const want = desired.continuousBackups;
    const have = observed.continuousBackups;
    if ((want?.pointInTimeRecoveryEnabled ?? false) !== (have?.pointInTimeRecoveryEnabled ?? false))
      return false;
    return (
      !want?.pointInTimeRecoveryEnabled ||
      want.recoveryPeriodInDays === undefined ||
      want.recoveryPeriodInDays === have?.recoveryPeriodInDays
    );
  },
  contributorInsights: (desired, observed) => {
    const want = canonicalContributorInsights(desired.contributorInsights);
    return (
      want === undefined ||
      want === (canonicalContributorInsights(observed.contributorInsights) ?? "DISABLED")
    );
  },
});

/** ACK's two spellings as one: ENABLE and ENABLED are "ENABLED", DISABLE and DISABLED "DISABLED". */
export function canonicalContributorInsights(
  v: ContributorInsights | undefined,
): "ENABLED" | "DISABLED" | undefined {
  if (v === undefined) return undefined;
  return v === "ENABLE" || v === "ENABLED" ? "ENABLED" : "DISABLED";
}

/** On-demand maxima compare side by side; a side left out is DynamoDB's -1, no maximum. */
function sameOnDemand(a: OnDemandThroughput | undefined, b: OnDemandThroughput | undefined): boolean {
  return (
    (a?.maxReadRequestUnits ?? -1) === (b?.maxReadRequestUnits ?? -1) &&
    (a?.maxWriteRequestUnits ?? -1) === (b?.maxWriteRequestUnits ?? -1)
  );
}

function canonicalStream(spec: TableFields): string {
  const s = spec.streamSpecification;
  return s?.streamEnabled ? `enabled:${s.streamViewType ?? ""}` : "disabled";
}

function canonicalTtl(spec: TableFields): string {
  const t = spec.timeToLive;
  return t?.enabled ? `enabled:${t.attributeName}` : "disabled";
}

// ---- global secondary indexes ----

/**
 * One change to the table's global secondary indexes. DynamoDB takes one per UpdateTable, and
 * cannot change an index's key schema or projection: such an index is deleted, then created.
 */
export type GsiChange =
  | { readonly op: "delete"; readonly indexName: string }
  | { readonly op: "create"; readonly index: GlobalSecondaryIndex }
  | { readonly op: "update"; readonly index: GlobalSecondaryIndex };

/** The index changes that bring `observed` to `desired`: deletes first, then creates, then updates. */
export function gsiChanges(desired: TableFields, observed: TableFields): GsiChange[] {
  const want = new Map((desired.globalSecondaryIndexes ?? []).map((g) => [g.indexName, g]));
  const have = new Map((observed.globalSecondaryIndexes ?? []).map((g) => [g.indexName, g]));
  const deletes: GsiChange[] = [];
  const creates: GsiChange[] = [];
  const updates: GsiChange[] = [];
  for (const [name, h] of have) {
    const w = want.get(name);
    if (w === undefined || !sameShape(w, h)) deletes.push({ op: "delete", indexName: name });
  }
  const onDemand = billingModeOf(desired) === "PAY_PER_REQUEST";
  for (const [name, w] of want) {
    const h = have.get(name);
    if (h === undefined || !sameShape(w, h)) creates.push({ op: "create", index: w });
    else if (w.provisionedThroughput && !sameThroughput(w, h)) updates.push({ op: "update", index: w });
    else if (onDemand && !sameOnDemand(w.onDemandThroughput, h.onDemandThroughput))
      updates.push({ op: "update", index: w });
  }
  return [...deletes, ...creates, ...updates];
}

// ---- replicas ----

/** One change to the table's replicas; DynamoDB takes one per UpdateTable. */
export type ReplicaChange =
  | { readonly op: "delete"; readonly regionName: string }
  | { readonly op: "create"; readonly replica: TableReplica }
  | { readonly op: "update"; readonly replica: TableReplica };

/** The replica changes that bring `observed` to `desired`: deletes, then creates, then updates. */
export function replicaChanges(desired: TableFields, observed: TableFields): ReplicaChange[] {
  const want = new Map((desired.tableReplicas ?? []).map((r) => [r.regionName, r]));
  const have = new Map((observed.tableReplicas ?? []).map((r) => [r.regionName, r]));
  const deletes: ReplicaChange[] = [...have.keys()]
    .filter((region) => region !== undefined && !want.has(region))
    .map((regionName) => ({ op: "delete", regionName: regionName ?? "" }));
  const creates: ReplicaChange[] = [];
  const updates: ReplicaChange[] = [];
  for (const [region, w] of want) {
    const h = have.get(region);
    if (h === undefined) creates.push({ op: "create", replica: w });
    else if (!replicaCovered(w, h)) updates.push({ op: "update", replica: w });
  }
  return [...deletes, ...creates, ...updates];
}

/** Whether the replica DynamoDB has carries every override the spec's sets. */
function replicaCovered(want: TableReplica, have: TableReplica): boolean {
  const key = want.kmsMasterKeyID;
  if (key?.startsWith("arn:") && key !== have.kmsMasterKeyID) return false;
  if (
    want.tableClassOverride !== undefined &&
    want.tableClassOverride !== (have.tableClassOverride ?? "STANDARD")
  )
    return false;
  if (!covers(want.provisionedThroughputOverride, have.provisionedThroughputOverride)) return false;
  if (!covers(want.onDemandThroughputOverride, have.onDemandThroughputOverride)) return false;
  const indexes = new Map((have.globalSecondaryIndexes ?? []).map((g) => [g.indexName, g]));
  return (want.globalSecondaryIndexes ?? []).every((g) => {
    const h = indexes.get(g.indexName);
    return (
      covers(g.provisionedThroughputOverride, h?.provisionedThroughputOverride) &&
      covers(g.onDemandThroughputOverride, h?.onDemandThroughputOverride)
    );
  });
}

/** Whether `have` holds every member `want` sets (a flat structure of numbers). */
function covers(want: object | undefined, have: object | undefined): boolean {
  if (want === undefined) return true;
  const h = (have ?? {}) as Record<string, unknown>;
  return Object.entries(want).every(([k, v]) => v === undefined || h[k] === v);
}

function sameShape(a: GlobalSecondaryIndex, b: GlobalSecondaryIndex): boolean {
  const shape = (g: GlobalSecondaryIndex) => ({
    keySchema: g.keySchema.map((k) => [k.attributeName, k.keyType]),
    projectionType: g.projection.projectionType ?? "",
    nonKeyAttributes: [...(g.projection.nonKeyAttributes ?? [])].sort(),
  });
  return sameJson(shape(a), shape(b));
}

function sameThroughput(a: GlobalSecondaryIndex, b: GlobalSecondaryIndex): boolean {
  return (
    a.provisionedThroughput?.readCapacityUnits === b.provisionedThroughput?.readCapacityUnits &&
    a.provisionedThroughput?.writeCapacityUnits === b.provisionedThroughput?.writeCapacityUnits
  );
}

/**
 * Fills the late-initialised fields the spec leaves out with what DynamoDB has. billingMode is
 * only ever filled with PROVISIONED when the spec has provisionedThroughput (so the spec stays
 * valid: a spec without billingMode is a provisioned table by the schema's rule). Returns the spec
 * (a new object when something was filled) and the fields filled.
 */
export function lateInitialize<Spec extends TableFields>(
  spec: Spec,
  observed: TableFields,
): { spec: Spec; initialized: TableField[] } {
  const initialized: TableField[] = [];
  const filled: Record<string, unknown> = { ...spec };
  if (spec.billingMode === undefined && spec.provisionedThroughput !== undefined) {
    filled["billingMode"] = "PROVISIONED";
    initialized.push("billingMode");
  }
  if (spec.deletionProtectionEnabled === undefined) {
    filled["deletionProtectionEnabled"] = observed.deletionProtectionEnabled ?? false;
    initialized.push("deletionProtectionEnabled");
  }
  return { spec: initialized.length === 0 ? spec : (filled as Spec), initialized };
}
