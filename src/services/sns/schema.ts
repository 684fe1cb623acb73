// The Topic kind (sns.services.k8s.aws/v1alpha1): ACK's sns-controller field names and shapes
// for the attributes crossrole manages (name, displayName, policy, deliveryPolicy, fifoTopic,
// contentBasedDeduplication, kmsMasterKeyID, tags), plus spec.identityRef. As in ACK, the
// boolean attributes are strings ("true" / "false"): SNS's attribute map is string-valued and
// an ACK manifest must apply unchanged. Fields ACK has and crossrole does not manage yet
// (dataProtectionPolicy, signatureVersion, tracingConfig, the *Ref references) are left out on
// purpose: the apiserver then rejects them as unknown instead of silently ignoring them.

import { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import {
  type ResourceFields,
  requireKind,
  resourceSchemas,
  resourceSpecSchema,
  resourceStatusSchema,
} from "../../api/resource.ts";
import { immutable, withRules } from "../../api/rules.ts";
import { stringField } from "../../api/validation.ts";
import { jsonDocumentField } from "../json-document.ts";
import { patternTagListSchema, patternTagSchema } from "../pattern-tag-list.ts";
import { stringBooleanField } from "../string-boolean.ts";
import { maxUserTags } from "../tag-list.ts";

export const topicKind: ResourceKind = requireKind("sns.services.k8s.aws/v1alpha1", "Topic");

// ---- name ----
// https://docs.aws.amazon.com/sns/latest/api/API_CreateTopic.html: 1-256 ASCII letters, digits,
// '_' and '-'; a FIFO topic's name ends with ".fifo" (the pairing is a rule on the spec below).

export const maxTopicNameLength = 256;

/** The topic name: SNS-valid, and immutable because SNS cannot rename a topic. */
export const topicNameSchema = immutable(
  stringField("name")
    .min(1, "name must be 1-256 characters (SNS topic naming rules)")
    .max(maxTopicNameLength, "name must be 1-256 characters (SNS topic naming rules)")
    .regex(
      /^[A-Za-z0-9_-]+(\.fifo)?$/,
      "name must use only ASCII letters, digits, '_' and '-', with an optional '.fifo' suffix for a FIFO topic (SNS topic naming rules)",
    ),
  "name is immutable: SNS cannot rename a topic; create a new Topic resource instead",
);

/** FIFO or standard is chosen at creation for good; the name's .fifo suffix must agree. */
export const fifoTopicSchema = immutable(
  stringBooleanField("fifoTopic"),
  "fifoTopic is immutable: SNS cannot change a topic between FIFO and standard; create a new Topic resource instead",
);

export const contentBasedDeduplicationSchema = stringBooleanField("contentBasedDeduplication");

// ---- documents ----

/** SNS's limit on a topic's access policy and delivery policy. */
export const maxPolicyLength = 30 * 1024;

/** The topic's access policy; absent = the policy SNS gives every new topic (late-initialised). */
export const policySchema = jsonDocumentField("policy", '{"Version": "2012-10-17", "Statement": [...]}', {
  maxLength: maxPolicyLength,
  service: "SNS",
  ifRemoved: "to keep SNS's policy",
});
/** The HTTP/S delivery policy; absent = whatever SNS has (late-initialised when SNS reports one). */
export const deliveryPolicySchema = jsonDocumentField(
  "deliveryPolicy",
  '{"http": {"defaultHealthyRetryPolicy": {...}}}',
  { maxLength: maxPolicyLength, service: "SNS", ifRemoved: "to keep SNS's deliveryPolicy" },
);

// ---- tags ----

/** SNS accepts at most 50 tags on a topic; crossrole's ownership tags take some of them. */
export const maxTopicTags = maxUserTags;

export const tagSchema = patternTagSchema("tags");
export type Tag = z.infer<typeof tagSchema>;

export const tagsSchema = patternTagListSchema("tags", "SNS", tagSchema);

// ---- the spec, status and object ----

/** The fields of a topic crossrole manages: what `read` observes and `diff` compares. */
export const topicFieldsShape = {
  name: topicNameSchema,
  displayName: stringField("displayName")
    .max(100, "displayName must be at most 100 characters (SNS limit)")
    .optional(),
  policy: policySchema.optional(),
  deliveryPolicy: deliveryPolicySchema.optional(),
  fifoTopic: fifoTopicSchema.optional(),
  contentBasedDeduplication: contentBasedDeduplicationSchema.optional(),
  kmsMasterKeyID: stringField("kmsMasterKeyID")
    .max(2048, "kmsMasterKeyID must be at most 2048 characters")
    .optional(),
  tags: tagsSchema.optional(),
};

const isFifo = (spec: { fifoTopic?: string | undefined }): boolean => spec.fifoTopic === "true";

/** `spec` of a Topic: the fields above plus the optional `identityRef` every kind carries. */
export const topicSpecSchema = withRules(
  resourceSpecSchema(topicFieldsShape),
  {
    cel: "self.name.endsWith('.fifo') == (has(self.fifoTopic) && self.fifoTopic == 'true')",
    message:
      'name must end with ".fifo" exactly when fifoTopic is "true" (SNS naming rule for FIFO topics); fix the name or fifoTopic',
    fieldPath: ".name",
    check: (spec) => spec.name.endsWith(".fifo") === isFifo(spec),
  },
  {
    cel: "!has(self.contentBasedDeduplication) || self.contentBasedDeduplication == 'false' || (has(self.fifoTopic) && self.fifoTopic == 'true')",
    message:
      'contentBasedDeduplication "true" needs fifoTopic "true" (only FIFO topics deduplicate); remove it or make the topic FIFO',
    fieldPath: ".contentBasedDeduplication",
    check: (spec) => spec.contentBasedDeduplication !== "true" || isFifo(spec),
  },
);
export type TopicSpec = z.infer<typeof topicSpecSchema>;
/** A topic's managed configuration, without identityRef. */
export type TopicFields = ResourceFields<TopicSpec>;

/** The attributes set with SetTopicAttributes, in the order they are applied. */
export const topicAttributes = [
  "displayName",
  "policy",
  "deliveryPolicy",
  "kmsMasterKeyID",
  "contentBasedDeduplication",
] as const;
export type TopicAttribute = (typeof topicAttributes)[number];

/** ACK's status: ackResourceMetadata and conditions, plus the read-only attributes ACK shows. */
export const topicStatusSchema = resourceStatusSchema.extend({
  effectiveDeliveryPolicy: z.string().optional(),
  owner: z.string().optional(),
});
export type TopicStatus = z.infer<typeof topicStatusSchema>;

/** The Topic object, and its CRD: the shared resource CRD (printer columns, status subresource). */
export const { object: topicSchema, crdSource: topicCrdSource } = resourceSchemas(
  topicKind,
  topicSpecSchema,
  topicStatusSchema,
);
export type Topic = z.infer<typeof topicSchema>;
