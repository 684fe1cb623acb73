// The Bucket kind (s3.services.k8s.aws/v1alpha1): ACK's s3-controller field names and shapes
// for the sub-resources crossrole manages (name, tagging, versioning, encryption, policy,
// publicAccessBlock, ownershipControls), plus spec.identityRef. Fields ACK has and crossrole
// does not manage yet (cors, website, logging, ...) are left out on purpose: the apiserver then
// rejects them as unknown under strict field validation instead of silently ignoring them.

import { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import {
  type ResourceFields,
  requireKind,
  resourceSchemas,
  resourceSpecSchema,
  resourceStatusSchema,
} from "../../api/resource.ts";
import { immutable, type Rule, withRules } from "../../api/rules.ts";
import { stringField } from "../../api/validation.ts";
import { isJsonObject } from "../json-document.ts";
import { patternTagListSchema, patternTagSchema } from "../pattern-tag-list.ts";
import { maxUserTags } from "../tag-list.ts";

export const bucketKind: ResourceKind = requireKind("s3.services.k8s.aws/v1alpha1", "Bucket");

// ---- name: S3's naming rules for general purpose buckets ----
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
// Checked at admission because S3 (and moto, which checks only the length) would otherwise
// reject the name only when the controller tries to create the bucket.

const reservedPrefixes = ["xn--", "sthree-", "amzn-s3-demo-"] as const;
const reservedSuffixes = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"] as const;

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
export type SseAlgorithm = (typeof sseAlgorithms)[number];

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
  }),
  {
    cel: "!has(self.kmsMasterKeyID) || self.sseAlgorithm != 'AES256'",
    message:
      "encryption.rules[].applyServerSideEncryptionByDefault.kmsMasterKeyID needs sseAlgorithm aws:kms or aws:kms:dsse; remove it for AES256",
    check: (v) => v.kmsMasterKeyID === undefined || v.sseAlgorithm !== "AES256",
  },
);

export const encryptionRuleSchema = z.object({
  applyServerSideEncryptionByDefault: applyServerSideEncryptionByDefaultSchema,
  bucketKeyEnabled: z.boolean().optional(),
});
export type EncryptionRule = z.infer<typeof encryptionRuleSchema>;

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

// ---- the spec, status and object ----

/** The fields of a bucket crossrole manages: what `read` observes and `diff` compares. */
export const bucketFieldsShape = {
  name: bucketNameSchema,
  tagging: taggingSchema.optional(),
  versioning: versioningSchema.optional(),
  encryption: encryptionSchema.optional(),
  policy: policySchema.optional(),
  publicAccessBlock: publicAccessBlockSchema.optional(),
  ownershipControls: ownershipControlsSchema.optional(),
};

/** `spec` of a Bucket: the fields above plus the optional `identityRef` every kind carries. */
export const bucketSpecSchema = resourceSpecSchema(bucketFieldsShape);
export type BucketSpec = z.infer<typeof bucketSpecSchema>;
/** A bucket's managed configuration, without identityRef. */
export type BucketFields = ResourceFields<BucketSpec>;

/** The sub-resources, in the order they are applied (see bucket.ts for why this order). */
export const bucketSubresources = [
  "ownershipControls",
  "publicAccessBlock",
  "encryption",
  "versioning",
  "tagging",
  "policy",
] as const;
export type BucketSubresource = (typeof bucketSubresources)[number];

/** ACK's status plus `location` (CreateBucket's Location, "/<name>" for us-east-1). */
export const bucketStatusSchema = resourceStatusSchema.extend({
  location: z.string().optional(),
});
export type BucketStatus = z.infer<typeof bucketStatusSchema>;

/** The Bucket object, and its CRD: the shared resource CRD (printer columns, status subresource). */
export const { object: bucketSchema, crdSource: bucketCrdSource } = resourceSchemas(
  bucketKind,
  bucketSpecSchema,
  bucketStatusSchema,
);
export type Bucket = z.infer<typeof bucketSchema>;
