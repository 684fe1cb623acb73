// DynamoDB failures sorted into what the reconciler does with them: `terminal` (ACK.Terminal, no
// retry until the spec changes: only the user can fix it) or `retryable` (back off and try
// again: throttling, limits, 5xx, network, permissions an administrator may still grant, a
// table busy with an earlier change). Every message names the table, the DynamoDB operation
// and the spec field.

export type ErrorDisposition = "terminal" | "retryable";

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
  | "UpdateTimeToLive";

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
};

export interface TableErrorInit {
  readonly disposition: ErrorDisposition;
  /** DynamoDB's error code without "Exception" (or the SDK's error name for network failures). */
  readonly code: string;
  readonly operation: DynamoOperation;
  readonly table: string;
  /** `spec.<field>` the operation was applying, when there is one. */
  readonly field?: string;
  readonly message: string;
  readonly cause?: unknown;
}

export class TableError extends Error {
  override readonly name = "TableError";
  readonly disposition: ErrorDisposition;
  readonly code: string;
  readonly operation: DynamoOperation;
  readonly table: string;
  readonly field: string | undefined;

  constructor(init: TableErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.disposition = init.disposition;
    this.code = init.code;
    this.operation = init.operation;
    this.table = init.table;
    this.field = init.field;
  }

  get terminal(): boolean {
    return this.disposition === "terminal";
  }
}

export function isTableError(err: unknown): err is TableError {
  return err instanceof TableError;
}

/** Codes only a change of the spec can fix. */
const terminalCodes = new Set(["Validation", "InvalidParameter", "InvalidParameterValue", "Serialization"]);

interface SdkErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $metadata?: { httpStatusCode?: number };
}

const genericNames = new Set(["", "Error", "Unknown", "UnknownError", "DynamoDBServiceException"]);

/**
 * DynamoDB's error code without the "Exception" suffix (ResourceNotFound, ResourceInUse,
 * Validation, LimitExceeded, ...), else a Node system error code (ECONNREFUSED), else HTTP<n>.
 */
export function errorCode(err: unknown): string {
  const e = (err ?? {}) as SdkErrorLike;
  if (typeof e.name === "string" && !genericNames.has(e.name)) {
    return e.name.replace(/^com\.amazonaws\.dynamodb\.v\d+#/, "").replace(/Exception$/, "");
  }
  if (typeof e.code === "string" && e.code !== "") return e.code;
  const status = httpStatus(err);
  return status === undefined ? "Unknown" : `HTTP${status}`;
}

export function httpStatus(err: unknown): number | undefined {
  return ((err ?? {}) as SdkErrorLike).$metadata?.httpStatusCode;
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

/** DeleteTable refused because deletion protection is on. */
export function isDeletionProtected(err: unknown): boolean {
  const text = String(((err ?? {}) as SdkErrorLike).message ?? "");
  return errorCode(err) === "Validation" && /deletion ?protect/i.test(text);
}

/** DynamoDB's request parameters → the spec field they come from, for ValidationException messages. */
const fieldsByParameter: readonly [RegExp, string][] = [
  [/GlobalSecondaryIndex/i, "spec.globalSecondaryIndexes"],
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

/** Wraps any failure of a DynamoDB call into a TableError that says what to do about it. */
export function classifyError(err: unknown, ctx: ErrorContext): TableError {
  if (isTableError(err)) return err;
  const code = errorCode(err);
  const status = httpStatus(err);
  const awsMessage = ((err ?? {}) as SdkErrorLike).message;
  const text = typeof awsMessage === "string" ? awsMessage : "";
  const detail = text !== "" && !genericNames.has(text) && text !== code ? `: ${text}` : "";
  if (ctx.operation === "DeleteTable" && isDeletionProtected(err)) {
    // Retryable: the fix is outside the spec (the object is being deleted), and once it is
    // made the next attempt deletes the table without anyone touching the object again.
    return new TableError({
      disposition: "retryable",
      code,
      operation: ctx.operation,
      table: ctx.table,
      field: "spec.deletionProtectionEnabled",
      message: `spec.deletionProtectionEnabled: DeleteTable on table "${ctx.table}" refused: deletion protection is on${detail}. To delete it, first set spec.deletionProtectionEnabled: false and let it sync (or disable deletion protection in AWS); to keep the table instead, annotate the object services.k8s.aws/deletion-policy: retain. Retrying`,
      cause: err,
    });
  }
  const field =
    ctx.field ?? (code === "Validation" || code === "InvalidParameter" ? fieldFromMessage(text) : undefined);
  const where = field === undefined ? "" : `${field}: `;
  const base = `${where}${ctx.operation} on table "${ctx.table}" failed with ${code}${detail}`;
  return new TableError({
    disposition: terminalCodes.has(code) ? "terminal" : "retryable",
    code,
    operation: ctx.operation,
    table: ctx.table,
    ...(field === undefined ? {} : { field }),
    message: `${base}${hint(code, ctx, field, status)}`,
    cause: err,
  });
}

function hint(
  code: string,
  ctx: ErrorContext,
  field: string | undefined,
  status: number | undefined,
): string {
  const where = field ?? "the spec";
  switch (code) {
    case "Validation":
    case "InvalidParameter":
    case "InvalidParameterValue":
    case "Serialization":
      return ` (DynamoDB refused the value of ${where}; fix ${where} and the table is reconciled again)`;
    case "ResourceInUse":
      return ctx.operation === "DeleteTable"
        ? " (table is busy with an earlier change; retrying)"
        : " (table is busy with an earlier change: DynamoDB takes one change at a time; retrying)";
    case "ResourceNotFound":
    case "TableNotFound":
      return " (the table is gone; retrying)";
    case "LimitExceeded":
      return " (a DynamoDB limit on concurrent table operations or throughput decreases was reached; retrying)";
    case "AccessDenied":
    case "UnrecognizedClient":
      return ` (the identity lacks ${iamActions[ctx.operation]} on this table; retrying)`;
    case "Throttling":
    case "RequestLimitExceeded":
    case "ProvisionedThroughputExceeded":
      return " (DynamoDB throttled the call; retrying)";
    default:
      return status !== undefined && status >= 500 ? " (DynamoDB server error; retrying)" : "";
  }
}
