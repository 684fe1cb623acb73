// The Queue kind as a declaration (DESIGN §7): its spec is CreateQueue's name and tags plus the
// queue attributes ACK's sqs-controller exposes, each a string as in SQS's attribute map.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const queueDeclaration = {
  service: "sqs",
  kind: "Queue",
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
  references: [
    { field: "KmsMasterKeyId", service: "kms", kind: "Key" },
    { field: "Policy", service: "iam", kind: "Policy" },
  ],
} as const satisfies KindDeclaration;
