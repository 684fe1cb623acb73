// The DBInstance kind: its declaration (db-instance-declaration.ts) served by the generic runtime,
// plus RDS's quirks as hooks: one-way comparisons (an engine version RDS upgraded on its own,
// storage that cannot shrink, KMS keys by ID or ARN), log exports counted with what is pending,
// what taking back autoscaling or processor features sends, ACK's deletion annotations (a final
// snapshot), and the spec fields RDS reports that the spec cannot hold beside others.
import type { RDSClient } from "@aws-sdk/client-rds";
import * as rdsSdk from "@aws-sdk/client-rds";
import { sameByRule } from "../declared-drift.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { rdsClientFactory } from "./client.ts";
import { dbInstanceDeclaration } from "./db-instance-declaration.ts";
import { dbInstanceGenerated } from "./generated/db-instance-fields.ts";
import { dbInstanceKind, dbInstanceSpecSchema, dbInstanceStatusSchema, storageTypes } from "./schema.ts";

type Fields = Record<string, unknown>;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const dbInstanceSource = {
  kind: dbInstanceKind,
  declaration: dbInstanceDeclaration,
  generated: dbInstanceGenerated,
  sdk: rdsSdk,
  clientFactory: rdsClientFactory,
  // Value rules beyond the generated ones (engines, storage, Aurora and replicas refused).
  schemas: { spec: dbInstanceSpecSchema, status: dbInstanceStatusSchema },
  hooks: {
    equal: {
      engineVersion: sameEngineVersion,
      // Only a spec larger than RDS's is drift: storage cannot shrink.
      allocatedStorage: (desired, observed) =>
        desired["allocatedStorage"] === undefined ||
        (observed["allocatedStorage"] !== undefined &&
          Number(desired["allocatedStorage"]) <= Number(observed["allocatedStorage"])),
      maxAllocatedStorage: (desired, observed) => {
        // RDS reports no maximum (or one no larger than the storage) when autoscaling is off.
        const allocated = Number(observed["allocatedStorage"] ?? 0);
        const max = observed["maxAllocatedStorage"] as number | undefined;
        const autoscaling = max !== undefined && max > allocated ? max : undefined;
        return desired["maxAllocatedStorage"] === undefined
          ? autoscaling === undefined
          : desired["maxAllocatedStorage"] === max;
      },
      performanceInsightsKMSKeyID: sameKeyIn("performanceInsightsKMSKeyID"),
      masterUserSecretKMSKeyID: sameKeyIn("masterUserSecretKMSKeyID"),
      processorFeatures: (desired, observed) => {
        const have = observed["processorFeatures"] as unknown[] | undefined;
        if (desired["processorFeatures"] === undefined)
          return desired["useDefaultProcessorFeatures"] !== true || (have ?? []).length === 0;
        return sameByRule({ absent: "none", form: "set" }, desired["processorFeatures"], have);
      },
    },
    // The log types exported once RDS has applied what is pending (as ACK counts them).
    fieldsFromAnswer: (answer) => ({ enableCloudwatchLogsExports: exportedLogTypes(answer) }),
    // Only what the spec may hold: a storage type it knows (not aurora's), no Availability Zone
    // beside Multi-AZ (RDS refuses both; a failover moves the instance).
    observedFields: (fields) => {
      const { storageType, availabilityZone, ...rest } = fields;
      return {
        ...rest,
        ...(specStorageType(storageType) === undefined ? {} : { storageType }),
        ...(availabilityZone === undefined || fields["multiAZ"] === true ? {} : { availabilityZone }),
      };
    },
    removed: {
      // RDS turns storage autoscaling off when the maximum is the allocated storage.
      maxAllocatedStorage: (desired, observed) => {
        const allocated = desired["allocatedStorage"] ?? observed["allocatedStorage"];
        return allocated === undefined ? undefined : { MaxAllocatedStorage: allocated };
      },
      processorFeatures: (desired) =>
        desired["useDefaultProcessorFeatures"] === true ? { UseDefaultProcessorFeatures: true } : undefined,
    },
    // RDS's management of the password beside the spec's own Secret: the schema refuses both, and
    // the spec's says how it is meant to be.
    adoptedFields: (fields, spec) => {
      if (spec["masterUserPassword"] === undefined) return fields;
      const { manageMasterUserPassword: _managed, ...rest } = fields;
      return rest;
    },
    deleteInput: (_spec, annotations) => finalSnapshotInput(annotations),
  },
} satisfies DeclaredKindSource<RDSClient>;

export const dbInstanceService = declaredKindModule(dbInstanceSource);

/**
 * The log types an instance or cluster exports once RDS has applied what is pending (as ACK
 * counts them): what it reports enabled, less those pending disabling, plus those pending enabling.
 */
export function exportedLogTypes(answer: Fields): string[] | undefined {
  const enabled = answer["EnabledCloudwatchLogsExports"] as string[] | undefined;
  const pending = (answer["PendingModifiedValues"] as Fields | undefined)?.["PendingCloudwatchLogsExports"] as
    | { LogTypesToEnable?: string[]; LogTypesToDisable?: string[] }
    | undefined;
  if (pending === undefined) return enabled;
  const off = new Set(pending.LogTypesToDisable ?? []);
  return [...new Set([...(enabled ?? []).filter((t) => !off.has(t)), ...(pending.LogTypesToEnable ?? [])])];
}

/** A KMS key field compared as RDS reports keys (sameKmsKey); left out, anything. */
export function sameKeyIn(field: string): (desired: Fields, observed: Fields) => boolean {
  return (desired, observed) =>
    desired[field] === undefined || sameKmsKey(String(desired[field]), text(observed[field]));
}

/** The engine version compared one way (engineVersionDrift); left out, anything. */
export function sameEngineVersion(desired: Fields, observed: Fields): boolean {
  return (
    desired["engineVersion"] === undefined ||
    !engineVersionDrift(String(desired["engineVersion"]), text(observed["engineVersion"]))
  );
}

/**
 * What DeleteDBInstance and DeleteDBCluster take from ACK's annotations (the same members): the
 * final snapshot, or skipping it, and the automated backups; a bad annotation refuses the delete.
 */
export function finalSnapshotInput(
  annotations: Readonly<Record<string, string>>,
): Fields | { refused: string } {
  const parsed = deleteOptionsFromAnnotations(annotations);
  if (!parsed.ok) return { refused: parsed.message };
  const o = parsed.options;
  return {
    SkipFinalSnapshot: o.skipFinalSnapshot,
    ...(o.finalDBSnapshotIdentifier === undefined
      ? {}
      : { FinalDBSnapshotIdentifier: o.finalDBSnapshotIdentifier }),
    ...(o.deleteAutomatedBackups === undefined ? {} : { DeleteAutomatedBackups: o.deleteAutomatedBackups }),
  };
}

function text(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
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

/**
 * Whether RDS's engine version must be changed to the spec's: "16" matches "16.4" (RDS picks the
 * minor version); within a major version only a spec newer than RDS is drift (RDS cannot
 * downgrade, and a minor upgrade it applied on its own is not undone); another major version is
 * drift either way (RDS refuses a downgrade: the error says so).
 */
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
export function specStorageType(t: unknown): string | undefined {
  return typeof t === "string" && (storageTypes as readonly string[]).includes(t) ? t : undefined;
}

// ---- deletion ----

/** ACK's rds-controller annotations that shape DeleteDBInstance (same keys, same defaults). */
export const deletionAnnotations = {
  /** "true" (the default) deletes without a final snapshot; "false" takes one. */
  skipFinalSnapshot: "rds.services.k8s.aws/skip-final-snapshot",
  /** The final snapshot's identifier (needed when skip-final-snapshot is "false"). */
  finalDBSnapshotIdentifier: "rds.services.k8s.aws/final-db-snapshot-identifier",
  /** "true" deletes the automated backups with the instance; RDS keeps them by default. */
  deleteAutomatedBackups: "rds.services.k8s.aws/delete-automated-backups",
} as const;

export interface DeleteOptions {
  readonly skipFinalSnapshot: boolean;
  readonly finalDBSnapshotIdentifier?: string;
  readonly deleteAutomatedBackups?: boolean;
}

/**
 * DeleteDBInstance's options from the object's annotations, as ACK reads them (an absent or
 * empty skip-final-snapshot means true: ACK's default, no final snapshot). A value that is not a
 * boolean is an error naming the annotation.
 */
export function deleteOptionsFromAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
): { ok: true; options: DeleteOptions } | { ok: false; message: string } {
  const a = annotations ?? {};
  const bool = (key: string): boolean | undefined | "invalid" => {
    const v = a[key];
    if (v === undefined || v === "") return undefined;
    if (/^(true|1|t)$/i.test(v)) return true;
    if (/^(false|0|f)$/i.test(v)) return false;
    return "invalid";
  };
  const skip = bool(deletionAnnotations.skipFinalSnapshot);
  const deleteBackups = bool(deletionAnnotations.deleteAutomatedBackups);
  for (const [key, v] of [
    [deletionAnnotations.skipFinalSnapshot, skip],
    [deletionAnnotations.deleteAutomatedBackups, deleteBackups],
  ] as const) {
    if (v === "invalid") return { ok: false, message: `annotation ${key} must be "true" or "false"` };
  }
  const snapshot = a[deletionAnnotations.finalDBSnapshotIdentifier];
  const skipFinalSnapshot = skip === "invalid" || skip === undefined ? true : skip;
  if (!skipFinalSnapshot && (snapshot === undefined || snapshot === "")) {
    return {
      ok: false,
      message: `annotation ${deletionAnnotations.skipFinalSnapshot}: "false" needs ${deletionAnnotations.finalDBSnapshotIdentifier} to name the final snapshot`,
    };
  }
  return {
    ok: true,
    options: {
      skipFinalSnapshot,
      ...(!skipFinalSnapshot && snapshot ? { finalDBSnapshotIdentifier: snapshot } : {}),
      ...(deleteBackups === true || deleteBackups === false ? { deleteAutomatedBackups: deleteBackups } : {}),
    },
  };
}
