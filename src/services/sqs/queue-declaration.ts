// The Queue kind as a declaration (DESIGN §7): its spec is CreateQueue's name and tags plus the
// queue attributes ACK's sqs-controller exposes, each a string as in SQS's attribute map.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const queueDeclaration = {
  service: "sqs",
  kind: "Queue",
  identifier: "QueueName",
  immutable: ["QueueName", "FifoQueue"],
  lateInitialized: [
    "DelaySeconds",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "ReceiveMessageWaitTimeSeconds",
    "VisibilityTimeout",
    "KmsDataKeyReusePeriodSeconds",
    "SqsManagedSseEnabled",
    "DeduplicationScope",
    "FifoThroughputLimit",
  ],
  terminalCodes: [
    "InvalidAttributeValue",
    "InvalidAttributeName",
    "InvalidParameterValue",
    "InvalidParameterCombination",
    "MissingParameter",
    "UnsupportedOperation",
    "ValidationError",
    "KmsNotFound",
    "KmsInvalidKeyUsage",
  ],
  spec: [
    { members: "CreateQueueRequest", only: ["QueueName"] },
    {
      attributes: "CreateQueueRequest.Attributes",
      names: [
        "ContentBasedDeduplication",
        "DeduplicationScope",
        "DelaySeconds",
        "FifoQueue",
        "FifoThroughputLimit",
        "KmsDataKeyReusePeriodSeconds",
        "KmsMasterKeyId",
        "MaximumMessageSize",
        "MessageRetentionPeriod",
        "Policy",
        "ReceiveMessageWaitTimeSeconds",
        "RedriveAllowPolicy",
        "RedrivePolicy",
        "SqsManagedSseEnabled",
        "VisibilityTimeout",
      ],
    },
    { members: "CreateQueueRequest", only: ["tags"] },
  ],
  notes: {
    QueueName: "Immutable: SQS cannot rename a queue.",
    FifoQueue: "Immutable: chosen at creation.",
    ...Object.fromEntries(
      [
        "DelaySeconds",
        "MaximumMessageSize",
        "MessageRetentionPeriod",
        "ReceiveMessageWaitTimeSeconds",
        "VisibilityTimeout",
        "KmsDataKeyReusePeriodSeconds",
        "SqsManagedSseEnabled",
        "DeduplicationScope",
        "FifoThroughputLimit",
      ].map((a) => [
        a,
        "Left out, SQS's value is kept and copied into the spec: it can be changed, not removed.",
      ]),
    ),
    RedriveAllowPolicy: "Removed from the spec, SQS's default is set again (allowAll).",
    ContentBasedDeduplication: 'Removed from the spec, it is set to "false".',
  },
  references: [
    { field: "KmsMasterKeyId", service: "kms", kind: "Key" },
    { field: "Policy", service: "iam", kind: "Policy" },
  ],
} as const satisfies KindDeclaration;
