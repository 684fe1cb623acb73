// The Queue kind as a declaration (CONTRIBUTING.md, "How a kind is made"): its spec is CreateQueue's name and tags plus the
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
  create: "CreateQueue",
  groups: [
    {
      set: "SetQueueAttributes",
      read: "GetQueueAttributes",
      fields: {
        DelaySeconds: { form: "number" },
        MaximumMessageSize: { form: "number" },
        MessageRetentionPeriod: { form: "number" },
        ReceiveMessageWaitTimeSeconds: { form: "number" },
        VisibilityTimeout: { form: "number" },
        Policy: { form: "document" },
        RedrivePolicy: { form: "document" },
        RedriveAllowPolicy: { form: "document", default: '{"redrivePermission":"allowAll"}' },
        // Only FIFO queues have it (the schema refuses it on a standard one, which reports none).
        ContentBasedDeduplication: { form: "boolean", default: "false" },
        DeduplicationScope: {},
        FifoThroughputLimit: {},
        KmsMasterKeyId: {},
        KmsDataKeyReusePeriodSeconds: { form: "number" },
        SqsManagedSseEnabled: { form: "boolean" },
      },
    },
    { set: "TagQueue", remove: "UntagQueue", read: "ListQueueTags", fields: { tags: { form: "tags" } } },
  ],
  references: [
    { field: "KmsMasterKeyId", service: "kms", kind: "Key" },
    // ACK's `path: Spec.PolicyDocument`: the IAM Policy's document is the access policy.
    { field: "Policy", service: "iam", kind: "Policy", fills: { spec: "policyDocument" } },
  ],
  // Served by the generic runtime (src/services/declared-kind/): SQS addresses a queue by the URL
  // GetQueueUrl gives for its name in the caller's own account, so a read only ever looks there.
  runtime: {
    // Principals in accounts the namespace is not granted are warned of or refused (the queue's access policy).
    principals: ["Policy"],
    service: "SQS",
    noun: "queue",
    locate: { call: "GetQueueUrl", handle: "QueueUrl" },
    read: { call: "GetQueueAttributes", output: "Attributes", input: { AttributeNames: ["All"] } },
    delete: "DeleteQueue",
    arn: "QueueArn",
    arnResource: "",
    notFound: ["QueueDoesNotExist"],
    alreadyExists: ["QueueNameExists"],
    tags: { resource: "QueueUrl", keys: "TagKeys", list: "Tags", set: "Tags" },
    status: { handle: "queueURL", arn: "queueARN" },
    // SQS's legacy query codes (the SDK's `Code` on the JSON protocol), by their modern names.
    codeAliases: {
      "AWS.SimpleQueueService.NonExistentQueue": "QueueDoesNotExist",
      QueueAlreadyExists: "QueueNameExists",
      "AWS.SimpleQueueService.QueueDeletedRecently": "QueueDeletedRecently",
      "AWS.SimpleQueueService.UnsupportedOperation": "UnsupportedOperation",
    },
    fieldNamedIn: ["InvalidAttributeValue", "InvalidAttributeName"],
    throttled: ["RequestThrottled", "OverLimit"],
    accessDenied: ["AuthorizationError"],
    iamActions: { CreateQueue: "sqs:CreateQueue (and sqs:TagQueue to tag at creation)" },
    hints: {
      UnsupportedOperation: " (SQS does not support this for the queue; fix {field})",
      KmsNotFound: " (the KMS key is not usable for SQS; fix spec.kmsMasterKeyID)",
      KmsInvalidKeyUsage: " (the KMS key is not usable for SQS; fix spec.kmsMasterKeyID)",
      ...Object.fromEntries(
        ["KmsDisabled", "KmsInvalidState", "KmsAccessDenied", "KmsThrottled"].map((c) => [
          c,
          " (the KMS key named by spec.kmsMasterKeyID is not usable yet; retrying)",
        ]),
      ),
      QueueDeletedRecently:
        ' (SQS keeps a deleted queue\'s name for 60 seconds before spec.queueName "{name}" can be created again; retrying)',
      QueueNameExists: ' (a queue named "{name}" already exists in this account with other attributes)',
      QueueDoesNotExist: {
        "spec.redrivePolicy":
          " (the dead-letter queue spec.redrivePolicy names does not exist in this account and region yet; create it or fix spec.redrivePolicy; retrying)",
        "": " (the queue is gone; retrying)",
      },
    },
  },
} as const satisfies KindDeclaration;
