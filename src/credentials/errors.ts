// Typed credential errors. Each one names the identity (and hop) it is about and carries a
// `fix` an administrator can act on; `message` holds both, so a condition message or an
// Event built from `message` alone is already actionable.

export type CredentialErrorCode =
  | "AccessDenied"
  | "Throttled"
  | "Expired"
  | "InvalidParameter"
  | "EndpointUnreachable"
  | "SecretUnavailable"
  | "Failed";

/** Which hop of which chain an error is about. */
export interface HopContext {
  /** `Kind/name` or `Kind/namespace/name`, e.g. `AWSRoleIdentity/billing`. */
  readonly identity: string;
  /** 1-based position of the hop in its chain. */
  readonly hop: number;
  /** Length of the chain. */
  readonly hops: number;
  /** Role assumed at this hop, when the hop assumes one. */
  readonly roleARN?: string;
}

export interface CredentialErrorOptions {
  readonly context: HopContext;
  /** What happened, in one sentence, without the fix. */
  readonly summary: string;
  /** What an administrator should change. */
  readonly fix: string;
  /** True when trying again later may succeed without anyone changing anything. */
  readonly retryable: boolean;
  readonly cause?: unknown;
}

export class CredentialError extends Error {
  readonly code: CredentialErrorCode;
  readonly identity: string;
  readonly hop: number;
  readonly hops: number;
  readonly roleARN: string | null;
  readonly summary: string;
  readonly fix: string;
  readonly retryable: boolean;
  /**
   * When the cache remembers this failure: the clock time before which no new attempt is
   * made (callers get this error again instead of a new STS call). Null until remembered.
   */
  retryAt: number | null = null;

  constructor(code: CredentialErrorCode, opts: CredentialErrorOptions) {
    const where = `${opts.context.identity} (hop ${opts.context.hop} of ${opts.context.hops})`;
    super(
      `${where}: ${opts.summary}. Fix: ${opts.fix}`,
      opts.cause === undefined ? {} : { cause: opts.cause },
    );
    this.code = code;
    this.identity = opts.context.identity;
    this.hop = opts.context.hop;
    this.hops = opts.context.hops;
    this.roleARN = opts.context.roleARN ?? null;
    this.summary = opts.summary;
    this.fix = opts.fix;
    this.retryable = opts.retryable;
  }
}

/** STS (or the source's own policy) refused: a trust policy, ExternalId, tag or permission problem. */
export class AccessDeniedError extends CredentialError {
  override readonly name = "AccessDeniedError";
  constructor(opts: Omit<CredentialErrorOptions, "retryable">) {
    super("AccessDenied", { ...opts, retryable: false });
  }
}

/** STS kept throttling after every retry the limiter allowed. */
export class ThrottledError extends CredentialError {
  override readonly name = "ThrottledError";
  constructor(opts: Omit<CredentialErrorOptions, "retryable">) {
    super("Throttled", { ...opts, retryable: true });
  }
}

/** The credentials used to call STS had expired (or the token was too old). */
export class ExpiredCredentialsError extends CredentialError {
  override readonly name = "ExpiredCredentialsError";
  constructor(opts: Omit<CredentialErrorOptions, "retryable">) {
    super("Expired", { ...opts, retryable: true });
  }
}

/** A parameter of the identity is not acceptable (to crossrole or to STS). */
export class InvalidParameterError extends CredentialError {
  override readonly name = "InvalidParameterError";
  constructor(opts: Omit<CredentialErrorOptions, "retryable">) {
    super("InvalidParameter", { ...opts, retryable: false });
  }
}

/** The STS endpoint could not be reached (DNS, connection refused, timeout, 5xx after retries). */
export class EndpointUnreachableError extends CredentialError {
  override readonly name = "EndpointUnreachableError";
  readonly endpoint: string;
  constructor(opts: Omit<CredentialErrorOptions, "retryable"> & { readonly endpoint: string }) {
    super("EndpointUnreachable", { ...opts, retryable: true });
    this.endpoint = opts.endpoint;
  }
}

/** A static identity's Secret (or one of its keys) is missing or empty. */
export class SecretUnavailableError extends CredentialError {
  override readonly name = "SecretUnavailableError";
  readonly secret: string;
  readonly key: string | null;
  constructor(
    opts: Omit<CredentialErrorOptions, "retryable"> & {
      readonly secret: string;
      readonly key: string | null;
    },
  ) {
    // Retryable: the administrator creating the Secret fixes it without touching the identity.
    super("SecretUnavailable", { ...opts, retryable: true });
    this.secret = opts.secret;
    this.key = opts.key;
  }
}

/** Anything STS answered that none of the above describes. */
export class CredentialFailedError extends CredentialError {
  override readonly name = "CredentialFailedError";
  constructor(opts: CredentialErrorOptions) {
    super("Failed", opts);
  }
}
