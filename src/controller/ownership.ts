// Whose is this AWS object? (DESIGN §3.5) Pure: tags and records in, a verdict out.
//
// The tags on the AWS object decide, never the Kubernetes status (a tenant may write its own
// status, DESIGN §3.4). The one place a record helps is an unfinished create: S3 stores that
// ignore CreateBucket's tags (the emulator, S3-compatible stores) leave a short window between
// the create and the tagging call. A controller killed in that window leaves an untagged
// object; `unfinishedCreate` recognises it from the intent the reconciler recorded before the
// create call and the object's creation time. A forged intent gains nothing: an untagged
// object can be taken by anyone whose namespace is granted its account with the adoption
// policy anyway; the time window only stops *accidental* takeover of an object that existed
// before the create was attempted.
import { ownershipTagKeys } from "../api/ownership-tags.ts";
import { crossroleVersion } from "../version.ts";

/** The Kubernetes object an AWS object belongs to. */
export interface Owner {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

export type Ownership =
  /** Tagged with this object's UID. */
  | { readonly kind: "ours" }
  /** No ownership tags: made out of band (or by ACK). Taken only with an adoption policy. */
  | { readonly kind: "untagged" }
  /**
   * Made by an earlier object of the same kind, namespace and name (deleted with deletion
   * policy retain, then recreated). Taken only with an adoption policy, as an untagged one.
   */
  | { readonly kind: "earlier"; readonly uid: string }
  /** Owned by another Kubernetes object: never updated, adopted or deleted. */
  | { readonly kind: "other"; readonly owner: string; readonly uid: string };

export const ownerName = (o: Omit<Owner, "uid">): string => `${o.kind}/${o.namespace}/${o.name}`;

/** The tags every object this owner creates or adopts carries. */
export function ownershipTags(owner: Owner): Record<string, string> {
  return {
    [ownershipTagKeys.namespace]: owner.namespace,
    [ownershipTagKeys.owner]: ownerName(owner),
    [ownershipTagKeys.ownerUid]: owner.uid,
    [ownershipTagKeys.controllerVersion]: `crossrole-${crossroleVersion}`,
  };
}

export function judgeOwnership(tags: Readonly<Record<string, string>>, self: Owner): Ownership {
  const uid = tags[ownershipTagKeys.ownerUid];
  const owner = tags[ownershipTagKeys.owner];
  if (uid === undefined && owner === undefined) return { kind: "untagged" };
  if (uid === self.uid) return { kind: "ours" };
  if (owner === ownerName(self)) return { kind: "earlier", uid: uid ?? "(none)" };
  return { kind: "other", owner: owner ?? "(unnamed)", uid: uid ?? "(none)" };
}

/** What the reconciler writes to status right before a create call (DESIGN §3.5, intent before action). */
export interface CreateIntent {
  readonly action: "create";
  /** The AWS identifier (bucket name, queue name, ...). */
  readonly name: string;
  readonly ownerAccountID: string;
  readonly region: string;
  /** RFC 3339 with milliseconds. */
  readonly requestedAt: string;
}

/** How far an object's creation time may precede the recorded intent (clock skew). */
export const intentSkewMs = 5_000;
/** How long after the intent a create may still land (SDK retries, an answer after a timeout). */
export const intentWindowMs = 10 * 60_000;

/**
 * Whether an untagged object is the one this resource's own recorded create made: same name,
 * account and region, created after the intent was recorded (within the window).
 */
export function unfinishedCreate(
  intent: CreateIntent | undefined,
  at: IntentTarget,
  createdAt: Date | undefined,
): boolean {
  const requested = requestedAtFor(intent, at);
  if (requested === undefined || createdAt === undefined) return false;
  const created = createdAt.getTime();
  return created >= requested - intentSkewMs && created <= requested + intentWindowMs;
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
): boolean {
  const requested = requestedAtFor(intent, at);
  if (requested === undefined) return false;
  const absent = absentAt.getTime();
  const answered = answeredAt.getTime();
  return absent <= answered && absent >= requested - intentSkewMs && answered <= requested + intentWindowMs;
}

/** Where an intent must point to count: the object's name, account and region. */
export interface IntentTarget {
  readonly name: string;
  readonly account: string;
  readonly region: string;
}

/** The intent's time (ms) when it is a create of exactly `at`; otherwise undefined. */
function requestedAtFor(intent: CreateIntent | undefined, at: IntentTarget): number | undefined {
  if (intent === undefined || intent.action !== "create" || intent.name !== at.name) return undefined;
  if (intent.ownerAccountID !== at.account || intent.region !== at.region) return undefined;
  const requested = Date.parse(intent.requestedAt);
  return Number.isNaN(requested) ? undefined : requested;
}

/** Reads a CreateIntent from an object's status, or undefined when there is none (or it is malformed). */
export function intentOf(status: unknown): CreateIntent | undefined {
  if (typeof status !== "object" || status === null) return undefined;
  const i = (status as { intent?: unknown }).intent;
  if (typeof i !== "object" || i === null) return undefined;
  const r = i as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === "string" ? (r[k] as string) : undefined);
  const name = str("name");
  const ownerAccountID = str("ownerAccountID");
  const region = str("region");
  const requestedAt = str("requestedAt");
  if (r["action"] !== "create" || !name || !ownerAccountID || !region || !requestedAt) return undefined;
  return { action: "create", name, ownerAccountID, region, requestedAt };
}

/** One line for messages: who owns the object, as the tags say. */
export function describeOwnership(o: Ownership): string {
  switch (o.kind) {
    case "ours":
      return "owned by this object";
    case "untagged":
      return "not tagged as crossrole's (created outside crossrole)";
    case "earlier":
      return `created by an earlier object of the same name (uid ${o.uid}), deleted with deletion policy retain`;
    case "other":
      return `owned by ${o.owner} (uid ${o.uid})`;
  }
}
