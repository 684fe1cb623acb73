// The SNS Topic service module: what the reconciler imports (schema, mapping, diff, CRUD, errors).
export { snsClientFactory } from "./client.ts";
export {
  diff,
  type FieldDifference,
  lateInitialize,
  lateInitializedFields,
  type TopicField,
} from "./diff.ts";
export {
  classifyError,
  type ErrorDisposition,
  errorCode,
  isTopicError,
  type SnsOperation,
  TopicError,
} from "./errors.ts";
export { arnOf, parseTopicArn, tagMapOf, userTags } from "./mapping.ts";
export {
  type Topic,
  type TopicFields,
  type TopicSpec,
  type TopicStatus,
  topicCrdSource,
  topicKind,
  topicSchema,
  topicSpecSchema,
} from "./schema.ts";
export {
  type CreateResult,
  claimTopic,
  createTopic,
  deleteTopic,
  type ObservedTopic,
  type OwnerTags,
  type ReadResult,
  readTopic,
  type TopicClient,
  topicArn,
  updateTopic,
} from "./topic.ts";
