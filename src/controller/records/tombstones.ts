// A released create intent, remembered (DESIGN §3.5). A resource deleted while its create may
// still land waits out the intent's window (DeletePending), then is let go. But AWS accepts a
// signed request for up to 15 minutes after its X-Amz-Date, so a held connection or a retrying
// proxy can still deliver the create later, and the object it makes would belong to nobody. So
// before the resource is let go, a tombstone of its intent is kept in the controller's records
// (where its tenant cannot write) until no request signed inside the window can land any more,
// and the records controller (tombstone-sweeper.ts) looks for an object carrying the released
// uid's ownership tags in the intent's account and region, and deletes it. Pure: the record's
// format and its lifetime.
import type { Decision } from "../../resolver/types.ts";
import type { CreateIntent } from "../create-intent.ts";
import type { Owner } from "../ownership.ts";
import type { RecordObject } from "./record-store.ts";

export const tombstonePrefix = "crossrole-tombstone-";
export const tombstoneKey = "tombstone.json";
export const tombstoneRecordName = (uid: string): string => `${tombstonePrefix}${uid}`;

/** How long after its X-Amz-Date AWS still accepts a signed request (SigV4's 15 minutes). */
export const signatureLifetimeMs = 15 * 60_000;

/** What the sweep needs: whose, where, what name, until when, and what to decide and read it with. */
export interface Tombstone {
  readonly owner: Owner;
  /** The resource's API group and version (`sqs.services.k8s.aws/v1alpha1`). */
  readonly apiVersion: string;
  /** The AWS identifier the create named, its account and region (from the sealed intent). */
  readonly awsName: string;
  readonly account: string;
  readonly region: string;
  readonly requestedAt: string;
  readonly releasedAt: string;
  /** After this, no create signed inside the intent's window can land: the tombstone goes. */
  readonly until: string;
  /**
   * The resource as the resolver and its kind's module need it to find and delete the object
   * again: labels and annotations (which choose the identity and region) and the spec.
   */
  readonly object: {
    readonly labels: Readonly<Record<string, string>>;
    readonly annotations: Readonly<Record<string, string>>;
    readonly spec: unknown;
  };
  /**
   * The identity decided for the resource when it was let go (its trace left out). The sweep
   * decides again with the configuration it finds; this stands in only once the resource's
   * namespace is gone, when nothing can be decided for it any more (records-controller.ts).
   */
  readonly decision?: Decision;
}

/**
 * Until when a create recorded by `intent` can land: the SDK signs each attempt when it sends it,
 * which is within the intent's window, and AWS accepts that signature for 15 minutes more.
 */
export function landsUntil(intent: CreateIntent, windowMs: number): Date {
  return new Date(Date.parse(intent.requestedAt) + windowMs + signatureLifetimeMs);
}

/** The tombstone to keep for a resource let go with `intent` unconfirmed; none once nothing can land. */
export function tombstoneFor(
  resource: {
    readonly apiVersion: string;
    readonly owner: Owner;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly spec: unknown;
    readonly decision?: Decision;
  },
  intent: CreateIntent,
  releasedAt: Date,
  windowMs: number,
): Tombstone | undefined {
  const until = landsUntil(intent, windowMs);
  if (!(until.getTime() > releasedAt.getTime())) return undefined;
  return {
    owner: resource.owner,
    apiVersion: resource.apiVersion,
    awsName: intent.name,
    account: intent.ownerAccountID,
    region: intent.region,
    requestedAt: intent.requestedAt,
    releasedAt: releasedAt.toISOString(),
    until: until.toISOString(),
    object: {
      labels: resource.labels ?? {},
      annotations: resource.annotations ?? {},
      spec: resource.spec,
    },
    ...(resource.decision ? { decision: { ...resource.decision, trace: [] } } : {}),
  };
}

const isString = (v: unknown): v is string => typeof v === "string" && v !== "";
const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === "object" && v !== null && Object.values(v).every((x) => typeof x === "string");

/** The tombstone a record holds, or why it holds none. */
export function parseTombstone(
  record: RecordObject,
): { readonly ok: true; readonly value: Tombstone } | { readonly ok: false; readonly why: string } {
  const text = record.data?.[tombstoneKey];
  if (text === undefined) return { ok: false, why: `it has no data key ${tombstoneKey}` };
  let t: Partial<Record<keyof Tombstone, unknown>>;
  try {
    t = JSON.parse(text) as typeof t;
  } catch {
    return { ok: false, why: `${tombstoneKey} is not JSON` };
  }
  const o = t.owner as Partial<Record<keyof Owner, unknown>> | undefined;
  const obj = t.object as Partial<Record<keyof Tombstone["object"], unknown>> | undefined;
  const ok =
    isString(o?.kind) &&
    isString(o?.namespace) &&
    isString(o?.name) &&
    isString(o?.uid) &&
    [t.apiVersion, t.awsName, t.account, t.region, t.requestedAt, t.releasedAt, t.until].every(isString) &&
    !Number.isNaN(Date.parse(t.until as string)) &&
    isStringMap(obj?.labels) &&
    isStringMap(obj?.annotations);
  if (!ok) return { ok: false, why: `${tombstoneKey} is malformed` };
  return { ok: true, value: t as Tombstone };
}
