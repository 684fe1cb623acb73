// What every service module's error shares: a disposition the reconciler acts on (`terminal`:
// only a spec change can fix it; `retryable`: back off and try again), the AWS code, the
// operation that failed and the spec field it was applying. Each service subclasses it with its
// own operation names and the name of the object (bucket, topic, queue), and keeps its own rules
// for which codes are terminal and what the hint says.

export type ErrorDisposition = "terminal" | "retryable";

export interface ServiceErrorInit<Operation extends string> {
  readonly disposition: ErrorDisposition;
  /** The service's error code (or the SDK's error name for network failures). */
  readonly code: string;
  readonly operation: Operation;
  /** `spec.<field>` the operation was applying, when there is one. */
  readonly field?: string;
  readonly message: string;
  readonly cause?: unknown;
}

export class ServiceError<Operation extends string = string> extends Error {
  readonly disposition: ErrorDisposition;
  readonly code: string;
  readonly operation: Operation;
  readonly field: string | undefined;

  constructor(init: ServiceErrorInit<Operation>) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.disposition = init.disposition;
    this.code = init.code;
    this.operation = init.operation;
    this.field = init.field;
  }

  get terminal(): boolean {
    return this.disposition === "terminal";
  }
}

/** What the AWS SDK puts on a service error; network errors carry less. */
export interface SdkErrorLike {
  name?: unknown;
  message?: unknown;
  Code?: unknown;
  /** Node system errors (ECONNREFUSED, ...). */
  code?: unknown;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

/** Error names that say nothing (the SDK's fallbacks); a code is looked for elsewhere. */
export const genericErrorNames: ReadonlySet<string> = new Set(["", "Error", "Unknown", "UnknownError"]);

export function httpStatus(err: unknown): number | undefined {
  return ((err ?? {}) as SdkErrorLike).$metadata?.httpStatusCode;
}
