// The Topic kind (sns.services.k8s.aws/v1alpha1): every field of ACK's sns-controller, with the
// names, types and descriptions generated from its declaration (topic-declaration.ts,
// generated/topic-fields.ts), plus spec.identityRef. As in ACK, the attributes are strings
// ("true" / "false", "100"): SNS's attribute map is string-valued and an ACK manifest must
// apply unchanged. What is written here is what the generated schemas cannot know: SNS's rules
// on values, with messages that name the fix. ACK's references (the feedback roles, the KMS
// key, the policy) name kinds crossrole does not serve: the spec check refuses them, naming the
// plain field (src/services/references.ts).

import { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import { type ResourceFields, requireKind } from "../../api/resource.ts";
import { immutable, type Rule, withRules } from "../../api/rules.ts";
import { stringField } from "../../api/validation.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import { jsonDocumentField } from "../json-document.ts";
import { patternTagListSchema, patternTagSchema } from "../pattern-tag-list.ts";
import { stringBooleanField } from "../string-boolean.ts";
import { maxUserTags } from "../tag-list.ts";
import { topicGenerated } from "./generated/topic-fields.ts";
import { topicDeclaration } from "./topic-declaration.ts";

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

/** The topic's data protection policy (PutDataProtectionPolicy): a JSON document. */
export const dataProtectionPolicySchema = jsonDocumentField(
  "dataProtectionPolicy",
  '{"Name": "data_protection_policy", "Version": "2021-06-01", "Statement": [...]}',
  { maxLength: maxPolicyLength, service: "SNS", ifRemoved: "to stop managing it" },
);

// ---- delivery status logging: a role and a sample rate per endpoint type ----

/** The endpoint types SNS logs delivery status for, as they start ACK's field names. */
export const feedbackEndpoints = ["application", "firehose", "http", "lambda", "sqs"] as const;
type FeedbackEndpoint = (typeof feedbackEndpoints)[number];
export type FeedbackRoleField = `${FeedbackEndpoint}${"Success" | "Failure"}FeedbackRoleARN`;
export type FeedbackSampleRateField = `${FeedbackEndpoint}SuccessFeedbackSampleRate`;
export const feedbackRoleFields = feedbackEndpoints.flatMap(
  (e) => [`${e}SuccessFeedbackRoleARN`, `${e}FailureFeedbackRoleARN`] as const,
) as readonly FeedbackRoleField[];
export const feedbackSampleRateFields = feedbackEndpoints.map(
  (e) => `${e}SuccessFeedbackSampleRate` as const,
) as readonly FeedbackSampleRateField[];

/** An IAM role ARN SNS writes delivery status logs to CloudWatch with. */
function feedbackRoleField(field: string) {
  return stringField(field)
    .max(2048, `${field} must be at most 2048 characters`)
    .regex(
      /^arn:aws[a-z-]*:iam::\d{12}:role\/\S+$/,
      `${field} must be an IAM role ARN, e.g. arn:aws:iam::111111111111:role/sns-delivery-status`,
    );
}

/** A percentage of successful deliveries to log, 0-100, written as a string (ACK's shape). */
function sampleRateField(field: string) {
  const message = `${field} must be a whole number from 0 to 100 (a percentage), written as a string, e.g. "100"`;
  const rule: Rule<string> = {
    cel: "self.matches('^[0-9]{1,3}$') && int(self) <= 100",
    message,
    check: (s) => /^[0-9]{1,3}$/.test(s) && Number(s) <= 100,
  };
  return withRules(stringField(field).max(3, message), rule);
}

// ---- SNS's enumerations, case as SNS writes them ----

export const signatureVersions = ["1", "2"] as const;
export const tracingConfigs = ["PassThrough", "Active"] as const;
export const fifoThroughputScopes = ["Topic", "MessageGroup"] as const;
const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${values.join(", ")}` });

// ---- tags ----

/** SNS accepts at most 50 tags on a topic; crossrole's ownership tags take some of them. */
export const maxTopicTags = maxUserTags;

export const tagSchema = patternTagSchema("tags");
export type Tag = z.infer<typeof tagSchema>;

export const tagsSchema = patternTagListSchema("tags", "SNS", tagSchema);

// ---- the kind's schemas: the generated ones with the rules above ----

const isFifo = (spec: { fifoTopic?: string | undefined }): boolean => spec.fifoTopic === "true";

const topic = declaredKindSchemas(
  { kind: topicKind, declaration: topicDeclaration, generated: topicGenerated },
  {
    values: {
      name: topicNameSchema,
      displayName: stringField("displayName")
        .max(100, "displayName must be at most 100 characters (SNS limit)")
        .optional(),
      policy: policySchema.optional(),
      deliveryPolicy: deliveryPolicySchema.optional(),
      dataProtectionPolicy: dataProtectionPolicySchema.optional(),
      fifoTopic: fifoTopicSchema.optional(),
      contentBasedDeduplication: contentBasedDeduplicationSchema.optional(),
      fifoThroughputScope: oneOf("fifoThroughputScope", fifoThroughputScopes).optional(),
      kmsMasterKeyID: stringField("kmsMasterKeyID")
        .max(2048, "kmsMasterKeyID must be at most 2048 characters")
        .optional(),
      signatureVersion: oneOf("signatureVersion", signatureVersions).optional(),
      tracingConfig: oneOf("tracingConfig", tracingConfigs).optional(),
      ...(Object.fromEntries(feedbackRoleFields.map((f) => [f, feedbackRoleField(f).optional()])) as Record<
        FeedbackRoleField,
        z.ZodOptional<ReturnType<typeof feedbackRoleField>>
      >),
      ...(Object.fromEntries(
        feedbackSampleRateFields.map((f) => [f, sampleRateField(f).optional()]),
      ) as Record<FeedbackSampleRateField, z.ZodOptional<ReturnType<typeof sampleRateField>>>),
      tags: tagsSchema.optional(),
    },
    rules: [
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
      {
        cel: "!has(self.fifoThroughputScope) || (has(self.fifoTopic) && self.fifoTopic == 'true')",
        message:
          'fifoThroughputScope applies only to FIFO topics (SNS refuses it on a standard topic); remove it or set fifoTopic "true"',
        fieldPath: ".fifoThroughputScope",
        check: (spec) => spec.fifoThroughputScope === undefined || isFifo(spec),
      },
    ],
    // ACK's status: ackResourceMetadata and conditions, plus the read-only attributes ACK shows.
    status: {
      topicARN: z.string().optional().describe("The topic's ARN."),
      effectiveDeliveryPolicy: z
        .string()
        .optional()
        .describe("The delivery policy SNS applies: deliveryPolicy merged with SNS's defaults (JSON)."),
      owner: z.string().optional().describe("The AWS account that owns the topic."),
    },
  },
);

export const {
  spec: topicSpecSchema,
  status: topicStatusSchema,
  object: topicSchema,
  crdSource: topicCrdSource,
} = topic;
export type TopicSpec = z.infer<typeof topicSpecSchema>;
/** A topic's managed configuration, without identityRef. */
export type TopicFields = ResourceFields<TopicSpec>;
export type TopicStatus = z.infer<typeof topicStatusSchema>;
export type Topic = z.infer<typeof topicSchema>;
