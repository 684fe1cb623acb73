// The SQS Queue service module: what the reconciler imports (schema, mapping, diff, CRUD, errors).
export { sqsClientFactory } from "./client.ts";
export {
  diff,
  type FieldDifference,
  lateInitialize,
  lateInitializedFields,
  type QueueField,
} from "./diff.ts";
export {
  classifyError,
  type ErrorDisposition,
  errorCode,
  isQueueError,
  QueueError,
  type SqsOperation,
} from "./errors.ts";
export { arnOf, parseQueueArn, regionOfQueueUrl, userTags } from "./mapping.ts";
export {
  type CreateResult,
  claimQueue,
  createQueue,
  deleteQueue,
  type ObservedQueue,
  type OwnerTags,
  type QueueClient,
  queueUrlOf,
  type ReadResult,
  readQueue,
  updateQueue,
} from "./queue.ts";
export {
  type Queue,
  type QueueFields,
  type QueueSpec,
  type QueueStatus,
  queueCrdSource,
  queueKind,
  queueSchema,
  queueSpecSchema,
} from "./schema.ts";
