// The RDS DBInstance service module: what the reconciler imports (schema, mapping, diff, CRUD, errors).
export { rdsClientFactory } from "./client.ts";
export {
  type CreateResult,
  claimDBInstance,
  createDBInstance,
  type DBInstanceClient,
  type DeleteOptions,
  defaultDeleteOptions,
  deleteDBInstance,
  deleteOptionsFromAnnotations,
  deletionAnnotations,
  describeDBInstance,
  masterUserPasswordPath,
  type ObservedDBInstance,
  type OwnerTags,
  passwordMissing,
  type ReadResult,
  readDBInstance,
  type UpdateResult,
  updateDBInstance,
} from "./dbinstance.ts";
export {
  compareVersions,
  type DBInstanceField,
  diff,
  engineVersionDrift,
  type FieldDifference,
  lateInitialize,
  lateInitializedFields,
  specStorageType,
} from "./diff.ts";
export {
  classifyError,
  DBInstanceError,
  type ErrorDisposition,
  errorCode,
  isDBInstanceError,
  type RdsOperation,
  redact,
} from "./errors.ts";
export {
  arnOf,
  awsIdentifier,
  parseDBInstanceArn,
  statusFromInstance,
  steadyStatuses,
  stuckStatuses,
  tagMapOf,
  userTags,
} from "./mapping.ts";
export {
  type DBInstance,
  type DBInstanceFields,
  type DBInstanceSpec,
  type DBInstanceStatus,
  dbInstanceCrdSource,
  dbInstanceKind,
  dbInstanceSchema,
  dbInstanceSpecSchema,
} from "./schema.ts";
