// The Queue kind (sqs.services.k8s.aws/v1alpha1): every field of ACK's sqs-controller, with the
// names, types and descriptions generated from its declaration (queue-declaration.ts,
// generated/queue-fields.ts), plus spec.identityRef. As in ACK, every attribute is a string
// (SQS's attribute map is string-valued: delaySeconds "0", fifoQueue "true") and tags are a
// map, so an ACK manifest applies unchanged. What is written here is what the generated schemas
// cannot know: SQS's rules on values (ranges, names, FIFO-only attributes), with messages that
// name the fix. ACK's references (kmsMasterKeyRef to a KMS Key, policyRef to an IAM Policy) name
// served kinds, which the reconciler resolves (src/controller/reconcile/references.ts).

import { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import { type ResourceFields, requireKind } from "../../api/resource.ts";
import { immutable, type Rule, withRules } from "../../api/rules.ts";
import { stringField } from "../../api/validation.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import { jsonDocumentField } from "../json-document.ts";
import { stringBooleanField } from "../string-boolean.ts";
import { maxUserMapTags } from "../tag-map.ts";
import { queueGenerated } from "./generated/queue-fields.ts";
import { queueDeclaration } from "./queue-declaration.ts";

export const queueKind: ResourceKind = requireKind("sqs.services.k8s.aws/v1alpha1", "Queue");

// ---- name ----
// https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_CreateQueue.html:
// up to 80 characters of ASCII letters, digits, '-' and '_'; a FIFO queue's name ends with
// ".fifo" (counted in the 80; the pairing is a rule on the spec below).

export const maxQueueNameLength = 80;

/** The queue name: SQS-valid, and immutable because SQS cannot rename a queue. */
export const queueNameSchema = immutable(
  stringField("queueName")
    .min(1, "queueName must be 1-80 characters (SQS queue naming rules)")
    .max(maxQueueNameLength, "queueName must be 1-80 characters (SQS queue naming rules)")
    .regex(
      /^[A-Za-z0-9_-]+(\.fifo)?$/,
      "queueName must use only ASCII letters, digits, '-' and '_', with a '.fifo' suffix for a FIFO queue (SQS queue naming rules)",
    ),
  "queueName is immutable: SQS cannot rename a queue; create a new Queue resource instead",
);

/** FIFO or standard is chosen at creation for good; the name's .fifo suffix must agree. */
export const fifoQueueSchema = immutable(
  stringBooleanField("fifoQueue"),
  "fifoQueue is immutable: SQS cannot change a queue between FIFO and standard; create a new Queue resource instead",
);

// ---- numeric attributes, as ACK's strings ----

/**
 * A whole number in [min, max] written as a string (ACK's shape). One rule, so that zod and
 * CEL say the same thing; the pattern is checked first so CEL's int() never sees a non-number.
 */
function numberStringField(field: string, min: number, max: number, unit: string) {
  const message = `${field} must be a whole number from ${min} to ${max} ${unit} (SQS limit), written as a string, e.g. "${min}"`;
  const rule: Rule<string> = {
    cel: `self.matches('^[0-9]{1,10}$') && int(self) >= ${min} && int(self) <= ${max}`,
    message,
    check: (s) => /^[0-9]{1,10}$/.test(s) && Number(s) >= min && Number(s) <= max,
  };
  return withRules(stringField(field).max(10, message), rule);
}

/** The numeric attributes: spec field → [min, max, unit]. */
export const numericLimits = {
  delaySeconds: [0, 900, "seconds"],
  maximumMessageSize: [1024, 1048576, "bytes"],
  messageRetentionPeriod: [60, 1209600, "seconds"],
  receiveMessageWaitTimeSeconds: [0, 20, "seconds"],
  visibilityTimeout: [0, 43200, "seconds"],
  kmsDataKeyReusePeriodSeconds: [60, 86400, "seconds"],
} as const satisfies Record<string, readonly [number, number, string]>;

const numeric = (field: keyof typeof numericLimits) => {
  const [min, max, unit] = numericLimits[field];
  return numberStringField(field, min, max, unit);
};

// ---- documents ----

/** SQS's limit on a queue's access policy (and so on any attribute document). */
export const maxPolicyLength = 20 * 1024;

/** The queue's access policy; absent = none. */
export const policySchema = jsonDocumentField("policy", '{"Version": "2012-10-17", "Statement": [...]}', {
  maxLength: maxPolicyLength,
  service: "SQS",
  ifRemoved: "for no policy",
});
/** The dead-letter queue configuration; absent = none. */
export const redrivePolicySchema = jsonDocumentField(
  "redrivePolicy",
  '{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:111111111111:orders-dlq", "maxReceiveCount": 5}',
  { maxLength: maxPolicyLength, service: "SQS", ifRemoved: "for no redrivePolicy" },
);
/** Which source queues may use this queue as their dead-letter queue; absent = SQS's default (all). */
export const redriveAllowPolicySchema = jsonDocumentField(
  "redriveAllowPolicy",
  '{"redrivePermission": "byQueue", "sourceQueueArns": ["arn:aws:sqs:us-east-1:111111111111:orders"]}',
  { maxLength: maxPolicyLength, service: "SQS", ifRemoved: "for SQS's default (allowAll)" },
);

// ---- FIFO throughput (FIFO queues only; SQS's values, case as SQS writes them) ----

export const deduplicationScopes = ["messageGroup", "queue"] as const;
export const fifoThroughputLimits = ["perQueue", "perMessageGroupId"] as const;

// ---- tags: a map, as in ACK (the generated schema: src/services/tag-map.ts) ----

/** SQS recommends at most 50 tags on a queue; crossrole's ownership tags take some of them. */
export const maxQueueTags = maxUserMapTags;

// ---- the kind's schemas: the generated ones with the rules above ----

const isFifo = (spec: { fifoQueue?: string | undefined }): boolean => spec.fifoQueue === "true";

const fifoOnly = (field: "contentBasedDeduplication" | "deduplicationScope" | "fifoThroughputLimit") => ({
  cel: `!has(self.${field}) || (has(self.fifoQueue) && self.fifoQueue == 'true')`,
  message: `${field} applies only to FIFO queues (SQS refuses it on a standard queue); remove it or set fifoQueue "true"`,
  fieldPath: `.${field}`,
  check: (spec: { readonly fifoQueue?: string | undefined } & Record<string, unknown>) =>
    spec[field] === undefined || isFifo(spec),
});

const queue = declaredKindSchemas(
  { kind: queueKind, declaration: queueDeclaration, generated: queueGenerated },
  {
    values: {
      queueName: queueNameSchema,
      delaySeconds: numeric("delaySeconds").optional(),
      maximumMessageSize: numeric("maximumMessageSize").optional(),
      messageRetentionPeriod: numeric("messageRetentionPeriod").optional(),
      receiveMessageWaitTimeSeconds: numeric("receiveMessageWaitTimeSeconds").optional(),
      visibilityTimeout: numeric("visibilityTimeout").optional(),
      policy: policySchema.optional(),
      redrivePolicy: redrivePolicySchema.optional(),
      redriveAllowPolicy: redriveAllowPolicySchema.optional(),
      fifoQueue: fifoQueueSchema.optional(),
      contentBasedDeduplication: stringBooleanField("contentBasedDeduplication").optional(),
      deduplicationScope: z
        .enum(deduplicationScopes, {
          error: `deduplicationScope must be one of ${deduplicationScopes.join(", ")}`,
        })
        .optional(),
      fifoThroughputLimit: z
        .enum(fifoThroughputLimits, {
          error: `fifoThroughputLimit must be one of ${fifoThroughputLimits.join(", ")}`,
        })
        .optional(),
      kmsMasterKeyID: stringField("kmsMasterKeyID")
        .min(1, "kmsMasterKeyID must not be empty; remove it for no SSE-KMS")
        .max(2048, "kmsMasterKeyID must be at most 2048 characters")
        .optional(),
      kmsDataKeyReusePeriodSeconds: numeric("kmsDataKeyReusePeriodSeconds").optional(),
      sqsManagedSSEEnabled: stringBooleanField("sqsManagedSSEEnabled").optional(),
    },
    rules: [
      {
        cel: "self.queueName.endsWith('.fifo') == (has(self.fifoQueue) && self.fifoQueue == 'true')",
        message:
          'queueName must end with ".fifo" exactly when fifoQueue is "true" (SQS naming rule for FIFO queues); fix queueName or fifoQueue',
        fieldPath: ".queueName",
        check: (spec) => spec.queueName.endsWith(".fifo") === isFifo(spec),
      },
      fifoOnly("contentBasedDeduplication"),
      fifoOnly("deduplicationScope"),
      fifoOnly("fifoThroughputLimit"),
      {
        cel: "!has(self.kmsMasterKeyID) || !has(self.sqsManagedSSEEnabled) || self.sqsManagedSSEEnabled == 'false'",
        message:
          'sqsManagedSSEEnabled "true" and kmsMasterKeyID are two kinds of encryption and SQS keeps one: remove kmsMasterKeyID or set sqsManagedSSEEnabled "false"',
        fieldPath: ".sqsManagedSSEEnabled",
        check: (spec) => spec.kmsMasterKeyID === undefined || spec.sqsManagedSSEEnabled !== "true",
      },
    ],
    // ACK's status: ackResourceMetadata and conditions, plus the queue's URL and ARN.
    status: {
      queueURL: z.string().optional().describe("The queue's URL, which SQS calls address it by."),
      queueARN: z.string().optional().describe("The queue's ARN."),
    },
  },
);

export const {
  spec: queueSpecSchema,
  status: queueStatusSchema,
  object: queueSchema,
  crdSource: queueCrdSource,
} = queue;
export type QueueSpec = z.infer<typeof queueSpecSchema>;
/** A queue's managed configuration, without identityRef. */
export type QueueFields = ResourceFields<QueueSpec>;
export type QueueStatus = z.infer<typeof queueStatusSchema>;
export type Queue = z.infer<typeof queueSchema>;
