// The DynamoDB Table service module: what the reconciler imports (schema, mapping, diff, CRUD, errors).
export { dynamodbClientFactory } from "./client.ts";
export {
  diff,
  type FieldDifference,
  type GsiChange,
  gsiChanges,
  lateInitialize,
  lateInitializedFields,
  type TableField,
} from "./diff.ts";
export {
  classifyError,
  type DynamoOperation,
  type ErrorDisposition,
  errorCode,
  isTableError,
  TableError,
} from "./errors.ts";
export { arnOf, parseTableArn, statusFromDescription, tagMapOf, userTags } from "./mapping.ts";
export {
  type Table,
  type TableFields,
  type TableSpec,
  type TableStatus,
  tableCrdSource,
  tableKind,
  tableSchema,
  tableSpecSchema,
} from "./schema.ts";
export {
  busyState,
  type CreateResult,
  claimTable,
  createTable,
  deleteTable,
  describeTable,
  type ObservedTable,
  type OwnerTags,
  type ReadResult,
  readTable,
  type TableClient,
  updateTable,
} from "./table.ts";
