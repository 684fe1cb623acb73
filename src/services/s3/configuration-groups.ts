// The bucket sub-resources ACK models as one spec field holding the whole Put call's
// configuration (`cors` is PutBucketCors's CORSConfiguration), and the lists S3 keeps one per ID
// (analytics, inventory, metrics, Intelligent-Tiering): how S3's answers read in spec form and the
// forms that compare equal exactly when S3 would behave the same (an ID S3 made up is no
// difference; S3's default is none). Their calls are the declaration's (bucket-declaration.ts);
// the spec ⇄ AWS mapping is each field's generated codec (shape-codec.ts). Pure.
import { type Codec, fromAws } from "../shape-codec.ts";
import { bucketCodecs } from "./generated/bucket-fields.ts";

export type ConfigurationField =
  | "abac"
  | "accelerate"
  | "cors"
  | "lifecycle"
  | "logging"
  | "notification"
  | "replication"
  | "requestPayment"
  | "website";

const codecOf = (field: keyof typeof bucketCodecs): Codec => bucketCodecs[field][1];

/** `value` without absent members and empty lists (S3 sends neither back), keys sorted. */
export function pruned(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(pruned).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = pruned((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  return value;
}

/** A configuration whose only member is a status, with S3's default meaning "none". */
const statusDefault =
  (member: string, none: string) =>
  (value: Record<string, unknown>): unknown =>
    value[member] === undefined || value[member] === none ? undefined : value;

/** A configuration of one list: none without it. */
const listOf =
  (member: string) =>
  (value: Record<string, unknown>): unknown =>
    value[member] === undefined ? undefined : value;

/**
 * Rules whose ID the spec leaves out get one from S3 (lifecycle, notification, replication):
 * compared by position, an ID S3 made up is not a difference. `ids` tells where the lists are.
 */
export function withoutGeneratedIds(desired: unknown, observed: unknown, key = "id"): unknown {
  if (Array.isArray(desired) && Array.isArray(observed)) {
    return observed.map((o, i) => withoutGeneratedIds(desired[i], o, key));
  }
  if (isObject(desired) && isObject(observed)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(observed)) {
      if (k === key && desired[key] === undefined) continue;
      out[k] = withoutGeneratedIds(desired[k], v, key);
    }
    return out;
  }
  return observed;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A filter rule's name S3 writes back capitalised ("prefix" → "Prefix"). */
function notificationCanonical(value: Record<string, unknown>): unknown {
  const lists = ["topicConfigurations", "queueConfigurations", "lambdaFunctionConfigurations"];
  if (lists.every((l) => value[l] === undefined) && value["eventBridgeConfiguration"] === undefined) {
    return undefined;
  }
  return JSON.parse(
    JSON.stringify(value, (k, v) => (k === "name" && typeof v === "string" ? v.toLowerCase() : v)),
  );
}

/**
 * Each configuration's canonical form of a pruned value, undefined for "none" (absent, empty, or
 * S3's default: ABAC Disabled, accelerate Suspended, the owner pays, no logging, no notification).
 */
const canonicals: { readonly [F in ConfigurationField]: (value: Record<string, unknown>) => unknown } = {
  abac: statusDefault("status", "Disabled"),
  accelerate: statusDefault("status", "Suspended"),
  cors: listOf("corsRules"),
  lifecycle: listOf("rules"),
  logging: listOf("loggingEnabled"),
  notification: notificationCanonical,
  replication: listOf("rules"),
  requestPayment: statusDefault("payer", "BucketOwner"),
  website: (value) => value,
};

export const configurationFields = Object.keys(canonicals) as readonly ConfigurationField[];

/** A configuration as the spec writes it, from S3's answer (undefined: none). */
export function configurationFromAws(field: ConfigurationField, aws: unknown): unknown {
  if (aws === undefined) return undefined;
  return canonicalConfiguration(field, fromAws(codecOf(field), aws)) === undefined
    ? undefined
    : pruned(fromAws(codecOf(field), aws));
}

/** The spec value in comparable form; undefined means none. */
export function canonicalConfiguration(field: ConfigurationField, value: unknown): unknown {
  const p = pruned(value);
  return p === undefined ? undefined : canonicals[field](p as Record<string, unknown>);
}

/** Whether S3's configuration `observed` is what `desired` asks for (IDs S3 made up ignored). */
export function sameConfiguration(field: ConfigurationField, desired: unknown, observed: unknown): boolean {
  const want = canonicalConfiguration(field, desired);
  const have = canonicalConfiguration(field, withoutGeneratedIds(pruned(desired), pruned(observed)));
  return JSON.stringify(want) === JSON.stringify(have);
}

// ---- configurations S3 keeps one per ID ----

export type PerIdField = "analytics" | "intelligentTiering" | "inventory" | "metrics";

export const perIdFields: readonly PerIdField[] = ["analytics", "intelligentTiering", "inventory", "metrics"];

type PerIdItem = { readonly id: string } & Record<string, unknown>;

/** The list in spec form (undefined: none), ordered by ID: S3 lists them in its own order. */
export function perIdFromAws(field: PerIdField, items: readonly unknown[]): PerIdItem[] | undefined {
  const codec = codecOf(field).list as Codec;
  const out = items.map((item) => pruned(fromAws(codec, item)) as PerIdItem);
  return out.length === 0 ? undefined : out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
