// The create intent (DESIGN §3.5, "intent before action"): what the reconciler records on the
// object (an annotation, written with its finalizer) right before a create call, so that a create
// interrupted anywhere (AWS answered after a timeout, the controller was killed, another replica
// was creating at the same moment) is recognised later, never assumed to have failed or to have
// succeeded. Pure: records, times and a key in; verdicts out.
//
// Annotations and status are tenant-writable (DESIGN §3.4), so an intent counts only when it
// carries the MAC of the controller's key (controller-key.ts) over everything it says and the object it belongs
// to: a tenant cannot forge one to make an untagged object "its own interrupted create" (which
// would claim, and on deletion delete, an object made out of band), nor replay another object's.
//
// While a verified intent's window is open and nothing is found, the create may still land:
// no second create is made (at most one create call per intent) and a deletion waits for it
// (pendingCreate), so nothing is orphaned. A create AWS refused outright clears the intent.
import { sdkMaxAttempts } from "../credentials/client-pool.ts";
import { CredentialError } from "../credentials/errors.ts";
import { causeChain } from "../toolkit/cause-chain.ts";
import type { ControllerKey } from "./controller-key.ts";
import type { Owner } from "./ownership.ts";

/** What the reconciler records right before a create call. */
export interface CreateIntent {
  readonly action: "create";
  /** The AWS identifier (bucket name, queue name, ...). */
  readonly name: string;
  readonly ownerAccountID: string;
  readonly region: string;
  /** RFC 3339 with milliseconds. */
  readonly requestedAt: string;
  /** The controller key's MAC over the fields above and the owner (kind, namespace, name, uid). */
  readonly mac: string;
}

/** Where an intent must point to count: the object's name, account and region. */
export interface IntentTarget {
  readonly name: string;
  readonly account: string;
  readonly region: string;
}

/** How far an object's creation time may precede the recorded intent (clock skew). */
export const intentSkewMs = 5_000;
/**
 * How long after the intent a create may still land: --create-intent-window-seconds. It covers
 * the SDK's own retries of the call (10 s per attempt, a few attempts) and AWS finishing a
 * request whose caller died; a resource whose create went unanswered waits this long at most
 * before it is created again, or released once deleted, so it is not made longer than needed.
 */
export const defaultIntentWindowMs = 2 * 60_000;

/**
 * The shortest window that covers a create's every attempt when each may wait `requestTimeoutMs`
 * for AWS's answer (--http-client-timeout), with 30 s for the SDK's backoff between attempts and
 * AWS finishing a request whose caller died.
 */
export function minIntentWindowMs(requestTimeoutMs: number): number {
  return sdkMaxAttempts * requestTimeoutMs + 30_000;
}

const macVersion = "crossrole.dev/create-intent/v1";

function macFields(owner: Owner, i: Omit<CreateIntent, "mac">): string[] {
  return [
    macVersion,
    owner.kind,
    owner.namespace,
    owner.name,
    owner.uid,
    i.action,
    i.name,
    i.ownerAccountID,
    i.region,
    i.requestedAt,
  ];
}

/** The intent to record for a create of `at` by `owner` at `now`, sealed with the controller's key. */
export function sealIntent(key: ControllerKey, owner: Owner, at: IntentTarget, now: Date): CreateIntent {
  const unsealed = {
    action: "create" as const,
    name: at.name,
    ownerAccountID: at.account,
    region: at.region,
    requestedAt: now.toISOString(),
  };
  return { ...unsealed, mac: key.mac(macFields(owner, unsealed)) };
}

/** What status holds under `intent`, judged. */
export type RecordedIntent =
  | { readonly kind: "none" }
  | { readonly kind: "verified"; readonly intent: CreateIntent }
  /** Something is there, but not an intent this controller's key sealed for this object. */
  | { readonly kind: "ignored"; readonly why: string };

/**
 * Where the intent is recorded: an annotation, written in the same request as the controller's
 * finalizer (one Kubernetes write before a create, not two). Intents recorded before it went
 * there, in status.intent, are still read.
 */
export const intentAnnotation = "crossrole.dev/create-intent";

/** What an object records as its create intent, and where; undefined when it records none. */
export function intentRecordOf(obj: {
  readonly metadata: { readonly annotations?: Readonly<Record<string, string>> | undefined };
  readonly status?: unknown;
}): { readonly intent: unknown; readonly where: string } | undefined {
  const text = obj.metadata.annotations?.[intentAnnotation];
  if (text !== undefined) {
    let intent: unknown;
    try {
      intent = JSON.parse(text);
    } catch {
      intent = text;
    }
    return { intent, where: `annotation ${intentAnnotation}` };
  }
  const legacy = (obj.status as { intent?: unknown } | null | undefined)?.intent;
  return legacy === undefined || legacy === null ? undefined : { intent: legacy, where: "status.intent" };
}

/** The annotation's value for an intent. */
export const intentAnnotationValue = (intent: CreateIntent): string => JSON.stringify(intent);

/** Whether status holds anything under `intent` (then the key is needed to judge it). */
export function hasIntent(status: unknown): boolean {
  const i = (status as { intent?: unknown } | null | undefined)?.intent;
  return i !== undefined && i !== null;
}

/**
 * Reads an intent record (`{intent}`: status, or what intentRecordOf found) and keeps it only
 * when the controller's key sealed it for `owner`. `where` names it in what is said of it.
 */
export function recordedIntent(
  status: unknown,
  key: ControllerKey,
  owner: Owner,
  where = "status.intent",
): RecordedIntent {
  if (!hasIntent(status)) return { kind: "none" };
  const r = (status as { intent: unknown }).intent;
  if (typeof r !== "object" || r === null) return { kind: "ignored", why: `${where} is malformed` };
  const f = r as Record<string, unknown>;
  const str = (k: string) => (typeof f[k] === "string" && f[k] !== "" ? (f[k] as string) : undefined);
  const name = str("name");
  const ownerAccountID = str("ownerAccountID");
  const region = str("region");
  const requestedAt = str("requestedAt");
  const mac = str("mac");
  if (f["action"] !== "create" || !name || !ownerAccountID || !region || !requestedAt) {
    return { kind: "ignored", why: `${where} is malformed` };
  }
  const intent = { action: "create" as const, name, ownerAccountID, region, requestedAt };
  if (mac === undefined || !key.verify(macFields(owner, intent), mac)) {
    return {
      kind: "ignored",
      why: `${where} is not sealed by this controller's key for this object (written by someone else, copied from another object, or made before the key changed)`,
    };
  }
  return { kind: "verified", intent: { ...intent, mac } };
}

/** The intent's time (ms) when it is a create of exactly `at`; otherwise undefined. */
function requestedAtFor(intent: CreateIntent | undefined, at: IntentTarget): number | undefined {
  if (intent === undefined || intent.action !== "create" || intent.name !== at.name) return undefined;
  if (intent.ownerAccountID !== at.account || intent.region !== at.region) return undefined;
  const requested = Date.parse(intent.requestedAt);
  return Number.isNaN(requested) ? undefined : requested;
}

/**
 * Whether an untagged object is the one this resource's own recorded create made: same name,
 * account and region, created after the intent was recorded (within the window).
 */
export function unfinishedCreate(
  intent: CreateIntent | undefined,
  at: IntentTarget,
  createdAt: Date | undefined,
  windowMs = defaultIntentWindowMs,
): boolean {
  const requested = requestedAtFor(intent, at);
  if (requested === undefined || createdAt === undefined) return false;
  return createdWithin(requested, createdAt, windowMs);
}

/** Whether AWS made an object at `createdAt` inside a create's window from `requestedMs` (clock skew allowed). */
export function createdWithin(requestedMs: number, createdAt: Date, windowMs: number): boolean {
  const created = createdAt.getTime();
  return created >= requestedMs - intentSkewMs && created <= requestedMs + windowMs;
}

/**
 * unfinishedCreate without asking AWS when the object was made, for an untagged object this
 * reconcile's own create call reported made: the read before the intent found nothing at
 * `absentAt`, at most intentSkewMs before the intent, and the create answered at `answeredAt`,
 * inside the window. The object was made between the two, so its creation time is one
 * unfinishedCreate accepts; a slower intent write or answer leaves the question to it. (A read
 * that missed an object made moments before it, not yet shown everywhere, is what the skew
 * allows for there too.)
 */
export function createdSinceAbsent(
  intent: CreateIntent | undefined,
  at: IntentTarget,
  absentAt: Date,
  answeredAt: Date,
  windowMs = defaultIntentWindowMs,
): boolean {
  const requested = requestedAtFor(intent, at);
  if (requested === undefined) return false;
  const absent = absentAt.getTime();
  const answered = answeredAt.getTime();
  return absent <= answered && absent >= requested - intentSkewMs && answered <= requested + windowMs;
}

/**
 * A create of `at` that may still land: the intent is for exactly `at` and its window is still
 * open at `now`. Then nothing found proves nothing: no second create, no release on deletion.
 */
export function pendingCreate(
  intent: CreateIntent | undefined,
  at: IntentTarget,
  now: Date,
  windowMs = defaultIntentWindowMs,
): { readonly requestedAt: Date; readonly until: Date } | undefined {
  const requested = requestedAtFor(intent, at);
  if (requested === undefined) return undefined;
  const until = requested + windowMs;
  return now.getTime() < until ? { requestedAt: new Date(requested), until: new Date(until) } : undefined;
}

/** Node's codes for a connection that never reached AWS: the request was not sent. */
const notSent = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/** AWS's answers that it did nothing: throttled or unavailable, whatever the status. */
const refusedCodes = new Set([
  "SlowDown",
  "Throttling",
  "ThrottlingException",
  "RequestLimitExceeded",
  "ServiceUnavailable",
  "RequestThrottled",
]);

/**
 * Whether a failed create call is proven not to have made anything, so its intent may be
 * cleared and a retry may create again: the credentials failed before the call, the connection
 * never reached AWS, or AWS answered with a refusal (a 4xx other than a timeout, or throttling).
 * A timeout, a dropped connection or a 5xx proves nothing: AWS may have done it, and the
 * intent's window stays open (pendingCreate).
 */
export function createRefused(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (e instanceof CredentialError) return true;
    const f = e as { code?: unknown; httpStatus?: unknown; $metadata?: { httpStatusCode?: unknown } };
    const code = typeof f.code === "string" ? f.code : undefined;
    if (code !== undefined && (notSent.has(code) || refusedCodes.has(code))) return true;
    const status = typeof f.httpStatus === "number" ? f.httpStatus : f.$metadata?.httpStatusCode;
    if (typeof status === "number" && status >= 400 && status < 500 && status !== 408) return true;
  }
  return false;
}
