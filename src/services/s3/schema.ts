// The Bucket kind (s3.services.k8s.aws/v1alpha1): every field of ACK's s3-controller, with the
// names, types and descriptions generated from its declaration (bucket-declaration.ts,
// generated/bucket-fields.ts), plus spec.identityRef. Hand-written here is what the generated
// schemas cannot know: S3's naming rules, the rules of the six sub-resources crossrole managed
// first (with messages that name the fix), which fields are fixed at creation, and the keys of
// the per-ID configuration lists. ACK's replication.roleRef names a kind crossrole does not
// serve: the spec check refuses it, naming the plain field (src/services/references.ts).

import { z } from "zod";
import { ackReference } from "../../api/ack-reference.ts";
import { descriptionOf } from "../../api/documented.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import { type ResourceFields, requireKind } from "../../api/resource.ts";
import { immutable, listMap, type Rule, withRules } from "../../api/rules.ts";
import { stringField } from "../../api/validation.ts";
import { comparedFields } from "../declared-drift.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import { isJsonObject } from "../json-document.ts";
import { patternTagListSchema, patternTagSchema } from "../pattern-tag-list.ts";
import { maxUserTags } from "../tag-list.ts";
import { bucketDeclaration } from "./bucket-declaration.ts";
import { directoryBucketCreateRule, directoryBucketRules } from "./directory-bucket.ts";
import { bucketFieldGroups, bucketGenerated } from "./generated/bucket-fields.ts";

const generated = bucketGenerated.fieldSchemas;

export const bucketKind: ResourceKind = requireKind("s3.services.k8s.aws/v1alpha1", "Bucket");

// ---- name: S3's naming rules for general purpose buckets ----
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
// Checked at admission because S3 (and moto, which checks only the length) would otherwise
// reject the name only when the controller tries to create the bucket.

const reservedPrefixes = ["xn--", "sthree-", "amzn-s3-demo-"] as const;
// "--x-s3" is a directory bucket's (directory-bucket.ts): the spec's rules decide it.
const reservedSuffixes = ["-s3alias", "--ol-s3", ".mrap", "--table-s3"] as const;

const bucketNameRules: readonly Rule<string>[] = [
  {
    cel: "!self.contains('..')",
    message: "name must not contain two adjacent periods (S3 bucket naming rules)",
    check: (s) => !s.includes(".."),
  },
  {
    cel: String.raw`!self.matches(r'^\d+\.\d+\.\d+\.\d+$')`,
    message: "name must not be formatted as an IP address (S3 bucket naming rules)",
    check: (s) => !/^\d+\.\d+\.\d+\.\d+$/.test(s),
  },
  {
    cel: reservedPrefixes.map((p) => `!self.startsWith('${p}')`).join(" && "),
    message: `name must not start with ${reservedPrefixes.join(", ")} (reserved by S3)`,
    check: (s) => reservedPrefixes.every((p) => !s.startsWith(p)),
  },
  {
    cel: reservedSuffixes.map((p) => `!self.endsWith('${p}')`).join(" && "),
    message: `name must not end with ${reservedSuffixes.join(", ")} (reserved by S3)`,
    check: (s) => reservedSuffixes.every((p) => !s.endsWith(p)),
  },
];

/** The bucket name: S3-valid, and immutable because S3 cannot rename a bucket. */
export const bucketNameSchema = immutable(
  withRules(
    z
      .string({
        error: (issue) => (issue.input === undefined ? "name is required" : "name must be a string"),
      })
      .min(3, "name must be 3-63 characters (S3 bucket naming rules)")
      .max(63, "name must be 3-63 characters (S3 bucket naming rules)")
      .regex(
        /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
        "name must use only lowercase letters, digits, '.' and '-', and start and end with a letter or digit (S3 bucket naming rules)",
      ),
    ...bucketNameRules,
  ),
  "name is immutable: S3 cannot rename a bucket; create a new Bucket resource instead",
);

// ---- tagging ----

/** S3 accepts at most 50 tags on a bucket; crossrole's ownership tags take some of them. */
export const maxBucketTags = maxUserTags;

export const tagSchema = patternTagSchema("tagging.tagSet");
export type Tag = z.infer<typeof tagSchema>;

export const taggingSchema = z.object({
  /** Empty or absent = no tags (DeleteBucketTagging). */
  tagSet: patternTagListSchema("tagging.tagSet", "S3", tagSchema).optional(),
});
export type Tagging = z.infer<typeof taggingSchema>;

// ---- versioning ----

export const versioningStatuses = ["Enabled", "Suspended"] as const;
export type VersioningStatus = (typeof versioningStatuses)[number];

/** Versioning cannot be removed from a bucket once enabled, only suspended, so status is required. */
export const versioningSchema = z.object({
  status: z.enum(versioningStatuses, { error: "versioning.status must be Enabled or Suspended" }),
});
export type Versioning = z.infer<typeof versioningSchema>;

// ---- encryption ----

export const sseAlgorithms = ["AES256", "aws:kms", "aws:kms:dsse"] as const;

export const applyServerSideEncryptionByDefaultSchema = withRules(
  z.object({
    sseAlgorithm: z.enum(sseAlgorithms, {
      error: `encryption.rules[].applyServerSideEncryptionByDefault.sseAlgorithm must be one of ${sseAlgorithms.join(", ")}`,
    }),
    kmsMasterKeyID: stringField("encryption.rules[].applyServerSideEncryptionByDefault.kmsMasterKeyID")
      .min(
        1,
        "encryption.rules[].applyServerSideEncryptionByDefault.kmsMasterKeyID must not be empty; remove it",
      )
      .max(2048)
      .optional(),
    // A served Key by reference, its ARN filled in (crossrole's; ACK's S3 has no such reference).
    kmsMasterKeyRef: ackReference().optional(),
  }),
  {
    cel: "!(has(self.kmsMasterKeyID) || has(self.kmsMasterKeyRef)) || self.sseAlgorithm != 'AES256'",
    message:
      "encryption.rules[].applyServerSideEncryptionByDefault.kmsMasterKeyID needs sseAlgorithm aws:kms or aws:kms:dsse (as does kmsMasterKeyRef); remove it for AES256",
    check: (v) =>
      (v.kmsMasterKeyID === undefined && v.kmsMasterKeyRef === undefined) || v.sseAlgorithm !== "AES256",
  },
);

export const encryptionRuleSchema = z.object({
  applyServerSideEncryptionByDefault: applyServerSideEncryptionByDefaultSchema,
  bucketKeyEnabled: z.boolean().optional(),
});

/**
 * S3 keeps exactly one default-encryption rule, and since January 2023 every bucket has one
 * (SSE-S3 when nothing else is set), so there is no "no encryption" form to ask for.
 */
export const encryptionSchema = z.object({
  rules: z
    .array(encryptionRuleSchema)
    .min(1, "encryption.rules must hold one rule (S3 always encrypts; remove encryption to keep the default)")
    .max(1, "encryption.rules must hold one rule (S3 keeps a single default-encryption rule)"),
});
export type Encryption = z.infer<typeof encryptionSchema>;

// ---- policy ----

/** S3's limit on a bucket policy's size. */
export const maxPolicyLength = 20 * 1024;

/** The bucket policy as a JSON document; "" = no policy (DeleteBucketPolicy). */
export const policySchema = stringField("policy")
  .max(maxPolicyLength, "policy must be at most 20 KB (S3 limit)")
  .refine((s) => s === "" || isJsonObject(s), {
    message: 'policy must be a JSON policy document, e.g. {"Version": "2012-10-17", "Statement": [...]}',
  });

// ---- publicAccessBlock ----

/** An absent flag means false, as in S3; all four false (or `{}`) = no block (DeletePublicAccessBlock). */
export const publicAccessBlockSchema = z.object({
  blockPublicACLs: z.boolean().optional(),
  blockPublicPolicy: z.boolean().optional(),
  ignorePublicACLs: z.boolean().optional(),
  restrictPublicBuckets: z.boolean().optional(),
});
export type PublicAccessBlock = z.infer<typeof publicAccessBlockSchema>;

// ---- ownershipControls ----

export const objectOwnerships = ["BucketOwnerEnforced", "BucketOwnerPreferred", "ObjectWriter"] as const;
export type ObjectOwnership = (typeof objectOwnerships)[number];

export const ownershipControlsSchema = z.object({
  /** One rule; empty = no ownership controls (DeleteBucketOwnershipControls). */
  rules: z
    .array(
      z.object({
        objectOwnership: z.enum(objectOwnerships, {
          error: `ownershipControls.rules[].objectOwnership must be one of ${objectOwnerships.join(", ")}`,
        }),
      }),
    )
    .max(1, "ownershipControls.rules may hold one rule (S3 keeps a single ownership rule)"),
});
export type OwnershipControls = z.infer<typeof ownershipControlsSchema>;

// ---- fields fixed at creation (CreateBucket's input) ----

const fixedAtCreation = (field: string, why: string) =>
  `${field} is immutable: ${why}; create a new Bucket resource instead`;

/**
 * Where and how S3 creates the bucket. Its Tags are left out, as in ACK: a bucket's tags are
 * `tagging`. The region is the resource's (services.k8s.aws/region); a locationConstraint that
 * names another one is refused at create.
 */
export const createBucketConfigurationSchema = immutable(
  generated.createBucketConfiguration.unwrap().omit({ tags: true }),
  fixedAtCreation("createBucketConfiguration", "S3 cannot move a bucket or change its type"),
);

// ---- configurations kept one per ID (analytics, inventory, metrics, Intelligent-Tiering) ----

/** A list of configurations S3 keeps by ID: each needs an ID, and no two the same one. */
function perIdList<Item extends z.ZodObject>(field: string, list: z.ZodOptional<z.ZodArray<Item>>) {
  const item = list.unwrap().element;
  const keyed = item.extend({
    id: z
      .string({ error: `${field}[].id is required: S3 keeps these configurations by ID` })
      .min(1, `${field}[].id must not be empty`)
      .max(64, `${field}[].id must be at most 64 characters (S3 limit)`)
      .describe(descriptionOf(item.shape["id"] as z.ZodType) ?? "The configuration's ID."),
  });
  return listMap(z.array(keyed), "id", `${field}: two configurations with the same id; S3 keeps one per ID`);
}

// ---- the spec, status and object ----

/** The fields of a bucket crossrole manages: what `read` observes and `diff` compares. */
/**
 * The canned ACLs PutBucketAcl takes for a bucket: CreateBucket's four, and log-delivery-write
 * (for a server access logging target, as ACK's logging manifest uses), which the ACL is applied
 * with after the create (acl.ts).
 */
export const cannedAcls = [
  "private",
  "public-read",
  "public-read-write",
  "authenticated-read",
  "log-delivery-write",
] as const;

const values = {
  name: bucketNameSchema,
  // Fixed at creation: sent with CreateBucket, never compared afterwards.
  createBucketConfiguration: createBucketConfigurationSchema.optional(),
  namespace: immutable(
    generated.namespace.unwrap(),
    fixedAtCreation("namespace", "S3 cannot move a bucket to another namespace"),
  ).optional(),
  // The bucket's ACL: a canned ACL or grants (PutBucketAcl).
  acl: z
    .enum(cannedAcls, {
      error: `acl must be one of ${cannedAcls.join(", ")} (S3's canned ACLs for a bucket)`,
    })
    .optional(),
  // The sub-resources.
  tagging: taggingSchema.optional(),
  versioning: versioningSchema.optional(),
  encryption: encryptionSchema.optional(),
  policy: policySchema.optional(),
  publicAccessBlock: publicAccessBlockSchema.optional(),
  ownershipControls: ownershipControlsSchema.optional(),
  analytics: perIdList("analytics", generated.analytics).optional(),
  intelligentTiering: perIdList("intelligentTiering", generated.intelligentTiering).optional(),
  inventory: perIdList("inventory", generated.inventory).optional(),
  metrics: perIdList("metrics", generated.metrics).optional(),
};

/** The fields of a bucket crossrole manages, each described by AWS's documentation. */
const grantFields = ["grantFullControl", "grantRead", "grantReadACP", "grantWrite", "grantWriteACP"] as const;

const bucket = declaredKindSchemas(
  { kind: bucketKind, declaration: bucketDeclaration, generated: bucketGenerated },
  {
    values,
    rules: [
      ...directoryBucketRules,
      {
        cel: `!has(self.acl) || !(${grantFields.map((g) => `has(self.${g})`).join(" || ")})`,
        message:
          "acl and the grant fields exclude each other (S3 takes a canned ACL or grants, not both): remove one",
        fieldPath: ".acl",
        check: (spec) => spec.acl === undefined || grantFields.every((g) => spec[g] === undefined),
      },
      {
        cel: "!has(self.objectOwnership) || !has(self.ownershipControls) || size(self.ownershipControls.rules) == 0 || self.ownershipControls.rules[0].objectOwnership == self.objectOwnership",
        message:
          "objectOwnership and ownershipControls name different object ownerships: S3 keeps one; remove objectOwnership or make them agree",
        fieldPath: ".objectOwnership",
        check: (spec) =>
          spec.objectOwnership === undefined ||
          spec.ownershipControls === undefined ||
          spec.ownershipControls.rules.length === 0 ||
          spec.ownershipControls.rules[0]?.objectOwnership === spec.objectOwnership,
      },
    ],
    transitions: [directoryBucketCreateRule],
    // ACK's status: ackResourceMetadata and conditions, plus where CreateBucket said the bucket is.
    status: {
      location: z
        .string()
        .optional()
        .describe('Where CreateBucket said the bucket is: "/<name>" in us-east-1, its URL elsewhere.'),
    },
  },
);

export const {
  spec: bucketSpecSchema,
  status: bucketStatusSchema,
  object: bucketSchema,
  crdSource: bucketCrdSource,
} = bucket;
export type BucketSpec = z.infer<typeof bucketSpecSchema>;
/** A bucket's managed configuration, without identityRef. */
export type BucketFields = ResourceFields<BucketSpec>;

/** The sub-resources, in the order they are applied (the declaration's groups say why this order). */
export const bucketSubresources = comparedFields(bucketFieldGroups);

/** ACK's status plus `location` (CreateBucket's Location, "/<name>" for us-east-1). */
export type BucketStatus = z.infer<typeof bucketStatusSchema>;

/** The Bucket object, and its CRD: the shared resource CRD (printer columns, status subresource). */
export type Bucket = z.infer<typeof bucketSchema>;
