// Turns what the AWS SDK throws for an STS call into (a) a kind, which decides retries and the
// metrics outcome label, and (b) a typed, actionable CredentialError for the hop it happened at.
import {
  AccessDeniedError,
  CredentialError,
  CredentialFailedError,
  EndpointUnreachableError,
  ExpiredCredentialsError,
  type HopContext,
  InvalidParameterError,
  ThrottledError,
} from "./errors.ts";

export type StsOperation = "AssumeRole" | "AssumeRoleWithWebIdentity" | "GetCallerIdentity";

/** How an STS failure behaves; also the `outcome` label of the STS call counter. */
export type StsFailureKind =
  | "throttled"
  | "server_error"
  | "unreachable"
  | "access_denied"
  | "expired"
  | "invalid"
  | "error";

const throttlingCodes = new Set([
  "Throttling",
  "ThrottlingException",
  "ThrottledException",
  "RequestThrottled",
  "RequestThrottledException",
  "RequestLimitExceeded",
  "TooManyRequestsException",
  "SlowDown",
]);
const accessCodes = new Set([
  "AccessDenied",
  "AccessDeniedException",
  "UnauthorizedOperation",
  "InvalidClientTokenId",
  "SignatureDoesNotMatch",
  "InvalidIdentityToken",
  "IDPRejectedClaim",
]);
const expiredCodes = new Set([
  "ExpiredToken",
  "ExpiredTokenException",
  "RequestExpired",
  "TokenRefreshRequired",
]);
const invalidCodes = new Set([
  "ValidationError",
  "InvalidParameterValue",
  "InvalidParameterCombination",
  "InvalidParameter",
  "MalformedPolicyDocument",
  "PackedPolicyTooLarge",
  "RegionDisabledException",
  "InvalidAction",
]);
const networkCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
]);

interface SdkLikeError {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

function fields(err: unknown): SdkLikeError {
  return typeof err === "object" && err !== null ? (err as SdkLikeError) : {};
}

/** The AWS error code (or Node error code) of an SDK error, if it has one. */
export function errorCode(err: unknown): string {
  const f = fields(err);
  if (typeof f.code === "string" && networkCodes.has(f.code)) return f.code;
  return typeof f.name === "string" ? f.name : "Error";
}

export function stsFailureKind(err: unknown): StsFailureKind {
  const f = fields(err);
  const code = errorCode(err);
  const status = typeof f.$metadata?.httpStatusCode === "number" ? f.$metadata.httpStatusCode : undefined;
  if (throttlingCodes.has(code) || status === 429) return "throttled";
  if (accessCodes.has(code)) return "access_denied";
  if (expiredCodes.has(code)) return "expired";
  if (invalidCodes.has(code)) return "invalid";
  if (networkCodes.has(code) || code === "TimeoutError" || code === "AbortError") return "unreachable";
  if ((status !== undefined && status >= 500) || f.$fault === "server") return "server_error";
  if (code === "IDPCommunicationError") return "server_error";
  return "error";
}

/** Throttling, 5xx and network failures may pass on their own; everything else needs a person. */
export function isRetryableStsFailure(kind: StsFailureKind): boolean {
  return kind === "throttled" || kind === "server_error" || kind === "unreachable";
}

/** What the hop asked STS for, so the fix can name exactly what the trust policy must allow. */
export interface StsCallContext extends HopContext {
  readonly operation: StsOperation;
  /** The STS endpoint called, for unreachable-endpoint messages. */
  readonly endpoint: string;
  readonly externalID?: boolean;
  readonly sessionTags?: boolean;
  readonly sourceIdentity?: boolean;
  /** Web identity: the token's subject and audiences. */
  readonly subject?: string;
  readonly audiences?: readonly string[];
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
}

function awsMessage(err: unknown): string {
  const m = fields(err).message;
  return typeof m === "string" && m !== "" ? m : errorCode(err);
}

function accessFix(ctx: StsCallContext): string {
  const role = ctx.roleARN ?? "the role";
  if (ctx.operation === "AssumeRoleWithWebIdentity") {
    return (
      `the trust policy of ${role} must allow sts:AssumeRoleWithWebIdentity for the cluster's OIDC issuer ` +
      `(an IAM OIDC identity provider for it must exist) with audience ${(ctx.audiences ?? ["sts.amazonaws.com"]).join(",")}` +
      (ctx.subject ? ` and subject ${ctx.subject}` : "")
    );
  }
  if (ctx.operation === "GetCallerIdentity") {
    return `the credentials of ${ctx.identity} are not valid; check the keys or the role they come from`;
  }
  const needs = [
    ctx.externalID ? "the ExternalId configured on the identity (sts:ExternalId condition)" : null,
    ctx.sessionTags ? "sts:TagSession (session tags are sent)" : null,
    ctx.sourceIdentity ? "sts:SetSourceIdentity (a source identity is sent)" : null,
  ].filter((n): n is string => n !== null);
  return (
    `the trust policy of ${role} must let the source of hop ${ctx.hop} call sts:AssumeRole` +
    (needs.length ? `, and allow ${needs.join(", ")}` : "") +
    `; the source's own IAM policy must allow sts:AssumeRole on ${role}`
  );
}

/** The last failure of an STS call after every attempt the retry policy allowed. */
export class StsCallFailed extends Error {
  readonly operation: StsOperation;
  readonly attempts: number;
  readonly kind: StsFailureKind;
  constructor(operation: StsOperation, attempts: number, last: unknown) {
    super(`STS ${operation} failed after ${attempts} attempt(s): ${awsMessage(last)}`, { cause: last });
    this.operation = operation;
    this.attempts = attempts;
    this.kind = stsFailureKind(last);
  }
}

/** Wraps an STS failure in the typed error for its hop. CredentialErrors pass through unchanged. */
export function classifyStsError(failure: unknown, context: StsCallContext): CredentialError {
  if (failure instanceof CredentialError) return failure;
  const err = failure instanceof StsCallFailed ? failure.cause : failure;
  const ctx = failure instanceof StsCallFailed ? { ...context, attempts: failure.attempts } : context;
  const kind = stsFailureKind(err);
  const code = errorCode(err);
  const target = ctx.roleARN ? ` of ${ctx.roleARN}` : "";
  const tried = ctx.attempts && ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : "";
  const base = { context: ctx, cause: err };
  switch (kind) {
    case "access_denied":
      return new AccessDeniedError({
        ...base,
        summary: `${ctx.operation}${target} was denied (${code}: ${awsMessage(err)})`,
        fix: accessFix(ctx),
      });
    case "throttled":
      return new ThrottledError({
        ...base,
        summary: `STS throttled ${ctx.operation}${target}${tried}`,
        fix: "lower the controller's STS rate limit (--sts-qps / --sts-burst) or raise the account's STS quota; crossrole retries with backoff meanwhile",
      });
    case "expired":
      return new ExpiredCredentialsError({
        ...base,
        summary: `the credentials used for ${ctx.operation}${target} had expired (${code})`,
        fix: "the source credentials are refreshed automatically; if this repeats, check this host's clock and the source identity's session duration",
      });
    case "invalid":
      return new InvalidParameterError({
        ...base,
        summary: `STS rejected the parameters of ${ctx.operation}${target} (${code}: ${awsMessage(err)})`,
        fix:
          code === "RegionDisabledException"
            ? "activate STS in this region for the account (IAM > Account settings) or use another region"
            : `correct the parameter STS names on ${ctx.identity}`,
      });
    case "unreachable":
    case "server_error":
      return new EndpointUnreachableError({
        ...base,
        endpoint: ctx.endpoint,
        summary: `STS at ${ctx.endpoint} did not answer ${ctx.operation}${target}${tried} (${code}: ${awsMessage(err)})`,
        fix: "check that the endpoint is reachable from the controller (DNS, proxy, network policy) and correct services.k8s.aws/endpoint-url or --aws-endpoint-url if it is wrong; crossrole retries with backoff meanwhile",
      });
    default:
      return new CredentialFailedError({
        ...base,
        retryable: false,
        summary: `${ctx.operation}${target} failed (${code}: ${awsMessage(err)})`,
        fix: `check ${ctx.identity} and the role's configuration in IAM`,
      });
  }
}
