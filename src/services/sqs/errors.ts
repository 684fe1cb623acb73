// SQS failures sorted into what the reconciler does with them: `terminal` (ACK.Terminal, no
// retry until the spec changes: only the user can fix it) or `retryable` (back off and try
// again: throttling, 5xx, network, permissions an administrator may still grant, a name SQS
// keeps for 60 seconds after a delete). Every message names the queue, the SQS operation and
// the spec field.

import {
  failureError,
  fallbackCode,
  genericErrorNames,
  messageOf,
  objectErrorClass,
  type ServiceRules,
  sdkErrorCodeField,
  sdkErrorName,
} from "../service-error.ts";
import { queueDeclared } from "./generated/queue-fields.ts";
import { fieldOfAttribute } from "./mapping.ts";

/** The SQS operations this module calls; each error names the one that failed. */
export type SqsOperation =
  | "CreateQueue"
  | "GetQueueUrl"
  | "GetQueueAttributes"
  | "SetQueueAttributes"
  | "ListQueueTags"
  | "TagQueue"
  | "UntagQueue"
  | "DeleteQueue";

/** The IAM action each operation needs, for AccessDenied messages. */
const iamActions: Record<SqsOperation, string> = {
  CreateQueue: "sqs:CreateQueue (and sqs:TagQueue to tag at creation)",
  GetQueueUrl: "sqs:GetQueueUrl",
  GetQueueAttributes: "sqs:GetQueueAttributes",
  SetQueueAttributes: "sqs:SetQueueAttributes",
  ListQueueTags: "sqs:ListQueueTags",
  TagQueue: "sqs:TagQueue",
  UntagQueue: "sqs:UntagQueue",
  DeleteQueue: "sqs:DeleteQueue",
};

export const QueueError = objectErrorClass<SqsOperation, "queue">("QueueError", "queue");
export type QueueError = InstanceType<typeof QueueError>;

export function isQueueError(err: unknown): err is QueueError {
  return err instanceof QueueError;
}

/** Codes only a change of the spec can fix. */
/** The declaration's terminal codes (sqs's declaration): only a spec change fixes them. */
const terminalCodes: ReadonlySet<string> = new Set(queueDeclared.terminalCodes);

const genericNames = new Set([...genericErrorNames, "SQSServiceException"]);

/** SQS's legacy query codes (the SDK's `Code` on the JSON protocol) → the modern names. */
const legacyCodes: Readonly<Record<string, string>> = {
  "AWS.SimpleQueueService.NonExistentQueue": "QueueDoesNotExist",
  QueueAlreadyExists: "QueueNameExists",
  "AWS.SimpleQueueService.QueueDeletedRecently": "QueueDeletedRecently",
  "AWS.SimpleQueueService.UnsupportedOperation": "UnsupportedOperation",
};

/**
 * SQS's error code: the SDK's error name (QueueDoesNotExist, QueueNameExists, ...), else the
 * query-compatible `Code` mapped to that name, else a Node system error code (ECONNREFUSED).
 */
export function errorCode(err: unknown): string {
  const code = sdkErrorName(err, genericNames)?.replace(/Exception$/, "") ?? sdkErrorCodeField(err);
  return code === undefined ? fallbackCode(err) : (legacyCodes[code] ?? code);
}

/** No queue of that name or URL in this account. */
export function isNotFound(err: unknown): boolean {
  return errorCode(err) === "QueueDoesNotExist";
}

/** CreateQueue on a name the account already has, with other attributes. */
export function isAlreadyExists(err: unknown): boolean {
  return errorCode(err) === "QueueNameExists";
}

export interface ErrorContext {
  readonly operation: SqsOperation;
  readonly queue: string;
  readonly field?: string;
}

/**
 * The spec field an InvalidAttributeValue / InvalidAttributeName names ("Invalid value for the
 * parameter VisibilityTimeout."), when the operation was not applying one field only.
 */
export function fieldFromMessage(message: string): string | undefined {
  for (const word of message.match(/[A-Za-z]+/g) ?? []) {
    const field = fieldOfAttribute(word);
    if (field !== undefined) return `spec.${field}`;
  }
  return undefined;
}

/** What the shared classification (../service-error.ts) needs of SQS: its names, its codes. */
const rules: ServiceRules<SqsOperation> = {
  service: "SQS",
  noun: "queue",
  genericNames,
  terminalCodes,
  iamActions,
  refusedValue: new Set([
    "InvalidAttributeValue",
    "InvalidAttributeName",
    "InvalidParameterValue",
    "InvalidParameterCombination",
    "ValidationError",
  ]),
  accessDenied: new Set(["AccessDenied", "AccessDeniedException", "AuthorizationError"]),
  throttled: new Set(["RequestThrottled", "ThrottlingException", "Throttling", "OverLimit"]),
};

/** Wraps any failure of an SQS call into a QueueError that says what to do about it. */
export function classifyError(err: unknown, ctx: ErrorContext): QueueError {
  if (isQueueError(err)) return err;
  const code = errorCode(err);
  const field =
    ctx.field ??
    (code === "InvalidAttributeValue" || code === "InvalidAttributeName"
      ? fieldFromMessage(messageOf(err))
      : undefined);
  const failure = { operation: ctx.operation, name: ctx.queue, code, field, hint: hint(code, ctx, field) };
  return failureError(QueueError, rules, err, failure);
}

/** SQS's own hints; the codes of `rules` (and 5xx answers) get the shared ones. */
function hint(code: string, ctx: ErrorContext, field: string | undefined): string | undefined {
  switch (code) {
    case "UnsupportedOperation":
      return ` (SQS does not support this for the queue; fix ${field ?? "the spec"})`;
    case "KmsNotFound":
    case "KmsInvalidKeyUsage":
      return " (the KMS key is not usable for SQS; fix spec.kmsMasterKeyID)";
    case "KmsDisabled":
    case "KmsInvalidState":
    case "KmsAccessDenied":
    case "KmsThrottled":
      return " (the KMS key named by spec.kmsMasterKeyID is not usable yet; retrying)";
    case "QueueDeletedRecently":
      return ` (SQS keeps a deleted queue's name for 60 seconds before spec.queueName "${ctx.queue}" can be created again; retrying)`;
    case "QueueNameExists":
      return ` (a queue named "${ctx.queue}" already exists in this account with other attributes)`;
    case "QueueDoesNotExist":
      return field === "spec.redrivePolicy"
        ? " (the dead-letter queue spec.redrivePolicy names does not exist in this account and region yet; create it or fix spec.redrivePolicy; retrying)"
        : " (the queue is gone; retrying)";
    default:
      return undefined;
  }
}
