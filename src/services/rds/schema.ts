// The DBInstance kind (rds.services.k8s.aws/v1alpha1): every spec field of ACK's rds-controller,
// with the names, types and descriptions generated from its declaration
// (db-instance-declaration.ts, generated/db-instance-fields.ts), plus spec.identityRef, so an
// ACK manifest applies unchanged: integers for storage and retention, tags as a list of
// {key, value}, and the master password as ACK's SecretKeyReference {namespace, name, key} (the
// value never enters the spec). What is written here is what the generated schemas cannot
// know: RDS's rules on values and which fields RDS cannot change after creation (immutable at
// admission). Fields crossrole does not act on yet — an instance of a DB cluster, read
// replicas, restores from snapshots — and ACK's references to kinds crossrole does not serve
// are accepted by the CRD and refused by the spec check (ACK.Terminal, naming the field).

import { z } from "zod";
import type { CrdSource } from "../../api/crd.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import { type ResourceFields, requireKind } from "../../api/resource.ts";
import { immutable, withRules } from "../../api/rules.ts";
import { type SecretKeyReference, secretKeyReference } from "../../api/secret-key-reference.ts";
import { stringField } from "../../api/validation.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import { maxUserTags, tagListSchema } from "../tag-list.ts";
import { withTransitionRules } from "../transition-rules.ts";
import { dbInstanceDeclaration } from "./db-instance-declaration.ts";
import { dbInstanceGenerated } from "./generated/db-instance-fields.ts";

export const dbInstanceKind: ResourceKind = requireKind("rds.services.k8s.aws/v1alpha1", "DBInstance");

// ---- the identifier ----
// https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/API_CreateDBInstance.html: 1-63
// letters, digits or hyphens; first a letter; no trailing hyphen, no two consecutive hyphens.
// RDS stores it lowercase and matches it case-insensitively: crossrole accepts any case (as
// ACK does) and always talks to RDS in lowercase (see README.md).

export const maxIdentifierLength = 63;

const identifierMessage =
  "dbInstanceIdentifier must be 1-63 letters, digits or hyphens, start with a letter, and neither end with a hyphen nor contain two consecutive hyphens (RDS naming rules)";

/** The instance identifier: RDS-valid, and immutable (renaming would be a different instance to crossrole). */
export const dbInstanceIdentifierSchema = immutable(
  stringField("dbInstanceIdentifier")
    .min(1, identifierMessage)
    .max(maxIdentifierLength, identifierMessage)
    // Every hyphen is followed by a letter or digit: no "--", no trailing "-" (RE2 has no lookahead).
    .regex(/^[A-Za-z]([A-Za-z0-9]|-[A-Za-z0-9])*$/, identifierMessage),
  "dbInstanceIdentifier is immutable: crossrole does not rename DB instances; create a new DBInstance resource instead",
);

// ---- engine and class ----

/**
 * The engines CreateDBInstance takes for a stand-alone instance. Aurora engines are left out:
 * an Aurora instance belongs to a DB cluster, which crossrole does not manage.
 */
export const dbInstanceEngines = [
  "mariadb",
  "mysql",
  "postgres",
  "oracle-ee",
  "oracle-ee-cdb",
  "oracle-se2",
  "oracle-se2-cdb",
  "sqlserver-ee",
  "sqlserver-se",
  "sqlserver-ex",
  "sqlserver-web",
  "db2-ae",
  "db2-se",
  "custom-oracle-ee",
  "custom-oracle-ee-cdb",
  "custom-oracle-se2",
  "custom-oracle-se2-cdb",
  "custom-sqlserver-ee",
  "custom-sqlserver-se",
  "custom-sqlserver-web",
  "custom-sqlserver-dev",
] as const;
export type DBInstanceEngine = (typeof dbInstanceEngines)[number];

/**
 * Aurora's engines: accepted by the CRD, so that ACK's manifests of cluster instances apply, and
 * refused by the spec check (an Aurora instance belongs to a DB cluster, which crossrole does not
 * manage yet).
 */
export const auroraEngines = ["aurora-mysql", "aurora-postgresql", "aurora"] as const;

export const engineSchema = immutable(
  z.enum([...dbInstanceEngines, ...auroraEngines], {
    error: (issue) =>
      issue.input === undefined
        ? "engine is required"
        : `engine must be one of ${dbInstanceEngines.join(", ")} (lowercase)`,
  }),
  "engine is immutable: RDS cannot change a DB instance's engine; create a new DBInstance resource instead",
);

const classMessage =
  "dbInstanceClass must be an RDS DB instance class such as db.t3.micro or db.m6g.large (lowercase, starting with 'db.')";

export const dbInstanceClassSchema = stringField("dbInstanceClass")
  .max(64, classMessage)
  .regex(/^db\.[a-z0-9-]+(\.[a-z0-9-]+)*$/, classMessage);

export const engineVersionSchema = stringField("engineVersion")
  .min(1, "engineVersion must not be empty; remove it for RDS's default version")
  .max(64, "engineVersion must be at most 64 characters")
  .regex(
    /^[A-Za-z0-9._-]+$/,
    "engineVersion must be a version such as 16.3 or 8.0.39 (letters, digits, '.', '_', '-')",
  );

// ---- storage ----

export const maxAllocatedStorage = 65536;

/** GiB; RDS can grow storage but never shrink it, so a decrease is refused at admission. */
export const allocatedStorageSchema = withTransitionRules(
  withRules(
    z
      .number({ error: "allocatedStorage must be a whole number of GiB" })
      .int("allocatedStorage must be a whole number of GiB"),
    {
      cel: `self >= 1 && self <= ${maxAllocatedStorage}`,
      message: `allocatedStorage must be between 1 and ${maxAllocatedStorage} GiB (RDS limits; most engines need at least 20)`,
      check: (n: number) => n >= 1 && n <= maxAllocatedStorage,
    },
  ),
  {
    rule: "self >= oldSelf",
    message:
      "allocatedStorage can only grow: RDS cannot shrink a DB instance's storage; keep it at least its current value",
  },
);

export const storageTypes = ["gp2", "gp3", "io1", "io2", "standard"] as const;
export type StorageType = (typeof storageTypes)[number];

export const storageTypeSchema = z.enum(storageTypes, {
  error: `storageType must be one of ${storageTypes.join(", ")}`,
});

export const storageEncryptedSchema = immutable(
  z.boolean({ error: "storageEncrypted must be true or false" }),
  "storageEncrypted is immutable: RDS cannot encrypt or decrypt an existing DB instance in place; create a new DBInstance resource instead",
);

// ---- credentials and database ----

/** RDS's rule for a database user's or database's name; `engines` says where it is stricter. */
function sqlNameField(field: string, maxLength: number, engines: string) {
  const message = `${field} must be 1-${maxLength} letters, digits or underscores, starting with a letter (RDS rule; ${engines})`;
  return stringField(field)
    .min(1, message)
    .max(maxLength, message)
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/, message);
}

export const masterUsernameSchema = immutable(
  sqlNameField("masterUsername", 16, "some engines allow fewer"),
  "masterUsername is immutable: RDS cannot rename the master user; create a new DBInstance resource instead",
);

export const dbNameSchema = immutable(
  sqlNameField("dbName", 64, "Oracle allows 8, PostgreSQL 63"),
  "dbName is immutable: RDS creates the database once, at creation; create a new DBInstance resource instead",
);

/** ACK's SecretKeyReference for the master password (src/api/secret-key-reference.ts). */
export const secretKeyReferenceSchema = secretKeyReference("masterUserPassword");
export type { SecretKeyReference };

// ---- tags: a list of {key, value}, as in ACK (src/services/tag-list.ts) ----

export const maxDBInstanceTags = maxUserTags;
export const tagsSchema = tagListSchema({
  service: "RDS",
  reservedPrefixes: dbInstanceDeclaration.reservedTagPrefixes,
});
export type { Tag } from "../tag-list.ts";

// ---- the spec, status and object ----

/** A field RDS sets at creation and cannot change afterwards: a change is refused at admission. */
const values = {
  dbInstanceIdentifier: dbInstanceIdentifierSchema,
  dbInstanceClass: dbInstanceClassSchema,
  engine: engineSchema,
  engineVersion: engineVersionSchema.optional(),
  allocatedStorage: allocatedStorageSchema.optional(),
  masterUsername: masterUsernameSchema.optional(),
  masterUserPassword: secretKeyReferenceSchema.optional(),
  dbName: dbNameSchema.optional(),
  multiAZ: z.boolean({ error: "multiAZ must be true or false" }).optional(),
  storageType: storageTypeSchema.optional(),
  storageEncrypted: storageEncryptedSchema.optional(),
  publiclyAccessible: z.boolean({ error: "publiclyAccessible must be true or false" }).optional(),
  port: withRules(z.int({ error: "port must be a whole number" }), {
    cel: "self >= 1150 && self <= 65535",
    message: "port must be between 1150 and 65535 (RDS limits; some engines allow fewer)",
    check: (n: number) => n >= 1150 && n <= 65535,
  }).optional(),
  backupRetentionPeriod: withRules(
    z
      .number({ error: "backupRetentionPeriod must be a whole number of days" })
      .int("backupRetentionPeriod must be a whole number of days"),
    {
      cel: "self >= 0 && self <= 35",
      message:
        "backupRetentionPeriod must be between 0 and 35 days (RDS limits; 0 disables automated backups)",
      check: (n: number) => n >= 0 && n <= 35,
    },
  ).optional(),
  deletionProtection: z.boolean({ error: "deletionProtection must be true or false" }).optional(),
  tags: tagsSchema.optional(),
};

/** The fields of a DB instance crossrole manages, each described by AWS's documentation. */
/**
 * Fields of ways to create an instance crossrole does not take yet, with what to say. The CRD
 * accepts them (ACK's manifests apply); the spec check refuses them (ACK.Terminal), so they are
 * never silently ignored and nothing is created.
 */
export const unsupportedFields = {
  dbClusterIdentifier:
    "an instance of a DB cluster (Aurora, Multi-AZ DB cluster) is not supported by crossrole yet",
  sourceDBInstanceIdentifier: "creating a read replica is not supported by crossrole yet",
  sourceRegion: "creating a cross-Region read replica is not supported by crossrole yet",
  destinationRegion: "creating a cross-Region read replica is not supported by crossrole yet",
  preSignedURL: "creating a cross-Region read replica is not supported by crossrole yet",
  replicaMode: "read replicas are not supported by crossrole yet",
  dbSnapshotIdentifier: "restoring a DB instance from a DB snapshot is not supported by crossrole yet",
  dbClusterSnapshotIdentifier:
    "restoring a DB instance from a DB cluster snapshot is not supported by crossrole yet",
} as const satisfies Partial<Record<keyof typeof dbInstanceGenerated.fieldSchemas, string>>;

/** Refuses every field of `unsupportedFields` a spec sets, naming it. */
function refusingUnsupported(spec: Record<string, unknown>, ctx: z.RefinementCtx): void {
  {
    const engine = (spec as Record<string, unknown>)["engine"];
    if ((auroraEngines as readonly unknown[]).includes(engine)) {
      ctx.addIssue({
        code: "custom",
        path: ["engine"],
        message: `${String(engine)} instances belong to an Aurora DB cluster, which crossrole does not manage yet: use a stand-alone engine (${dbInstanceEngines.slice(0, 3).join(", ")}, ...) (nothing was created)`,
      });
    }
    for (const [field, why] of Object.entries(unsupportedFields)) {
      if ((spec as Record<string, unknown>)[field] === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${why}: remove spec.${field} (nothing was created)`,
      });
    }
  }
}

const dbInstance = declaredKindSchemas(
  { kind: dbInstanceKind, declaration: dbInstanceDeclaration, generated: dbInstanceGenerated },
  {
    values,
    refine: refusingUnsupported,
    rules: [
      {
        cel: "!has(self.manageMasterUserPassword) || !self.manageMasterUserPassword || !has(self.masterUserPassword)",
        message:
          "manageMasterUserPassword true and masterUserPassword are two ways to set the password and RDS takes one: remove masterUserPassword or set manageMasterUserPassword false",
        fieldPath: ".masterUserPassword",
        check: (spec) => spec.manageMasterUserPassword !== true || spec.masterUserPassword === undefined,
      },
      {
        cel: "!has(self.storageType) || !(self.storageType in ['io1', 'io2']) || has(self.iops)",
        message: "storageType io1 and io2 need provisioned IOPS: set iops, or use gp2, gp3 or standard",
        fieldPath: ".iops",
        check: (spec) =>
          !(spec.storageType === "io1" || spec.storageType === "io2") || spec.iops !== undefined,
      },
      {
        cel: "!has(self.useDefaultProcessorFeatures) || !self.useDefaultProcessorFeatures || !has(self.processorFeatures)",
        message: "useDefaultProcessorFeatures true and processorFeatures contradict each other: remove one",
        fieldPath: ".useDefaultProcessorFeatures",
        check: (spec) => spec.useDefaultProcessorFeatures !== true || spec.processorFeatures === undefined,
      },
    ],
  },
);
export const {
  spec: dbInstanceSpecSchema,
  status: dbInstanceStatusSchema,
  object: dbInstanceSchema,
} = dbInstance;
export type DBInstanceSpec = z.infer<typeof dbInstanceSpecSchema>;
/** A DB instance's managed configuration, without identityRef. */
export type DBInstanceFields = ResourceFields<DBInstanceSpec>;

/** ACK's status: ackResourceMetadata and conditions, plus what DescribeDBInstances says (generated). */
export type DBInstanceStatus = z.infer<typeof dbInstanceStatusSchema>;

export type DBInstance = z.infer<typeof dbInstanceSchema>;

const [account, region, ...rest] = dbInstance.crdSource.printerColumns ?? [];

/**
 * The DBInstance CRD: the shared resource CRD with this schema, plus ACK's STATUS column
 * (`status.dbInstanceStatus`) and the endpoint address in the wide output.
 */
export const dbInstanceCrdSource: CrdSource = {
  ...dbInstance.crdSource,
  printerColumns: [
    ...(account && region ? [account, region] : []),
    { name: "Status", type: "string", jsonPath: ".status.dbInstanceStatus" },
    ...rest,
    { name: "Endpoint", type: "string", jsonPath: ".status.endpoint.address", priority: 1 },
  ],
};
