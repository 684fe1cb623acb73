// Create, read, update and delete one RDS DB instance through an RDSClient the caller
// configured (credentials of the decided identity, region, endpoint). Knows nothing about
// Kubernetes: the reconciler decides when to call what (ownership, adoption, deletion policy,
// region and account drift, Secrets) and turns DBInstanceErrors into conditions. Every call
// carries the reconcile's CallContext: shutdown aborts it, and it is logged with the reconcile
// ID — by operation and identifier only, never with its input (which may hold the password).
//
// RDS names instances per account and region, so `read` only ever looks in the account and
// region the client acts in. CreateDBInstance takes the tags, so an instance never exists
// untagged. Changes go in one ModifyDBInstance with ApplyImmediately (as ACK does); RDS then
// works on them (`modifying`), and the module's `busy` keeps the reconciler from writing
// anything until the instance is available again.
import {
  AddTagsToResourceCommand,
  type DBInstance as AwsDBInstance,
  CreateDBInstanceCommand,
  DeleteDBInstanceCommand,
  DescribeDBInstancesCommand,
  ModifyDBInstanceCommand,
  type RDSClient,
  RemoveTagsFromResourceCommand,
} from "@aws-sdk/client-rds";
import type { CallContext } from "../call-context.ts";
import { serviceCalls } from "../service-calls.ts";
import { applyTagChanges, claimTags, type TagWrites } from "../tag-changes.ts";
import { diff, type FieldDifference } from "./diff.ts";
import {
  classifyError,
  DBInstanceError,
  isAlreadyExists,
  isInvalidState,
  isNotFound,
  type RdsOperation,
} from "./errors.ts";
import {
  awsIdentifier,
  awsTags,
  createDBInstanceInput,
  fieldsFromAws,
  instanceTags,
  type ModifiableField,
  modifiableFields,
  modifyDBInstanceInput,
  parseDBInstanceArn,
  tagMapOf,
} from "./mapping.ts";
import type { DBInstanceFields } from "./schema.ts";

/** An RDS client and the region it acts in (the fallback when the ARN does not say). */
export interface DBInstanceClient {
  readonly rds: RDSClient;
  readonly region: string;
}

/** The ownership tags the reconciler wants on the instance (empty: none, e.g. in module tests). */
export type OwnerTags = Readonly<Record<string, string>>;

/**
 * What RDS has: the managed settings in spec form (the spec's own identifier, as written),
 * `tags` holding every tag (ownership tags included), the raw description (for status and busy)
 * and where the instance is.
 */
export interface ObservedDBInstance extends DBInstanceFields {
  readonly dbInstanceARN: string | undefined;
  readonly instance: AwsDBInstance;
  /** The region the ARN (else the client) names. */
  readonly region: string;
}

export type ReadResult =
  | { readonly found: false }
  | { readonly found: true; readonly dbInstance: ObservedDBInstance };

/** The spec path of the master password, as the reconciler keys Secret values. */
export const masterUserPasswordPath = "spec.masterUserPassword";

/**
 * RDS calls: logged by operation and identifier only, failures as DBInstanceErrors (without
 * RDS's message when the call carried the password).
 */
const rds = serviceCalls({
  service: "rds",
  object: "dbInstance",
  isGone: isNotFound,
  classify: classifyError,
});

/** DescribeDBInstances for one identifier; undefined when the account has no such instance. */
export async function describeDBInstance(
  client: DBInstanceClient,
  identifier: string,
  ctx: CallContext = {},
): Promise<AwsDBInstance | undefined> {
  const id = identifier.toLowerCase();
  const out = await rds.sendUnlessGone(ctx, "DescribeDBInstances", id, (o) =>
    client.rds.send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: id }), o),
  );
  return out?.DBInstances?.find((d) => d.DBInstanceIdentifier?.toLowerCase() === id);
}

/**
 * Reads the instance the spec names in the client's account and region, with its tags (RDS
 * answers them in TagList). Works on any instance the identity can read, whoever created it
 * (the reconciler decides from the tags whether it may touch it). `found: false` when there is
 * none.
 */
export async function readDBInstance(
  client: DBInstanceClient,
  spec: Pick<DBInstanceFields, "dbInstanceIdentifier">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const instance = await describeDBInstance(client, awsIdentifier(spec), ctx);
  if (instance === undefined) return { found: false };
  const arn = instance.DBInstanceArn;
  const dbInstance: ObservedDBInstance = {
    ...fieldsFromAws(instance, spec.dbInstanceIdentifier),
    dbInstanceARN: arn,
    instance,
    region: (arn && parseDBInstanceArn(arn)?.region) || client.region,
  };
  return { found: true, dbInstance };
}

/** The spec path of the TDE credential's password (ACK keeps it in the spec, as a string). */
export const tdeCredentialPasswordPath = "spec.tdeCredentialPassword";

/**
 * What a call tells classifyError about the secrets it carried (the master password when there
 * is one, the TDE credential's password when sent): RDS's message is then withheld.
 */
function carrying(password: string | undefined, tdePassword?: string): { secretFields?: readonly string[] } {
  const secretFields = [
    ...(password === undefined ? [] : [masterUserPasswordPath]),
    ...(tdePassword === undefined ? [] : [tdeCredentialPasswordPath]),
  ];
  return secretFields.length === 0 ? {} : { secretFields };
}

export type CreateResult =
  /** RDS is making the instance (usually `creating`). */
  | { readonly created: true; readonly dbInstanceStatus: string | undefined }
  /** The account already has an instance of that identifier: whose it is, the tags must tell. */
  | { readonly created: false };

/**
 * CreateDBInstance with the spec's settings, the master password and every tag (the user's and
 * `ownerTags`) in one call. An identifier the account already has is DBInstanceAlreadyExists:
 * `created: false`, never ours.
 */
export async function createDBInstance(
  client: DBInstanceClient,
  spec: DBInstanceFields,
  ownerTags: OwnerTags = {},
  masterUserPassword: string | undefined = undefined,
  ctx: CallContext = {},
): Promise<CreateResult> {
  const id = awsIdentifier(spec);
  const out = await rds.sendUnless(
    isAlreadyExists,
    ctx,
    "CreateDBInstance",
    id,
    (o) =>
      client.rds.send(
        new CreateDBInstanceCommand(createDBInstanceInput(spec, ownerTags, masterUserPassword)),
        o,
      ),
    carrying(masterUserPassword, spec.tdeCredentialPassword),
  );
  return out === undefined
    ? { created: false }
    : { created: true, dbInstanceStatus: out.DBInstance?.DBInstanceStatus };
}

/** What `updateDBInstance` changed: spec fields, and the master password when its Secret changed. */
export interface UpdateResult {
  readonly differences: readonly FieldDifference[];
  readonly passwordSet: boolean;
}

/**
 * Brings the instance to `desired`: the user's tags first (AddTagsToResource /
 * RemoveTagsFromResource, always keeping `ownerTags`), then one ModifyDBInstance with
 * ApplyImmediately for every changed setting and, when given, the new master password (the
 * module hands it when the Secret changed, and when manageMasterUserPassword turns off: RDS
 * then needs a password).
 */
export async function updateDBInstance(
  client: DBInstanceClient,
  desired: DBInstanceFields,
  observed: DBInstanceFields & { readonly dbInstanceARN?: string | undefined },
  ownerTags: OwnerTags = {},
  newMasterUserPassword: string | undefined = undefined,
  ctx: CallContext = {},
): Promise<UpdateResult> {
  const id = awsIdentifier(desired);
  const differences = diff(desired, observed);
  const changed: FieldDifference[] = [];
  const tags = differences.find((d) => d.field === "tags");
  if (tags !== undefined && observed.dbInstanceARN !== undefined) {
    const writes = tagWrites(client, id, observed.dbInstanceARN, ctx);
    await applyTagChanges(instanceTags(desired.tags, ownerTags), tagMapOf(observed.tags), writes);
    changed.push(tags);
  }
  const settings = differences.filter((d): d is FieldDifference & { field: ModifiableField } =>
    (modifiableFields as readonly string[]).includes(d.field),
  );
  if (settings.length > 0 || newMasterUserPassword !== undefined) {
    const fields = settings.map((d) => d.field);
    const input = modifyDBInstanceInput(desired, fields, newMasterUserPassword, observed);
    const paths = [
      ...settings.map((d) => d.path),
      ...(newMasterUserPassword === undefined ? [] : [masterUserPasswordPath]),
    ];
    await rds.send(
      ctx,
      "ModifyDBInstance",
      id,
      (o) => client.rds.send(new ModifyDBInstanceCommand(input), o),
      {
        ...(paths.length === 1 && paths[0] !== undefined ? { field: paths[0] } : {}),
        fields: paths,
        ...carrying(newMasterUserPassword, input.TdeCredentialPassword),
      },
    );
    changed.push(...settings);
  }
  return { differences: changed, passwordSet: newMasterUserPassword !== undefined };
}

/** AddTagsToResource and RemoveTagsFromResource on the instance of that ARN. */
function tagWrites(client: DBInstanceClient, id: string, arn: string, ctx: CallContext): TagWrites {
  const detail = { field: "spec.tags" };
  return {
    tag: (tags) =>
      rds.send(
        ctx,
        "AddTagsToResource",
        id,
        (o) => client.rds.send(new AddTagsToResourceCommand({ ResourceName: arn, Tags: awsTags(tags) }), o),
        detail,
      ),
    untag: (keys) =>
      rds.send(
        ctx,
        "RemoveTagsFromResource",
        id,
        (o) => client.rds.send(new RemoveTagsFromResourceCommand({ ResourceName: arn, TagKeys: keys }), o),
        detail,
      ),
  };
}

/** Puts the ownership tags on an instance that lacks them, keeping every tag it has (adoption). */
export async function claimDBInstance(
  client: DBInstanceClient,
  observed: ObservedDBInstance,
  ownerTags: OwnerTags,
  ctx: CallContext = {},
): Promise<void> {
  const id = awsIdentifier(observed);
  const arn = observed.dbInstanceARN;
  if (arn === undefined) return;
  await claimTags(tagMapOf(observed.tags), ownerTags, tagWrites(client, id, arn, ctx));
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

/** ACK's default: no final snapshot. */
export const defaultDeleteOptions: DeleteOptions = { skipFinalSnapshot: true };

/**
 * DeleteDBInstance's options from the object's annotations, as ACK reads them (an absent or
 * empty skip-final-snapshot means true). A value that is not a boolean is an error naming the
 * annotation.
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

/**
 * DeleteDBInstance on the instance of that identifier in the client's account; one already gone
 * is "not-found", one RDS is already deleting is "deleted". A busy instance is retried
 * (InvalidDBInstanceState); deletion protection is reported with the fix (errors.ts).
 */
export async function deleteDBInstance(
  client: DBInstanceClient,
  identifier: string,
  options: DeleteOptions = defaultDeleteOptions,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  const id = identifier.toLowerCase();
  try {
    await rds.call(ctx, "DeleteDBInstance", id, (o) =>
      client.rds.send(
        new DeleteDBInstanceCommand({
          DBInstanceIdentifier: id,
          SkipFinalSnapshot: options.skipFinalSnapshot,
          ...(options.finalDBSnapshotIdentifier === undefined
            ? {}
            : { FinalDBSnapshotIdentifier: options.finalDBSnapshotIdentifier }),
          ...(options.deleteAutomatedBackups === undefined
            ? {}
            : { DeleteAutomatedBackups: options.deleteAutomatedBackups }),
        }),
        o,
      ),
    );
    return "deleted";
  } catch (err) {
    if (isNotFound(err)) return "not-found";
    if (isInvalidState(err)) {
      const now = await describeDBInstance(client, id, ctx);
      if (now === undefined) return "not-found";
      if (now.DBInstanceStatus === "deleting") return "deleted";
    }
    throw classifyError(err, { operation: "DeleteDBInstance", dbInstance: id });
  }
}

/** A retryable error for a create or update that needs the master password but was not handed it. */
export function passwordMissing(id: string, operation: RdsOperation): DBInstanceError {
  return new DBInstanceError({
    disposition: "retryable",
    code: "SecretUnavailable",
    operation,
    dbInstance: id,
    field: masterUserPasswordPath,
    message: `${masterUserPasswordPath}: ${operation} on DB instance "${id}" needs the master password, and the value of the Secret key spec.masterUserPassword names was not available; retrying`,
  });
}
