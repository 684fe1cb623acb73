// The Topic kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateTopic's name, tags and data protection
// policy, plus the topic attributes ACK's sns-controller exposes, each a string as in SNS's
// attribute map.
import type { KindDeclaration } from "../../codegen/declaration.ts";

const feedbackRoles = ["Application", "Firehose", "HTTP", "Lambda", "SQS"].flatMap((endpoint) => [
  `${endpoint}FailureFeedbackRoleArn`,
  `${endpoint}SuccessFeedbackRoleArn`,
]);

const endpoints = ["Application", "Firehose", "HTTP", "Lambda", "SQS"];

export const topicDeclaration = {
  service: "sns",
  kind: "Topic",
  identifier: "Name",
  immutable: ["Name", "FifoTopic"],
  lateInitialized: [
    "Policy",
    "DeliveryPolicy",
    "SignatureVersion",
    "TracingConfig",
    "FifoThroughputScope",
    "ApplicationSuccessFeedbackSampleRate",
    "FirehoseSuccessFeedbackSampleRate",
    "HTTPSuccessFeedbackSampleRate",
    "LambdaSuccessFeedbackSampleRate",
    "SQSSuccessFeedbackSampleRate",
  ],
  terminalCodes: [
    "InvalidParameter",
    "InvalidParameterValue",
    "TagLimitExceeded",
    "TagPolicy",
    "KMSNotFound",
    "InvalidSecurity",
    "ValidationError",
  ],
  spec: [
    { members: "CreateTopicInput", only: ["Name", "DataProtectionPolicy", "Tags"] },
    {
      attributes: "CreateTopicInput.Attributes",
      documentedAlsoBy: ["SetTopicAttributesInput.AttributeName", "GetTopicAttributesResponse.Attributes"],
      names: [
        ...feedbackRoles,
        "ApplicationSuccessFeedbackSampleRate",
        "ContentBasedDeduplication",
        "DeliveryPolicy",
        "DisplayName",
        "FifoThroughputScope",
        "FifoTopic",
        "FirehoseSuccessFeedbackSampleRate",
        "HTTPSuccessFeedbackSampleRate",
        "KmsMasterKeyId",
        "LambdaSuccessFeedbackSampleRate",
        "Policy",
        "SignatureVersion",
        "SQSSuccessFeedbackSampleRate",
        "TracingConfig",
      ],
    },
  ],
  create: "CreateTopic",
  groups: [
    {
      set: "SetTopicAttributes",
      read: "GetTopicAttributes",
      fields: {
        DisplayName: {},
        Policy: { form: "document" },
        DeliveryPolicy: { form: "document" },
        KmsMasterKeyId: {},
        ContentBasedDeduplication: { form: "boolean", default: "false" },
        FifoThroughputScope: {},
        SignatureVersion: {},
        TracingConfig: {},
        ...Object.fromEntries(
          endpoints.flatMap((e) => [
            [`${e}SuccessFeedbackRoleArn`, {}],
            [`${e}FailureFeedbackRoleArn`, {}],
          ]),
        ),
        ...Object.fromEntries(
          endpoints.map((e) => [`${e}SuccessFeedbackSampleRate`, { form: "number" as const }]),
        ),
      },
    },
    {
      // SNS has no call that removes a data protection policy: it is managed while the spec sets it.
      set: "PutDataProtectionPolicy",
      read: "GetDataProtectionPolicy",
      fields: { DataProtectionPolicy: { form: "document", absent: "kept" } },
    },
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "ListTagsForResource",
      fields: { Tags: { form: "tags" } },
    },
  ],
  notes: {
    Name: "Immutable: SNS cannot rename a topic.",
    FifoTopic: "Immutable: chosen at creation.",
    DataProtectionPolicy:
      "Managed while it is in the spec; removed from the spec, SNS keeps the policy it has (SNS has no call that deletes one).",
    ...Object.fromEntries(
      [
        "Policy",
        "DeliveryPolicy",
        "SignatureVersion",
        "TracingConfig",
        "FifoThroughputScope",
        ...["Application", "Firehose", "HTTP", "Lambda", "SQS"].map((e) => `${e}SuccessFeedbackSampleRate`),
      ].map((a) => [
        a,
        "Left out, SNS's value is kept and copied into the spec: it can be changed, not removed.",
      ]),
    ),
    ...Object.fromEntries(
      feedbackRoles.map((a) => [a, "Removed from the spec, the role is removed from the topic."]),
    ),
    ContentBasedDeduplication: 'Removed from the spec, it is set to "false".',
  },
  references: [
    ...feedbackRoles.map((field) => ({ field, service: "iam", kind: "Role", fills: "arn" as const })),
    { field: "KmsMasterKeyId", service: "kms", kind: "Key" },
    // ACK's `path: Spec.PolicyDocument`: the IAM Policy's document is the access policy.
    { field: "Policy", service: "iam", kind: "Policy", fills: { spec: "policyDocument" } },
  ],
  // Served by the generic runtime (src/services/declared-kind/): SNS addresses a topic by its ARN,
  // which names the account, so a read only ever looks in the account the client acts in.
  runtime: {
    // Principals in accounts the namespace is not granted are warned of or refused (the topic's access policy).
    principals: ["Policy"],
    service: "SNS",
    noun: "topic",
    byArn: ["TopicArn", "ResourceArn"],
    createAnswersExisting: true,
    read: { call: "GetTopicAttributes", output: "Attributes" },
    delete: "DeleteTopic",
    arn: "TopicArn",
    arnResource: "",
    // GetTopicAttributes says NotFound, the tagging API ResourceNotFound.
    notFound: ["NotFound", "ResourceNotFound"],
    // CreateTopic on a name the account has, with other tags or attributes.
    alreadyExists: [{ code: "InvalidParameter", message: "already exists" }],
    tags: { resource: "ResourceArn", keys: "TagKeys", list: "Tags" },
    status: { arn: "topicARN" },
    // "Invalid parameter: DisplayName", "Invalid parameter: Topic Name".
    fieldNamedIn: ["InvalidParameter", "InvalidParameterValue"],
    throttled: ["Throttled"],
    accessDenied: ["AuthorizationError"],
    hints: {
      TagLimitExceeded:
        " (a topic holds at most 50 tags, crossrole's ownership tags included; remove some from spec.tags)",
      TagPolicy: " (the organization's tag policy refuses these tags; fix spec.tags)",
      KMSNotFound: " (no such KMS key; fix spec.kmsMasterKeyID)",
      ...Object.fromEntries(
        ["KMSDisabled", "KMSInvalidState", "KMSAccessDenied", "KMSOptInRequired", "KMSThrottling"].map(
          (c) => [c, " (the KMS key named by spec.kmsMasterKeyID is not usable yet; retrying)"],
        ),
      ),
    },
  },
} as const satisfies KindDeclaration;
