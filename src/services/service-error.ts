// What every service module's error shares: a disposition the reconciler acts on (`terminal`:
// only a spec change can fix it; `retryable`: back off and try again), the AWS code, the
// operation that failed and the spec field it was applying. Each service's error class comes
// from objectErrorClass, with its own operation names and the key that names the object (bucket,
// topic, queue), and keeps its own rules for which codes are terminal and what the hint says.
//
// Below the class is what every service's classifyError does the same way, so that the five
// cannot drift apart: reading the SDK error (name, `Code`, message, fallback code), wording the
// message ("<field>: <operation> on <object> failed with <code>: <AWS's message><hint>"), the
// hints whose meaning is the same everywhere (refused value, access denied, gone, throttled, 5xx)
// and the refused delete of a deletion-protected object, and building the service's error from
// all that. Each service's errors.ts keeps its codes: how it names them, which are terminal, which
// mean what, and the hints only it gives.
//
// A call that carried a secret value (a DBInstance's master password) gets none of AWS's message
// in its error, and the SDK error is not kept as its cause (the logs print causes): cutting the
// value out of the text is not enough, because what is left around the cut shows it (a password
// "pass" in "...MasterUserPassword..." left "MasterUser[redacted]word"). The code, operation,
// field and hint stay, and the message says why AWS's words are missing.

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
  /**
   * The HTTP status AWS answered with, when it answered: kept here because the cause may be
   * left out (a call that carried a secret), and whether AWS answered at all decides whether an
   * interrupted create may still land (src/controller/create-intent.ts).
   */
  readonly httpStatus?: number;
}

export class ServiceError<Operation extends string = string> extends Error {
  readonly disposition: ErrorDisposition;
  readonly code: string;
  readonly operation: Operation;
  readonly field: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(init: ServiceErrorInit<Operation>) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.disposition = init.disposition;
    this.code = init.code;
    this.operation = init.operation;
    this.field = init.field;
    this.httpStatus = init.httpStatus;
  }

  get terminal(): boolean {
    return this.disposition === "terminal";
  }
}

/** The AWS name of the object an error is about, under the service's own key (`table`, `queue`). */
export type NamedObject<Key extends string> = { readonly [K in Key]: string };

export type ObjectErrorInit<Operation extends string, Key extends string> = ServiceErrorInit<Operation> &
  NamedObject<Key>;

export type ObjectError<Operation extends string, Key extends string> = ServiceError<Operation> &
  NamedObject<Key>;

/** A service's error class, as objectErrorClass makes it. */
export interface ObjectErrorClass<Operation extends string, Key extends string> {
  new (init: ObjectErrorInit<Operation, Key>): ObjectError<Operation, Key>;
  /** The key its errors name their object under. */
  readonly objectKey: Key;
}

/**
 * A service's error class: a ServiceError whose `name` (and the class's) is `className`, naming
 * the object it is about under `key` (`err.table`, `err.queue`). Each call makes a class of its
 * own, so `instanceof` tells one service's errors from another's.
 */
export function objectErrorClass<Operation extends string, Key extends string>(
  className: string,
  key: Exclude<Key, "name" | "message" | "cause" | "stack">,
): ObjectErrorClass<Operation, Key> {
  class ObjectServiceError extends ServiceError<Operation> {
    static readonly objectKey = key;
    override readonly name = className;

    constructor(init: ObjectErrorInit<Operation, Key>) {
      super(init);
      Object.assign(this, { [key]: init[key] });
    }
  }
  // Node's inspect (the logs) prints the class's name beside the error's when they differ.
  Object.defineProperty(ObjectServiceError, "name", { value: className });
  return ObjectServiceError as ObjectErrorClass<Operation, Key>;
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

/**
 * The HTTP status of an answer the SDK could not read: a body that is no AWS error document (an
 * HTML page from a proxy, a 500 with plain text). The SDK's own error is then a parse error
 * ("Unexpected token '<'") that says nothing about the service; the status is what there is.
 */
export function unreadableAnswerStatus(err: unknown): number | undefined {
  return messageOf(err).includes("Deserialization error") ? httpStatus(err) : undefined;
}

/** AWS's message on a failure, or "" when it carries none. */
export function messageOf(err: unknown): string {
  const m = ((err ?? {}) as SdkErrorLike).message;
  return typeof m === "string" ? m : "";
}

/**
 * ": <AWS's message>" for the end of a failure's message, or "" when AWS's message adds nothing:
 * empty, one of the service's placeholder names (bodiless answers say "UnknownError"), or the
 * code again.
 */
function messageDetail(text: string, code: string, genericNames: ReadonlySet<string>): string {
  return text !== "" && !genericNames.has(text) && text !== code ? `: ${text}` : "";
}

/** The error name the SDK gave the failure, unless it is one of `genericNames` (says nothing). */
export function sdkErrorName(err: unknown, genericNames: ReadonlySet<string>): string | undefined {
  const name = ((err ?? {}) as SdkErrorLike).name;
  return typeof name === "string" && !genericNames.has(name) ? name : undefined;
}

/** The query protocol's `Code` on the failure (S3, SNS; RDS and SQS as a fallback), when there is one. */
export function sdkErrorCodeField(err: unknown): string | undefined {
  const code = ((err ?? {}) as SdkErrorLike).Code;
  return typeof code === "string" && code !== "" ? code : undefined;
}

/**
 * The code of a failure the service did not name (no error name, no `Code`): a Node system
 * error code (ECONNREFUSED), else HTTP<status>, else Unknown.
 */
export function fallbackCode(err: unknown): string {
  const e = (err ?? {}) as SdkErrorLike;
  if (typeof e.code === "string" && e.code !== "") return e.code;
  const status = httpStatus(err);
  return status === undefined ? "Unknown" : `HTTP${status}`;
}

/** What classifying a service's failures needs to know of the service; each errors.ts has one. */
export interface ServiceRules<Operation extends string> {
  /** How messages name the service: "SQS". */
  readonly service: string;
  /** How they name the object: "queue", "DB instance". */
  readonly noun: string;
  /** Error names and messages that say nothing (the SDK's fallbacks, the service's base exception). */
  readonly genericNames: ReadonlySet<string>;
  /** Codes only a change of the spec can fix. */
  readonly terminalCodes: ReadonlySet<string>;
  /** The IAM action each operation needs, for access-denied hints. */
  readonly iamActions: Readonly<Record<Operation, string>>;
  // The codes whose hint means the same in every service, worded with the names above. A code
  // the service words its own way stays out of these and gets its hint from the service.
  /** The service refused a value of the spec. */
  readonly refusedValue?: ReadonlySet<string>;
  /** The identity lacks a permission an administrator may still grant. */
  readonly accessDenied?: ReadonlySet<string>;
  /** The object no longer exists. */
  readonly gone?: ReadonlySet<string>;
  readonly throttled?: ReadonlySet<string>;
  /**
   * The call that makes the object: a "not found" it answers is about something the spec names
   * (Lambda's layer, a role), never the object, which does not exist yet.
   */
  readonly create?: Operation;
}

/** One failed call, as a service's classifyError has read it. */
export interface Failure<Operation extends string> {
  readonly operation: Operation;
  /** The object's name in AWS. */
  readonly name: string;
  readonly code: string;
  /** The spec field the failure is about, when known: the message starts with it. */
  readonly field: string | undefined;
  /** The service's own hint for the code, " (...)"; without one, the shared hints apply. */
  readonly hint?: string | undefined;
  /** The spec fields whose secret values the call carried: AWS's message and the cause are withheld. */
  readonly secretFields?: readonly string[] | undefined;
  /** Between AWS's message and the hint (RDS: the fields a call was applying, when none is named). */
  readonly applying?: string;
}

/** Whether a call carried a secret value, so nothing AWS answered may be shown or kept. */
export function carriedSecret(secretFields: readonly string[] | undefined): boolean {
  return secretFields !== undefined && secretFields.length > 0;
}

/**
 * ": <AWS's message>" for the end of a failure's message; for a call that carried a secret, why
 * it is not there instead (the whole message, never a part: see the top of this file).
 */
function awsDetail(
  rules: ServiceRules<string>,
  err: unknown,
  code: string,
  secretFields: readonly string[] | undefined,
): string {
  if (secretFields !== undefined && carriedSecret(secretFields)) {
    return `; ${rules.service}'s message is withheld because the call carried a secret (${secretFields.join(", ")})`;
  }
  return messageDetail(messageOf(err), code, rules.genericNames);
}

/**
 * The cause an error keeps: the SDK error, unless AWS answered a call that carried a secret (its
 * answer may echo it). A failure that never got an answer (the credentials failed before the
 * call, the connection did) holds nothing AWS said, and is kept: the reconciler reads it to tell
 * a credential failure, and a create that was never sent, from one AWS refused.
 */
function causeOf(err: unknown, secretFields: readonly string[] | undefined): Cause {
  return carriedSecret(secretFields) && httpStatus(err) !== undefined ? {} : { cause: err };
}

/**
 * The ServiceError fields of a failed call, cause left out: failureError adds it (unless the call
 * carried a secret) and the object's own field. One wording for every service:
 * "<field>: <operation> on <noun> "<name>" failed with <code>: <AWS's message> (<hint>)".
 */
export function failureInit<Operation extends string>(
  rules: ServiceRules<Operation>,
  err: unknown,
  f: Failure<Operation>,
): Omit<ServiceErrorInit<Operation>, "cause"> {
  const where = f.field === undefined ? "" : `${f.field}: `;
  const status = httpStatus(err);
  const unreadable = unreadableAnswerStatus(err);
  if (unreadable !== undefined) {
    return {
      httpStatus: unreadable,
      disposition: "retryable",
      code: `HTTP${unreadable}`,
      operation: f.operation,
      ...(f.field === undefined ? {} : { field: f.field }),
      message: `${where}${f.operation} on ${rules.noun} "${f.name}" failed: ${rules.service} answered HTTP ${unreadable} with a body that is no AWS answer (${unreadable >= 500 ? `${rules.service} server error` : "unreadable answer"}; retrying)`,
    };
  }
  const detail = awsDetail(rules, err, f.code, f.secretFields);
  const hint = f.hint ?? sharedHint(rules, f, status);
  return {
    ...(status === undefined ? {} : { httpStatus: status }),
    disposition: rules.terminalCodes.has(f.code) ? "terminal" : "retryable",
    code: f.code,
    operation: f.operation,
    ...(f.field === undefined ? {} : { field: f.field }),
    message: `${where}${f.operation} on ${rules.noun} "${f.name}" failed with ${f.code}${detail}${f.applying ?? ""}${hint}`,
  };
}

/**
 * The error of `ErrorClass` for a failed call, as failureInit words it, naming the object, with
 * the SDK error as its cause unless the call carried a secret.
 */
export function failureError<Operation extends string, Key extends string>(
  ErrorClass: ObjectErrorClass<Operation, Key>,
  rules: ServiceRules<Operation>,
  err: unknown,
  f: Failure<Operation>,
): ObjectError<Operation, Key> {
  return objectError(ErrorClass, failureInit(rules, err, f), f.name, causeOf(err, f.secretFields));
}

/** The SDK error an error keeps as its cause, or `{}` for none. */
type Cause = { readonly cause?: unknown };

/** The error of `ErrorClass` for `init`, naming the object `name` under the class's key. */
function objectError<Operation extends string, Key extends string>(
  ErrorClass: ObjectErrorClass<Operation, Key>,
  init: Omit<ServiceErrorInit<Operation>, "cause">,
  name: string,
  cause: Cause,
): ObjectError<Operation, Key> {
  const named = { [ErrorClass.objectKey]: name } as NamedObject<Key>;
  return new ErrorClass({ ...init, ...named, ...cause });
}

/** The hint for a code of the rules' shared kinds, else for a 5xx answer, else "". */
function sharedHint<Operation extends string>(
  rules: ServiceRules<Operation>,
  f: Failure<Operation>,
  status: number | undefined,
): string {
  const { service, noun } = rules;
  const where = f.field ?? "the spec";
  if (rules.refusedValue?.has(f.code)) {
    return ` (${service} refused the value of ${where}; fix ${where} and the ${noun} is reconciled again)`;
  }
  if (rules.accessDenied?.has(f.code)) {
    return ` (the identity lacks ${rules.iamActions[f.operation]} on this ${noun}; retrying)`;
  }
  if (rules.gone?.has(f.code)) {
    return f.operation === rules.create
      ? ` (${service} finds no such ${f.field === undefined ? "thing as the spec names" : `${f.field}`}: create it or fix ${where}; retrying)`
      : ` (the ${noun} is gone; retrying)`;
  }
  if (rules.throttled?.has(f.code)) return ` (${service} throttled the call; retrying)`;
  return status !== undefined && status >= 500 ? ` (${service} server error; retrying)` : "";
}

/**
 * A delete refused because deletion protection is on (DynamoDB, RDS). Retryable: the fix is
 * outside the spec (the object is being deleted), and once it is made the next attempt deletes
 * the object without anyone touching the Kubernetes object again.
 */
export function deletionProtectedError<Operation extends string, Key extends string>(
  ErrorClass: ObjectErrorClass<Operation, Key>,
  rules: ServiceRules<Operation>,
  err: unknown,
  p: DeletionProtected<Operation>,
): ObjectError<Operation, Key> {
  return objectError(ErrorClass, deletionProtectedInit(rules, err, p), p.name, causeOf(err, p.secretFields));
}

/** A delete refused by deletion protection, as a service's classifyError has read it. */
export interface DeletionProtected<Operation extends string> {
  readonly operation: Operation;
  readonly name: string;
  readonly code: string;
  /** The spec field that turns deletion protection off. */
  readonly field: string;
  /** What "to keep the ... instead" calls the object: "table", "instance". */
  readonly keep: string;
  /** As in Failure. */
  readonly secretFields?: readonly string[] | undefined;
}

function deletionProtectedInit<Operation extends string>(
  rules: ServiceRules<Operation>,
  err: unknown,
  p: DeletionProtected<Operation>,
): Omit<ServiceErrorInit<Operation>, "cause"> {
  const detail = awsDetail(rules, err, p.code, p.secretFields);
  const status = httpStatus(err);
  return {
    ...(status === undefined ? {} : { httpStatus: status }),
    disposition: "retryable",
    code: p.code,
    operation: p.operation,
    field: p.field,
    message: `${p.field}: ${p.operation} on ${rules.noun} "${p.name}" refused: deletion protection is on${detail}. To delete it, first set ${p.field}: false and let it sync (or disable deletion protection in AWS); to keep the ${p.keep} instead, annotate the object services.k8s.aws/deletion-policy: retain. Retrying`,
  };
}
