// The Table kind (dynamodb.services.k8s.aws/v1alpha1): every field of ACK's dynamodb-controller,
// with the names, types and descriptions generated from its declaration (table-declaration.ts,
// generated/table-fields.ts), plus spec.identityRef, so an ACK manifest applies unchanged: tags
// are a list of {key, value}, capacity units are integers, the key schema and attribute
// definitions are lists. What is written here is what the generated schemas cannot know:
// DynamoDB's rules between fields, which fields are immutable, messages that name the fix.
// ACK's kmsMasterKeyRef names a served KMS Key, whose ARN fills kmsMasterKeyID (the reconciler
// resolves it: src/controller/reconcile/references.ts).

import { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import { type ResourceFields, requireKind } from "../../api/resource.ts";
import { immutable, listMap, type Rule, withRules } from "../../api/rules.ts";
import { stringField } from "../../api/validation.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import { jsonDocumentField } from "../json-document.ts";
import { maxUserTags, tagListSchema } from "../tag-list.ts";
import { tableGenerated } from "./generated/table-fields.ts";
import { tableDeclaration } from "./table-declaration.ts";

const generated = tableGenerated.fieldSchemas;

export const tableKind: ResourceKind = requireKind("dynamodb.services.k8s.aws/v1alpha1", "Table");

// ---- names ----
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html:
// table and index names are 3-255 characters of a-z, A-Z, 0-9, '_', '-' and '.'.

function dynamoNameField(field: string, what: string) {
  const message = `${field} must be 3-255 characters of letters, digits, '_', '-' and '.' (DynamoDB ${what} naming rules)`;
  return stringField(field)
    .min(3, message)
    .max(255, message)
    .regex(/^[a-zA-Z0-9_.-]+$/, message);
}

/** The table name: DynamoDB-valid, and immutable because DynamoDB cannot rename a table. */
export const tableNameSchema = immutable(
  dynamoNameField("tableName", "table"),
  "tableName is immutable: DynamoDB cannot rename a table; create a new Table resource instead",
);

/** An attribute name: 1-255 bytes (DynamoDB limit for key attributes). */
function attributeNameField(field: string) {
  return stringField(field)
    .min(1, `${field} must be 1-255 characters (DynamoDB limit for key attribute names)`)
    .max(255, `${field} must be 1-255 characters (DynamoDB limit for key attribute names)`);
}

// ---- attribute definitions and key schemas ----

function listError(field: string, of: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `${field} is required` : `${field} must be a list of ${of}`;
}

export const attributeTypes = ["S", "N", "B"] as const;
export type AttributeType = (typeof attributeTypes)[number];

export const attributeDefinitionSchema = z.object({
  attributeName: attributeNameField("attributeDefinitions[].attributeName"),
  attributeType: z.enum(attributeTypes, {
    error: "attributeDefinitions[].attributeType must be S (string), N (number) or B (binary)",
  }),
});
export type AttributeDefinition = z.infer<typeof attributeDefinitionSchema>;

/** Table key (2) + 20 GSIs (2 each) + 5 LSIs: more than DynamoDB can use. */
export const maxAttributeDefinitions = 64;

export const attributeDefinitionsSchema = listMap(
  z
    .array(attributeDefinitionSchema, {
      error: listError("attributeDefinitions", "{attributeName, attributeType}"),
    })
    .min(1, "attributeDefinitions must define at least the key attributes")
    .max(
      maxAttributeDefinitions,
      `attributeDefinitions may hold at most ${maxAttributeDefinitions} attributes`,
    ),
  "attributeName",
  "attributeDefinitions must not repeat an attributeName",
);

export const keyTypes = ["HASH", "RANGE"] as const;
export type KeyType = (typeof keyTypes)[number];

function keySchemaField(field: string) {
  const element = z.object({
    attributeName: attributeNameField(`${field}[].attributeName`),
    keyType: z.enum(keyTypes, { error: `${field}[].keyType must be HASH or RANGE` }),
  });
  const shape = `${field} must be one HASH element (partition key), optionally followed by one RANGE element (sort key)`;
  return withRules(
    z
      .array(element, { error: listError(field, "{attributeName, keyType}") })
      .min(1, shape)
      .max(2, shape),
    {
      cel: "size(self) >= 1 && self[0].keyType == 'HASH' && (size(self) == 1 || self[1].keyType == 'RANGE')",
      message: shape,
      check: (k) => k[0]?.keyType === "HASH" && (k.length === 1 || k[1]?.keyType === "RANGE"),
    },
  );
}

/** The table's primary key: immutable, as in ACK (DynamoDB cannot change it). */
export const keySchemaSchema = immutable(
  keySchemaField("keySchema"),
  "keySchema is immutable: DynamoDB cannot change a table's primary key; create a new Table resource instead",
);
export type KeySchemaElement = z.infer<typeof keySchemaSchema>[number];

// ---- capacity ----

export const billingModes = ["PROVISIONED", "PAY_PER_REQUEST"] as const;
export type BillingMode = (typeof billingModes)[number];

function capacityField(field: string) {
  return withRules(
    z
      .number({
        error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a number`),
      })
      .int(`${field} must be a whole number of capacity units`),
    {
      cel: "self >= 1",
      message: `${field} must be at least 1 (DynamoDB minimum)`,
      check: (n) => n >= 1,
    },
  );
}

function provisionedThroughputField(prefix: string) {
  return z.object({
    readCapacityUnits: capacityField(`${prefix}.readCapacityUnits`),
    writeCapacityUnits: capacityField(`${prefix}.writeCapacityUnits`),
  });
}

export const provisionedThroughputSchema = provisionedThroughputField("provisionedThroughput");
export type ProvisionedThroughput = z.infer<typeof provisionedThroughputSchema>;

// ---- global secondary indexes ----

export const projectionTypes = ["ALL", "KEYS_ONLY", "INCLUDE"] as const;
export type ProjectionType = (typeof projectionTypes)[number];

function projectionField(prefix: string) {
  return withRules(
    z.object({
      nonKeyAttributes: z
        .array(attributeNameField(`${prefix}.projection.nonKeyAttributes[]`))
        .max(100, `${prefix}.projection.nonKeyAttributes may hold at most 100 attributes (DynamoDB limit)`)
        .optional(),
      projectionType: z
        .enum(projectionTypes, {
          error: `${prefix}.projection.projectionType must be ALL, KEYS_ONLY or INCLUDE`,
        })
        .optional(),
    }),
    {
      cel: "!has(self.nonKeyAttributes) || (has(self.projectionType) && self.projectionType == 'INCLUDE')",
      message: `${prefix}.projection.nonKeyAttributes applies only to projectionType INCLUDE (DynamoDB rule); remove it or set projectionType INCLUDE`,
      fieldPath: ".nonKeyAttributes",
      check: (p) => p.nonKeyAttributes === undefined || p.projectionType === "INCLUDE",
    },
  );
}

export const projectionSchema = projectionField("globalSecondaryIndexes[]");
export type Projection = z.infer<typeof projectionSchema>;

// ---- on-demand throughput: maxima of an on-demand table or index ----

function requestUnitsField(field: string) {
  return withRules(z.int({ error: `${field} must be a whole number of request units` }), {
    cel: "self >= 1",
    message: `${field} must be at least 1; remove the field for no maximum`,
    check: (n) => n >= 1,
  });
}

function onDemandThroughputField(prefix: string) {
  return withRules(
    z.object({
      maxReadRequestUnits: requestUnitsField(`${prefix}.maxReadRequestUnits`).optional(),
      maxWriteRequestUnits: requestUnitsField(`${prefix}.maxWriteRequestUnits`).optional(),
    }),
    {
      cel: "has(self.maxReadRequestUnits) || has(self.maxWriteRequestUnits)",
      message: `${prefix} must set maxReadRequestUnits, maxWriteRequestUnits or both (DynamoDB rule); remove it for no maximum`,
      check: (t) => t.maxReadRequestUnits !== undefined || t.maxWriteRequestUnits !== undefined,
    },
  );
}

export const onDemandThroughputSchema = onDemandThroughputField("onDemandThroughput");
export type OnDemandThroughput = z.infer<typeof onDemandThroughputSchema>;

export const globalSecondaryIndexSchema = z.object({
  indexName: dynamoNameField("globalSecondaryIndexes[].indexName", "index"),
  keySchema: keySchemaField("globalSecondaryIndexes[].keySchema"),
  projection: projectionSchema,
  provisionedThroughput: provisionedThroughputField(
    "globalSecondaryIndexes[].provisionedThroughput",
  ).optional(),
  onDemandThroughput: onDemandThroughputField("globalSecondaryIndexes[].onDemandThroughput").optional(),
});
export type GlobalSecondaryIndex = z.infer<typeof globalSecondaryIndexSchema>;

/** DynamoDB's default quota of global secondary indexes per table. */
export const maxGlobalSecondaryIndexes = 20;

export const globalSecondaryIndexesSchema = listMap(
  z
    .array(globalSecondaryIndexSchema)
    .max(
      maxGlobalSecondaryIndexes,
      `globalSecondaryIndexes may hold at most ${maxGlobalSecondaryIndexes} indexes (DynamoDB quota)`,
    ),
  "indexName",
  "globalSecondaryIndexes must not repeat an indexName",
);

// ---- local secondary indexes: made with the table, never changed ----

export const localSecondaryIndexSchema = z.object({
  indexName: dynamoNameField("localSecondaryIndexes[].indexName", "index"),
  keySchema: keySchemaField("localSecondaryIndexes[].keySchema"),
  projection: projectionField("localSecondaryIndexes[]"),
});
export type LocalSecondaryIndex = z.infer<typeof localSecondaryIndexSchema>;

/** DynamoDB's limit of local secondary indexes per table. */
export const maxLocalSecondaryIndexes = 5;

export const localSecondaryIndexesSchema = listMap(
  z
    .array(localSecondaryIndexSchema)
    .min(1, "localSecondaryIndexes must hold at least one index; remove it for none")
    .max(
      maxLocalSecondaryIndexes,
      `localSecondaryIndexes may hold at most ${maxLocalSecondaryIndexes} indexes (DynamoDB limit)`,
    ),
  "indexName",
  "localSecondaryIndexes must not repeat an indexName",
);

// ---- streams, encryption, TTL ----

export const streamViewTypes = ["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"] as const;
export type StreamViewType = (typeof streamViewTypes)[number];

export const streamSpecificationSchema = withRules(
  z.object({
    streamEnabled: z.boolean({
      error: (issue) =>
        issue.input === undefined
          ? "streamSpecification.streamEnabled is required"
          : "streamSpecification.streamEnabled must be true or false",
    }),
    streamViewType: z
      .enum(streamViewTypes, {
        error: `streamSpecification.streamViewType must be one of ${streamViewTypes.join(", ")}`,
      })
      .optional(),
  }),
  {
    cel: "!self.streamEnabled || has(self.streamViewType)",
    message:
      "streamSpecification.streamViewType is required when streamEnabled is true (DynamoDB rule); set it, e.g. NEW_AND_OLD_IMAGES",
    fieldPath: ".streamViewType",
    check: (s) => !s.streamEnabled || s.streamViewType !== undefined,
  },
);
export type StreamSpecification = z.infer<typeof streamSpecificationSchema>;

export const sseTypes = ["AES256", "KMS"] as const;
export type SseType = (typeof sseTypes)[number];

export const sseSpecificationSchema = z.object({
  enabled: z.boolean({ error: "sseSpecification.enabled must be true or false" }).optional(),
  kmsMasterKeyID: stringField("sseSpecification.kmsMasterKeyID")
    .min(1, "sseSpecification.kmsMasterKeyID must not be empty; remove it for the AWS managed key")
    .max(2048, "sseSpecification.kmsMasterKeyID must be at most 2048 characters")
    .optional(),
  kmsMasterKeyRef: generated.sseSpecification.unwrap().shape.kmsMasterKeyRef,
  sseType: z.enum(sseTypes, { error: "sseSpecification.sseType must be AES256 or KMS" }).optional(),
});
export type SseSpecification = z.infer<typeof sseSpecificationSchema>;

export const timeToLiveSchema = z.object({
  attributeName: attributeNameField("timeToLive.attributeName"),
  enabled: z.boolean({
    error: (issue) =>
      issue.input === undefined
        ? "timeToLive.enabled is required"
        : "timeToLive.enabled must be true or false",
  }),
});
export type TimeToLive = z.infer<typeof timeToLiveSchema>;

export const tableClasses = ["STANDARD", "STANDARD_INFREQUENT_ACCESS"] as const;
export type TableClass = (typeof tableClasses)[number];

// ---- resource policy, continuous backups, contributor insights ----

/** DynamoDB's limit on a resource-based policy: 20 KB. */
export const maxResourcePolicyLength = 20 * 1024;

export const resourcePolicySchema = jsonDocumentField(
  "resourcePolicy",
  '{"Version": "2012-10-17", "Statement": [...]}',
  { maxLength: maxResourcePolicyLength, service: "DynamoDB", ifRemoved: "for no policy" },
);

/**
 * UpdateContributorInsights's actions, and the statuses DescribeContributorInsights reports:
 * ACK accepts both spellings (its own e2e manifest says ENABLED), and so does crossrole.
 */
export const contributorInsightsValues = ["ENABLE", "DISABLE", "ENABLED", "DISABLED"] as const;
export type ContributorInsights = (typeof contributorInsightsValues)[number];

// ---- replicas of a global table (version 2019.11.21) ----

const generatedReplica = generated.tableReplicas.unwrap().element;

export const tableReplicaSchema = generatedReplica.extend({
  regionName: stringField("tableReplicas[].regionName").regex(
    /^[a-z]{2}(-[a-z]+)+-\d+$/,
    "tableReplicas[].regionName must be an AWS Region name, e.g. eu-west-1",
  ),
});
export type TableReplica = z.infer<typeof tableReplicaSchema>;

export const tableReplicasSchema = listMap(
  z.array(tableReplicaSchema),
  "regionName",
  "tableReplicas must not repeat a regionName: one replica per Region",
);

// ---- tags: a list of {key, value}, as in ACK (src/services/tag-list.ts) ----

export const maxTableTags = maxUserTags;
export const tagsSchema = tagListSchema({ service: "DynamoDB" });
export type { Tag } from "../tag-list.ts";

// ---- the spec, status and object ----

const values = {
  tableName: tableNameSchema,
  attributeDefinitions: attributeDefinitionsSchema,
  keySchema: keySchemaSchema,
  billingMode: z
    .enum(billingModes, { error: "billingMode must be PROVISIONED or PAY_PER_REQUEST" })
    .optional(),
  provisionedThroughput: provisionedThroughputSchema.optional(),
  onDemandThroughput: onDemandThroughputSchema.optional(),
  localSecondaryIndexes: localSecondaryIndexesSchema.optional(),
  globalSecondaryIndexes: globalSecondaryIndexesSchema.optional(),
  streamSpecification: streamSpecificationSchema.optional(),
  sseSpecification: sseSpecificationSchema.optional(),
  timeToLive: timeToLiveSchema.optional(),
  deletionProtectionEnabled: z
    .boolean({ error: "deletionProtectionEnabled must be true or false" })
    .optional(),
  tableClass: z
    .enum(tableClasses, { error: "tableClass must be STANDARD or STANDARD_INFREQUENT_ACCESS" })
    .optional(),
  resourcePolicy: resourcePolicySchema.optional(),
  contributorInsights: z
    .enum(contributorInsightsValues, {
      error: `contributorInsights must be one of ${contributorInsightsValues.join(", ")}`,
    })
    .optional(),
  tableReplicas: tableReplicasSchema.optional(),
  tags: tagsSchema.optional(),
};

/** The fields of a table crossrole manages, each described by AWS's documentation. */
type Fields = {
  keySchema: readonly { attributeName: string }[];
  attributeDefinitions: readonly { attributeName: string }[];
  billingMode?: BillingMode | undefined;
  provisionedThroughput?: ProvisionedThroughput | undefined;
  onDemandThroughput?: OnDemandThroughput | undefined;
  localSecondaryIndexes?: readonly { keySchema: readonly KeySchemaElement[] }[] | undefined;
  globalSecondaryIndexes?:
    | readonly {
        keySchema: readonly { attributeName: string }[];
        provisionedThroughput?: ProvisionedThroughput | undefined;
        onDemandThroughput?: OnDemandThroughput | undefined;
      }[]
    | undefined;
};

const defined = (spec: Fields, name: string): boolean =>
  spec.attributeDefinitions.some((a) => a.attributeName === name);
const isProvisioned = (spec: Fields): boolean => (spec.billingMode ?? "PROVISIONED") === "PROVISIONED";

const specRules: readonly Rule<Fields>[] = [
  {
    cel: "self.keySchema.all(k, self.attributeDefinitions.exists(a, a.attributeName == k.attributeName))",
    message:
      "keySchema names an attribute that attributeDefinitions does not define (DynamoDB rule); add it to attributeDefinitions",
    fieldPath: ".keySchema",
    check: (spec) => spec.keySchema.every((k) => defined(spec, k.attributeName)),
  },
  {
    cel: "has(self.provisionedThroughput) == (!has(self.billingMode) || self.billingMode == 'PROVISIONED')",
    message:
      "provisionedThroughput is required when billingMode is PROVISIONED (the default) and not allowed when billingMode is PAY_PER_REQUEST (DynamoDB rule); set both consistently",
    fieldPath: ".provisionedThroughput",
    check: (spec) => (spec.provisionedThroughput !== undefined) === isProvisioned(spec),
  },
  {
    cel: "!has(self.globalSecondaryIndexes) || self.globalSecondaryIndexes.all(g, has(g.provisionedThroughput) == (!has(self.billingMode) || self.billingMode == 'PROVISIONED'))",
    message:
      "globalSecondaryIndexes[].provisionedThroughput is required when the table's billingMode is PROVISIONED and not allowed when it is PAY_PER_REQUEST (DynamoDB rule)",
    fieldPath: ".globalSecondaryIndexes",
    check: (spec) =>
      (spec.globalSecondaryIndexes ?? []).every(
        (g) => (g.provisionedThroughput !== undefined) === isProvisioned(spec),
      ),
  },
  {
    cel: "!has(self.onDemandThroughput) || (has(self.billingMode) && self.billingMode == 'PAY_PER_REQUEST')",
    message:
      "onDemandThroughput applies only to billingMode PAY_PER_REQUEST (DynamoDB rule); remove it or set billingMode PAY_PER_REQUEST",
    fieldPath: ".onDemandThroughput",
    check: (spec) => spec.onDemandThroughput === undefined || !isProvisioned(spec),
  },
  {
    cel: "!has(self.globalSecondaryIndexes) || self.globalSecondaryIndexes.all(g, !has(g.onDemandThroughput) || (has(self.billingMode) && self.billingMode == 'PAY_PER_REQUEST'))",
    message:
      "globalSecondaryIndexes[].onDemandThroughput applies only when the table's billingMode is PAY_PER_REQUEST (DynamoDB rule)",
    fieldPath: ".globalSecondaryIndexes",
    check: (spec) =>
      !isProvisioned(spec) ||
      (spec.globalSecondaryIndexes ?? []).every((g) => g.onDemandThroughput === undefined),
  },
  {
    cel: "!has(self.localSecondaryIndexes) || self.localSecondaryIndexes.all(l, l.keySchema.all(k, self.attributeDefinitions.exists(a, a.attributeName == k.attributeName)))",
    message:
      "localSecondaryIndexes[].keySchema names an attribute that attributeDefinitions does not define (DynamoDB rule); add it to attributeDefinitions",
    fieldPath: ".localSecondaryIndexes",
    check: (spec) =>
      (spec.localSecondaryIndexes ?? []).every((l) =>
        l.keySchema.every((k) => defined(spec, k.attributeName)),
      ),
  },
  {
    cel: "!has(self.localSecondaryIndexes) || (size(self.keySchema) == 2 && self.localSecondaryIndexes.all(l, size(l.keySchema) == 2 && l.keySchema[0].attributeName == self.keySchema[0].attributeName))",
    message:
      "localSecondaryIndexes need a table with a sort key (RANGE), and each index's keySchema is the table's partition key (HASH) and its own sort key (DynamoDB rule)",
    fieldPath: ".localSecondaryIndexes",
    check: (spec) =>
      spec.localSecondaryIndexes === undefined ||
      (spec.keySchema.length === 2 &&
        spec.localSecondaryIndexes.every(
          (l) =>
            l.keySchema.length === 2 && l.keySchema[0]?.attributeName === spec.keySchema[0]?.attributeName,
        )),
  },
];

/**
 * A key attribute's type cannot change (the key schema cannot): a transition rule, so only the
 * apiserver checks it (like `immutable`). Non-key attribute definitions may change freely.
 */
const keyAttributeTypesFixed = {
  rule: "oldSelf.attributeDefinitions.all(a, !oldSelf.keySchema.exists(k, k.attributeName == a.attributeName) || self.attributeDefinitions.exists(b, b.attributeName == a.attributeName && b.attributeType == a.attributeType))",
  message:
    "attributeDefinitions of the key attributes are immutable: DynamoDB cannot change a table's primary key; create a new Table resource instead",
  fieldPath: ".attributeDefinitions",
};

/**
 * An index's key attributes must be defined when the index is made: with the table (CreateTable
 * refuses an undefined one) or added later (UpdateTable's Create needs its definitions). An index
 * that exists already (same name, same keys) keeps its own: DynamoDB accepts a change that drops
 * its attribute from attributeDefinitions while the index stays, and so does ACK (its
 * test_create_update_gsi). So this is a transition rule, on create too (`optionalOldSelf`), and the
 * controller's spec check (zod, which never sees the old spec) leaves it to admission and DynamoDB.
 */
const newIndexKeysDefined = {
  rule: "!has(self.globalSecondaryIndexes) || self.globalSecondaryIndexes.all(g, (oldSelf.hasValue() && has(oldSelf.value().globalSecondaryIndexes) && oldSelf.value().globalSecondaryIndexes.exists(o, o.indexName == g.indexName && o.keySchema == g.keySchema)) || g.keySchema.all(k, self.attributeDefinitions.exists(a, a.attributeName == k.attributeName)))",
  message:
    "globalSecondaryIndexes[].keySchema names an attribute that attributeDefinitions does not define (DynamoDB rule for an index being made); add it to attributeDefinitions",
  fieldPath: ".globalSecondaryIndexes",
  optionalOldSelf: true,
};

/**
 * Local secondary indexes are made with the table and never changed (DynamoDB has no call for
 * it): neither added, changed nor removed. A transition rule on the spec, so that adding or
 * removing the whole list is caught too.
 */
const localSecondaryIndexesFixed = {
  rule: "has(self.localSecondaryIndexes) == has(oldSelf.localSecondaryIndexes) && (!has(self.localSecondaryIndexes) || self.localSecondaryIndexes == oldSelf.localSecondaryIndexes)",
  message:
    "localSecondaryIndexes are immutable: DynamoDB creates them with the table only; create a new Table resource instead",
  fieldPath: ".localSecondaryIndexes",
};

/** DynamoDB's limit on projected non-key attributes, summed across all secondary indexes. */
export const maxProjectedAttributes = 100;

// Checked by zod only (the controller reports it as ACK.Terminal): a sum over nested lists is
// beyond what CEL's cost budget allows for 20 indexes of 100 attributes.
type Projected = readonly {
  readonly projection: { readonly nonKeyAttributes?: readonly string[] | undefined };
}[];
const projectedWithinLimit = (
  spec: { globalSecondaryIndexes?: Projected | undefined; localSecondaryIndexes?: Projected | undefined },
  ctx: z.RefinementCtx,
): void => {
  const total = [...(spec.globalSecondaryIndexes ?? []), ...(spec.localSecondaryIndexes ?? [])].reduce(
    (n, g) => n + (g.projection.nonKeyAttributes?.length ?? 0),
    0,
  );
  if (total > maxProjectedAttributes) {
    ctx.addIssue({
      code: "custom",
      path: ["globalSecondaryIndexes"],
      message: `the secondary indexes project ${total} nonKeyAttributes in all; DynamoDB allows at most ${maxProjectedAttributes} summed across all indexes: project fewer, or use projectionType ALL`,
    });
  }
};

const table = declaredKindSchemas(
  { kind: tableKind, declaration: tableDeclaration, generated: tableGenerated },
  {
    values,
    refine: projectedWithinLimit,
    rules: specRules,
    transitions: [keyAttributeTypesFixed, localSecondaryIndexesFixed, newIndexKeysDefined],
  },
);

export const {
  spec: tableSpecSchema,
  status: tableStatusSchema,
  object: tableSchema,
  crdSource: tableCrdSource,
} = table;
export type TableSpec = z.infer<typeof tableSpecSchema>;
/** A table's managed configuration, without identityRef. */
export type TableFields = ResourceFields<TableSpec>;

export const tableStatuses = [
  "CREATING",
  "UPDATING",
  "DELETING",
  "ACTIVE",
  "INACCESSIBLE_ENCRYPTION_CREDENTIALS",
  "ARCHIVING",
  "ARCHIVED",
] as const;

/** ACK's status: ackResourceMetadata and conditions, plus what DescribeTable says (generated). */
export type TableStatus = z.infer<typeof tableStatusSchema>;

/** The Table object, and its CRD: the shared resource CRD (printer columns, status subresource). */
export type Table = z.infer<typeof tableSchema>;
