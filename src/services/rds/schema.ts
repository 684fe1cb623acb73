// The DBInstance kind (rds.services.k8s.aws/v1alpha1): ACK's rds-controller field names and
// shapes for the settings crossrole manages, plus spec.identityRef, so an ACK manifest applies
// unchanged: integers for storage and retention, tags as a list of {key, value}, and the master
// password as ACK's SecretKeyReference {namespace, name, key} (the value never enters the spec).
// Fields ACK has and crossrole does not manage yet (dbSubnetGroupName, vpcSecurityGroupIDs,
// iops, kmsKeyID, dbClusterIdentifier, ...) are left out on purpose: the apiserver then rejects
// them as unknown instead of silently ignoring them.

import { z } from "zod";
import type { CrdSource } from "../../api/crd.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import {
  type ResourceFields,
  requireKind,
  resourceSchemas,
  resourceSpecSchema,
  resourceStatusSchema,
} from "../../api/resource.ts";
import { immutable, withRules } from "../../api/rules.ts";
import { type SecretKeyReference, secretKeyReference } from "../../api/secret-key-reference.ts";
import { stringField } from "../../api/validation.ts";
import { maxUserTags, tagListSchema } from "../tag-list.ts";
import { withTransitionRules } from "../transition-rules.ts";

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

export const engineSchema = immutable(
  z.enum(dbInstanceEngines, {
    error: (issue) =>
      issue.input === undefined
        ? "engine is required"
        : `engine must be one of ${dbInstanceEngines.join(", ")} (lowercase; Aurora engines belong to a DB cluster, which crossrole does not manage)`,
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

export const storageTypeSchema = withRules(
  z.enum(storageTypes, { error: `storageType must be one of ${storageTypes.join(", ")}` }),
  {
    cel: "self != 'io1' && self != 'io2'",
    message:
      "storageType io1 and io2 need provisioned iops, which crossrole does not manage yet; use gp2, gp3 or standard",
    check: (s: StorageType) => s !== "io1" && s !== "io2",
  },
);

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
export const tagsSchema = tagListSchema({ service: "RDS", reservedPrefixes: ["aws:", "rds:"] });
export type { Tag } from "../tag-list.ts";

// ---- the spec, status and object ----

/** The fields of a DB instance crossrole manages. */
export const dbInstanceFieldsShape = {
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

/** `spec` of a DBInstance: the fields above plus the optional `identityRef` every kind carries. */
export const dbInstanceSpecSchema = resourceSpecSchema(dbInstanceFieldsShape);
export type DBInstanceSpec = z.infer<typeof dbInstanceSpecSchema>;
/** A DB instance's managed configuration, without identityRef. */
export type DBInstanceFields = ResourceFields<DBInstanceSpec>;

/** ACK's status: ackResourceMetadata and conditions, plus what DescribeDBInstances says (ACK's names). */
export const dbInstanceStatusSchema = resourceStatusSchema.extend({
  dbInstanceStatus: z.string().optional(),
  endpoint: z
    .object({
      address: z.string().optional(),
      port: z.number().int().optional(),
      hostedZoneID: z.string().optional(),
    })
    .optional(),
  dbiResourceID: z.string().optional(),
  instanceCreateTime: z.string().optional(),
});
export type DBInstanceStatus = z.infer<typeof dbInstanceStatusSchema>;

const dbInstance = resourceSchemas(dbInstanceKind, dbInstanceSpecSchema, dbInstanceStatusSchema);
export const dbInstanceSchema = dbInstance.object;
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
