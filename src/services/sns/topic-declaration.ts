// The Topic kind as a declaration (DESIGN §7): CreateTopic's name, tags and data protection
// policy, plus the topic attributes ACK's sns-controller exposes, each a string as in SNS's
// attribute map.
import type { KindDeclaration } from "../../codegen/declaration.ts";

const feedbackRoles = ["Application", "Firehose", "HTTP", "Lambda", "SQS"].flatMap((endpoint) => [
  `${endpoint}FailureFeedbackRoleArn`,
  `${endpoint}SuccessFeedbackRoleArn`,
]);

export const topicDeclaration = {
  service: "sns",
  kind: "Topic",
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
  references: [
    ...feedbackRoles.map((field) => ({ field, service: "iam", kind: "Role" })),
    { field: "KmsMasterKeyId", service: "kms", kind: "Key" },
    { field: "Policy", service: "iam", kind: "Policy" },
  ],
} as const satisfies KindDeclaration;
