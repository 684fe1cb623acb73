// SNS failures sorted into what the reconciler does with them: `terminal` (ACK.Terminal, no
// retry until the spec changes: only the user can fix it) or `retryable` (back off and try
// again: throttling, 5xx, network, permissions an administrator may still grant, a KMS key
// being enabled). Every message names the topic, the SNS operation and the spec field.

import {
  failureError,
  fallbackCode,
  genericErrorNames as genericNames,
  messageOf,
  objectErrorClass,
  type ServiceRules,
  sdkErrorCodeField,
  sdkErrorName,
} from "../service-error.ts";
import { topicDeclared } from "./generated/topic-fields.ts";

/** The SNS operations this module calls; each error names the one that failed. */
export type SnsOperation =
  | "CreateTopic"
  | "GetTopicAttributes"
  | "SetTopicAttributes"
  | "ListTagsForResource"
  | "TagResource"
  | "UntagResource"
  | "GetDataProtectionPolicy"
  | "PutDataProtectionPolicy"
  | "DeleteTopic";

/** The IAM action each operation needs, for AuthorizationError messages. */
const iamActions: Record<SnsOperation, string> = {
  CreateTopic: "sns:CreateTopic",
  GetTopicAttributes: "sns:GetTopicAttributes",
  SetTopicAttributes: "sns:SetTopicAttributes",
  ListTagsForResource: "sns:ListTagsForResource",
  TagResource: "sns:TagResource",
  UntagResource: "sns:UntagResource",
  GetDataProtectionPolicy: "sns:GetDataProtectionPolicy",
  PutDataProtectionPolicy: "sns:PutDataProtectionPolicy",
  DeleteTopic: "sns:DeleteTopic",
};

export const TopicError = objectErrorClass<SnsOperation, "topic">("TopicError", "topic");
export type TopicError = InstanceType<typeof TopicError>;

export function isTopicError(err: unknown): err is TopicError {
  return err instanceof TopicError;
}

/** Codes only a change of the spec can fix. */
/** The declaration's terminal codes (sns's declaration): only a spec change fixes them. */
const terminalCodes: ReadonlySet<string> = new Set(topicDeclared.terminalCodes);

/**
 * SNS's error code: the query protocol's `Code`, else the SDK's error name without its
 * "Exception" suffix (NotFoundException → NotFound), else a Node system error code.
 */
export function errorCode(err: unknown): string {
  return (
    sdkErrorCodeField(err) ?? sdkErrorName(err, genericNames)?.replace(/Exception$/, "") ?? fallbackCode(err)
  );
}

/** No topic of that ARN (GetTopicAttributes says NotFound, the tagging API ResourceNotFound). */
export function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === "NotFound" || code === "ResourceNotFound";
}

/** CreateTopic on a name the account already has, with other tags or attributes. */
export function isAlreadyExists(err: unknown): boolean {
  return errorCode(err) === "InvalidParameter" && /already exists/i.test(messageOf(err));
}

export interface ErrorContext {
  readonly operation: SnsOperation;
  readonly topic: string;
  readonly field?: string;
}

/** What the shared classification (../service-error.ts) needs of SNS: its names, its codes. */
const rules: ServiceRules<SnsOperation> = {
  service: "SNS",
  noun: "topic",
  genericNames,
  terminalCodes,
  iamActions,
  refusedValue: new Set(["InvalidParameter", "InvalidParameterValue", "ValidationError"]),
  accessDenied: new Set(["AuthorizationError", "AccessDenied"]),
  gone: new Set(["NotFound", "ResourceNotFound"]),
  throttled: new Set(["Throttled", "Throttling"]),
};

/** Wraps any failure of an SNS call into a TopicError that says what to do about it. */
export function classifyError(err: unknown, ctx: ErrorContext): TopicError {
  if (isTopicError(err)) return err;
  const code = errorCode(err);
  const { operation, topic, field } = ctx;
  return failureError(TopicError, rules, err, { operation, name: topic, code, field, hint: hint(code) });
}

/** SNS's own hints; the codes of `rules` (and 5xx answers) get the shared ones. */
function hint(code: string): string | undefined {
  switch (code) {
    case "TagLimitExceeded":
      return " (a topic holds at most 50 tags, crossrole's ownership tags included; remove some from spec.tags)";
    case "TagPolicy":
      return " (the organization's tag policy refuses these tags; fix spec.tags)";
    case "KMSNotFound":
      return " (no such KMS key; fix spec.kmsMasterKeyID)";
    case "KMSDisabled":
    case "KMSInvalidState":
    case "KMSAccessDenied":
    case "KMSOptInRequired":
    case "KMSThrottling":
      return " (the KMS key named by spec.kmsMasterKeyID is not usable yet; retrying)";
    default:
      return undefined;
  }
}
