// DynamoDB failures sorted into what the reconciler does with them: `terminal` (ACK.Terminal, no
// retry until the spec changes: only the user can fix it) or `retryable` (back off and try
// again: throttling, limits, 5xx, network, permissions an administrator may still grant, a
// table busy with an earlier change). Every message names the table, the DynamoDB operation
// and the spec field.

import {
  deletionProtectedError,
  failureError,
  fallbackCode,
  genericErrorNames,
  messageOf,
  objectErrorClass,
  type SdkErrorLike,
  type ServiceRules,
  sdkErrorName,
} from "../service-error.ts";
import { tableDeclared } from "./generated/table-fields.ts";

/** The DynamoDB operations this module calls; each error names the one that failed. */
export type DynamoOperation =
  | "CreateTable"
  | "DescribeTable"
  | "UpdateTable"
  | "DeleteTable"
  | "ListTagsOfResource"
  | "TagResource"
  | "UntagResource"
  | "DescribeTimeToLive"
  | "UpdateTimeToLive"
  | "DescribeContinuousBackups"
  | "UpdateContinuousBackups"
  | "DescribeContributorInsights"
  | "UpdateContributorInsights"
  | "GetResourcePolicy"
  | "PutResourcePolicy"
  | "DeleteResourcePolicy";

/** The IAM action each operation needs, for AccessDenied messages. */
const iamActions: Record<DynamoOperation, string> = {
  CreateTable: "dynamodb:CreateTable (and dynamodb:TagResource to tag at creation)",
  DescribeTable: "dynamodb:DescribeTable",
  UpdateTable: "dynamodb:UpdateTable",
  DeleteTable: "dynamodb:DeleteTable",
  ListTagsOfResource: "dynamodb:ListTagsOfResource",
  TagResource: "dynamodb:TagResource",
  UntagResource: "dynamodb:UntagResource",
  DescribeTimeToLive: "dynamodb:DescribeTimeToLive",
  UpdateTimeToLive: "dynamodb:UpdateTimeToLive",
  DescribeContinuousBackups: "dynamodb:DescribeContinuousBackups",
  UpdateContinuousBackups: "dynamodb:UpdateContinuousBackups",
  DescribeContributorInsights: "dynamodb:DescribeContributorInsights",
  UpdateContributorInsights: "dynamodb:UpdateContributorInsights",
  GetResourcePolicy: "dynamodb:GetResourcePolicy",
  PutResourcePolicy: "dynamodb:PutResourcePolicy",
  DeleteResourcePolicy: "dynamodb:DeleteResourcePolicy",
};

export const TableError = objectErrorClass<DynamoOperation, "table">("TableError", "table");
export type TableError = InstanceType<typeof TableError>;

export function isTableError(err: unknown): err is TableError {
  return err instanceof TableError;
}

/** Codes only a change of the spec can fix. */
/** The declaration's terminal codes (dynamodb's declaration): only a spec change fixes them. */
const terminalCodes: ReadonlySet<string> = new Set(tableDeclared.terminalCodes);

const genericNames = new Set([...genericErrorNames, "DynamoDBServiceException"]);

/**
 * DynamoDB's error code without the "Exception" suffix (ResourceNotFound, ResourceInUse,
 * Validation, LimitExceeded, ...), else a Node system error code (ECONNREFUSED), else HTTP<n>.
 */
export function errorCode(err: unknown): string {
  const name = sdkErrorName(err, genericNames);
  if (name === undefined) return fallbackCode(err);
  return name.replace(/^com\.amazonaws\.dynamodb\.v\d+#/, "").replace(/Exception$/, "");
}

/** No table of that name in this account and region. */
export function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === "ResourceNotFound" || code === "TableNotFound";
}

/** The table exists already (CreateTable) or is busy with an earlier change (Update/DeleteTable). */
export function isInUse(err: unknown): boolean {
  return errorCode(err) === "ResourceInUse";
}

/** GetResourcePolicy on a table that has none. */
export function isPolicyNotFound(err: unknown): boolean {
  return errorCode(err) === "PolicyNotFound";
}

/**
 * A delete waiting for the global table's replicas in other Regions to go first: retried
 * (ResourceInUse), naming the Regions.
 */
export function replicasFirstError(table: string, regions: readonly string[]): TableError {
  const err = Object.assign(
    new Error(`the replicas in ${regions.join(", ")} are deleted first, one at a time; waiting`),
    { name: "ResourceInUseException" },
  );
  return classifyError(err, { operation: "DeleteTable", table, field: "spec.tableReplicas" });
}

/** DeleteTable refused because deletion protection is on. */
export function isDeletionProtected(err: unknown): boolean {
  const text = String(((err ?? {}) as SdkErrorLike).message ?? "");
  return errorCode(err) === "Validation" && /deletion ?protect/i.test(text);
}

/** DynamoDB's request parameters → the spec field they come from, for ValidationException messages. */
const fieldsByParameter: readonly [RegExp, string][] = [
  [/ReplicaUpdates|Replica|RegionName/i, "spec.tableReplicas"],
  [/LocalSecondaryIndex/i, "spec.localSecondaryIndexes"],
  [/GlobalSecondaryIndex/i, "spec.globalSecondaryIndexes"],
  [/OnDemandThroughput|RequestUnits/i, "spec.onDemandThroughput"],
  [/ResourcePolicy|\bPolicy\b/i, "spec.resourcePolicy"],
  [/PointInTimeRecovery|RecoveryPeriod/i, "spec.continuousBackups"],
  [/ContributorInsights/i, "spec.contributorInsights"],
  [/ProvisionedThroughput|ReadCapacityUnits|WriteCapacityUnits/i, "spec.provisionedThroughput"],
  [/BillingMode|PAY_PER_REQUEST/i, "spec.billingMode"],
  [/StreamSpecification|StreamViewType|stream/i, "spec.streamSpecification"],
  [/SSESpecification|KMSMasterKey|SSEType/i, "spec.sseSpecification"],
  [/TimeToLive/i, "spec.timeToLive"],
  [/DeletionProtection/i, "spec.deletionProtectionEnabled"],
  [/TableClass/i, "spec.tableClass"],
  [/KeySchema/i, "spec.keySchema"],
  [/AttributeDefinition/i, "spec.attributeDefinitions"],
  [/TableName/i, "spec.tableName"],
  [/\bTags?\b/i, "spec.tags"],
];

/** The spec field a ValidationException's message names, when the operation did not say. */
export function fieldFromMessage(message: string): string | undefined {
  for (const [pattern, field] of fieldsByParameter) if (pattern.test(message)) return field;
  return undefined;
}

export interface ErrorContext {
  readonly operation: DynamoOperation;
  readonly table: string;
  readonly field?: string;
}

/** What the shared classification (../service-error.ts) needs of DynamoDB: its names, its codes. */
const rules: ServiceRules<DynamoOperation> = {
  service: "DynamoDB",
  noun: "table",
  genericNames,
  terminalCodes,
  iamActions,
  refusedValue: terminalCodes,
  accessDenied: new Set(["AccessDenied", "UnrecognizedClient"]),
  gone: new Set(["ResourceNotFound", "TableNotFound"]),
  throttled: new Set(["Throttling", "RequestLimitExceeded", "ProvisionedThroughputExceeded"]),
};

/** Wraps any failure of a DynamoDB call into a TableError that says what to do about it. */
export function classifyError(err: unknown, ctx: ErrorContext): TableError {
  if (isTableError(err)) return err;
  const code = errorCode(err);
  const { operation, table } = ctx;
  if (operation === "DeleteTable" && isDeletionProtected(err)) {
    const field = "spec.deletionProtectionEnabled";
    return deletionProtectedError(TableError, rules, err, {
      operation,
      name: table,
      code,
      field,
      keep: "table",
    });
  }
  const field =
    ctx.field ??
    (code === "Validation" || code === "InvalidParameter" ? fieldFromMessage(messageOf(err)) : undefined);
  return failureError(TableError, rules, err, { operation, name: table, code, field, hint: hint(code, ctx) });
}

/** DynamoDB's own hints; the codes of `rules` (and 5xx answers) get the shared ones. */
function hint(code: string, ctx: ErrorContext): string | undefined {
  switch (code) {
    case "ResourceInUse":
      return ctx.operation === "DeleteTable"
        ? " (table is busy with an earlier change; retrying)"
        : " (table is busy with an earlier change: DynamoDB takes one change at a time; retrying)";
    case "LimitExceeded":
      return " (a DynamoDB limit on concurrent table operations or throughput decreases was reached; retrying)";
    default:
      return undefined;
  }
}
