// The bucket sub-resources ACK models as one spec field holding the whole Put call's
// configuration (`cors` is PutBucketCors's CORSConfiguration), as one table: which calls read,
// write and remove each, which error codes mean "none", and what S3 means by "none". The spec
// ⇄ AWS mapping is the generated codec of the field (shape-codec.ts); bucket.ts,
// read-subresources.ts and diff.ts loop over the table. The configurations S3 keeps one per ID
// (analytics, inventory, metrics, Intelligent-Tiering) are the second table, `perIdGroups`.
import {
  DeleteBucketAnalyticsConfigurationCommand,
  DeleteBucketCorsCommand,
  DeleteBucketIntelligentTieringConfigurationCommand,
  DeleteBucketInventoryConfigurationCommand,
  DeleteBucketLifecycleCommand,
  DeleteBucketMetricsConfigurationCommand,
  DeleteBucketReplicationCommand,
  DeleteBucketWebsiteCommand,
  GetBucketAbacCommand,
  GetBucketAccelerateConfigurationCommand,
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketLoggingCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketReplicationCommand,
  GetBucketRequestPaymentCommand,
  GetBucketWebsiteCommand,
  ListBucketAnalyticsConfigurationsCommand,
  ListBucketIntelligentTieringConfigurationsCommand,
  ListBucketInventoryConfigurationsCommand,
  ListBucketMetricsConfigurationsCommand,
  PutBucketAbacCommand,
  PutBucketAccelerateConfigurationCommand,
  PutBucketAnalyticsConfigurationCommand,
  PutBucketCorsCommand,
  PutBucketIntelligentTieringConfigurationCommand,
  PutBucketInventoryConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketLoggingCommand,
  PutBucketMetricsConfigurationCommand,
  PutBucketNotificationConfigurationCommand,
  PutBucketReplicationCommand,
  PutBucketRequestPaymentCommand,
  PutBucketWebsiteCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import type { SendOptions } from "../call-context.ts";
import { type Codec, fromAws, toAws } from "../shape-codec.ts";
import type { S3Operation } from "./errors.ts";
import { bucketCodecs } from "./generated/bucket-fields.ts";
import type { BucketFields } from "./schema.ts";

// The SDK's inputs are typed per call; the codec builds them from the model, so they are passed
// through as the model's shapes (the generated codec and the SDK are built from the same model).
// biome-ignore lint/suspicious/noExplicitAny: see above
type AwsShape = any;

/** A sub-resource held as one configuration: read whole, written whole. */
export interface ConfigurationGroup {
  readonly get: S3Operation;
  /** The error codes with which S3 says the sub-resource is not set. */
  readonly none: readonly string[];
  /** The configuration in AWS's shape, or undefined when S3 reports none. */
  readonly read: (client: S3Client, bucket: string, o: SendOptions) => Promise<AwsShape | undefined>;
  readonly put: S3Operation;
  readonly write: (
    client: S3Client,
    bucket: string,
    configuration: AwsShape,
    o: SendOptions,
  ) => Promise<unknown>;
  /**
   * How a configuration is removed: its Delete call, or (where S3 has none) the Put of what S3
   * means by "none" (accelerate Suspended, request payment by the owner, logging off).
   */
  readonly remove:
    | {
        readonly operation: S3Operation;
        readonly run: (client: S3Client, bucket: string, o: SendOptions) => Promise<unknown>;
      }
    | { readonly put: AwsShape };
  /**
   * The spec value in the form that compares equal exactly when S3 would behave the same, or
   * undefined for "none" (absent, empty, or S3's default). Values come already pruned (see
   * `pruned`).
   */
  readonly canonical?: (value: Record<string, unknown>) => unknown;
}

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

export const configurationGroups: { readonly [F in ConfigurationField]: ConfigurationGroup } = {
  abac: {
    get: "GetBucketAbac",
    // Regions without ABAC answer these, as ACK reads them: nothing set.
    none: ["MethodNotAllowed", "UnsupportedArgument"],
    read: async (client, Bucket, o) =>
      (await client.send(new GetBucketAbacCommand({ Bucket }), o)).AbacStatus,
    put: "PutBucketAbac",
    write: (client, Bucket, AbacStatus, o) =>
      client.send(new PutBucketAbacCommand({ Bucket, AbacStatus }), o),
    remove: { put: { Status: "Disabled" } },
    canonical: statusDefault("status", "Disabled"),
  },
  accelerate: {
    get: "GetBucketAccelerateConfiguration",
    none: ["MethodNotAllowed", "UnsupportedArgument"],
    read: async (client, Bucket, o) => {
      const out = await client.send(new GetBucketAccelerateConfigurationCommand({ Bucket }), o);
      return { Status: out.Status };
    },
    put: "PutBucketAccelerateConfiguration",
    write: (client, Bucket, AccelerateConfiguration, o) =>
      client.send(new PutBucketAccelerateConfigurationCommand({ Bucket, AccelerateConfiguration }), o),
    remove: { put: { Status: "Suspended" } },
    canonical: statusDefault("status", "Suspended"),
  },
  cors: {
    get: "GetBucketCors",
    none: ["NoSuchCORSConfiguration"],
    read: async (client, Bucket, o) => {
      const out = await client.send(new GetBucketCorsCommand({ Bucket }), o);
      return { CORSRules: out.CORSRules };
    },
    put: "PutBucketCors",
    write: (client, Bucket, CORSConfiguration, o) =>
      client.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration }), o),
    remove: {
      operation: "DeleteBucketCors",
      run: (client, Bucket, o) => client.send(new DeleteBucketCorsCommand({ Bucket }), o),
    },
    canonical: (v) => (v["corsRules"] === undefined ? undefined : v),
  },
  lifecycle: {
    get: "GetBucketLifecycleConfiguration",
    none: ["NoSuchLifecycleConfiguration"],
    read: async (client, Bucket, o) => {
      const out = await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket }), o);
      return { Rules: out.Rules };
    },
    put: "PutBucketLifecycleConfiguration",
    write: (client, Bucket, LifecycleConfiguration, o) =>
      client.send(new PutBucketLifecycleConfigurationCommand({ Bucket, LifecycleConfiguration }), o),
    remove: {
      operation: "DeleteBucketLifecycle",
      run: (client, Bucket, o) => client.send(new DeleteBucketLifecycleCommand({ Bucket }), o),
    },
    canonical: (v) => (v["rules"] === undefined ? undefined : v),
  },
  logging: {
    get: "GetBucketLogging",
    none: [],
    read: async (client, Bucket, o) => {
      const out = await client.send(new GetBucketLoggingCommand({ Bucket }), o);
      return out.LoggingEnabled === undefined ? undefined : { LoggingEnabled: out.LoggingEnabled };
    },
    put: "PutBucketLogging",
    write: (client, Bucket, BucketLoggingStatus, o) =>
      client.send(new PutBucketLoggingCommand({ Bucket, BucketLoggingStatus }), o),
    // An empty BucketLoggingStatus turns logging off: S3 has no Delete call for it.
    remove: { put: {} },
    canonical: (v) => (v["loggingEnabled"] === undefined ? undefined : v),
  },
  notification: {
    get: "GetBucketNotificationConfiguration",
    none: [],
    read: async (client, Bucket, o) => {
      const { $metadata: _, ...configuration } = await client.send(
        new GetBucketNotificationConfigurationCommand({ Bucket }),
        o,
      );
      return configuration;
    },
    put: "PutBucketNotificationConfiguration",
    write: (client, Bucket, NotificationConfiguration, o) =>
      client.send(new PutBucketNotificationConfigurationCommand({ Bucket, NotificationConfiguration }), o),
    // An empty configuration removes every notification: S3 has no Delete call for it.
    remove: { put: {} },
    canonical: notificationCanonical,
  },
  replication: {
    get: "GetBucketReplication",
    none: ["ReplicationConfigurationNotFoundError"],
    read: async (client, Bucket, o) =>
      (await client.send(new GetBucketReplicationCommand({ Bucket }), o)).ReplicationConfiguration,
    put: "PutBucketReplication",
    write: (client, Bucket, ReplicationConfiguration, o) =>
      client.send(new PutBucketReplicationCommand({ Bucket, ReplicationConfiguration }), o),
    remove: {
      operation: "DeleteBucketReplication",
      run: (client, Bucket, o) => client.send(new DeleteBucketReplicationCommand({ Bucket }), o),
    },
    canonical: (v) => (v["rules"] === undefined ? undefined : v),
  },
  requestPayment: {
    get: "GetBucketRequestPayment",
    none: [],
    read: async (client, Bucket, o) => {
      const out = await client.send(new GetBucketRequestPaymentCommand({ Bucket }), o);
      return out.Payer === undefined ? undefined : { Payer: out.Payer };
    },
    put: "PutBucketRequestPayment",
    write: (client, Bucket, RequestPaymentConfiguration, o) =>
      client.send(new PutBucketRequestPaymentCommand({ Bucket, RequestPaymentConfiguration }), o),
    remove: { put: { Payer: "BucketOwner" } },
    canonical: statusDefault("payer", "BucketOwner"),
  },
  website: {
    get: "GetBucketWebsite",
    none: ["NoSuchWebsiteConfiguration"],
    read: async (client, Bucket, o) => {
      const { $metadata: _, ...configuration } = await client.send(
        new GetBucketWebsiteCommand({ Bucket }),
        o,
      );
      return configuration;
    },
    put: "PutBucketWebsite",
    write: (client, Bucket, WebsiteConfiguration, o) =>
      client.send(new PutBucketWebsiteCommand({ Bucket, WebsiteConfiguration }), o),
    remove: {
      operation: "DeleteBucketWebsite",
      run: (client, Bucket, o) => client.send(new DeleteBucketWebsiteCommand({ Bucket }), o),
    },
  },
};

export const configurationFields = Object.keys(configurationGroups) as readonly ConfigurationField[];

/** A configuration as the spec writes it, from S3's answer (undefined: none). */
export function configurationFromAws(field: ConfigurationField, aws: AwsShape | undefined): unknown {
  if (aws === undefined) return undefined;
  return canonicalConfiguration(field, fromAws(codecOf(field), aws)) === undefined
    ? undefined
    : pruned(fromAws(codecOf(field), aws));
}

/** The configuration S3's Put call takes for the spec's value. */
export function configurationToAws(field: ConfigurationField, value: unknown): AwsShape {
  return toAws(codecOf(field), value);
}

/** The spec value in comparable form; undefined means none. */
export function canonicalConfiguration(field: ConfigurationField, value: unknown): unknown {
  const p = pruned(value);
  if (p === undefined) return undefined;
  const canonical = configurationGroups[field].canonical;
  return canonical === undefined ? p : canonical(p as Record<string, unknown>);
}

/** Whether S3's configuration `observed` is what `desired` asks for (IDs S3 made up ignored). */
export function sameConfiguration(field: ConfigurationField, desired: unknown, observed: unknown): boolean {
  const want = canonicalConfiguration(field, desired);
  const have = canonicalConfiguration(field, withoutGeneratedIds(pruned(desired), pruned(observed)));
  return JSON.stringify(want) === JSON.stringify(have);
}

// ---- configurations S3 keeps one per ID ----

export type PerIdField = "analytics" | "intelligentTiering" | "inventory" | "metrics";

/** A list of configurations: listed (paginated), put and deleted one ID at a time. */
export interface PerIdGroup {
  readonly list: S3Operation;
  readonly put: S3Operation;
  readonly delete: S3Operation;
  /** One page: its configurations in AWS's shape and the token of the next. */
  readonly page: (
    client: S3Client,
    bucket: string,
    token: string | undefined,
    o: SendOptions,
  ) => Promise<{ items: AwsShape[]; next: string | undefined }>;
  readonly write: (
    client: S3Client,
    bucket: string,
    id: string,
    item: AwsShape,
    o: SendOptions,
  ) => Promise<unknown>;
  readonly remove: (client: S3Client, bucket: string, id: string, o: SendOptions) => Promise<unknown>;
}

const nextToken = (out: { IsTruncated?: boolean | undefined; NextContinuationToken?: string | undefined }) =>
  out.IsTruncated ? out.NextContinuationToken : undefined;

export const perIdGroups: { readonly [F in PerIdField]: PerIdGroup } = {
  analytics: {
    list: "ListBucketAnalyticsConfigurations",
    put: "PutBucketAnalyticsConfiguration",
    delete: "DeleteBucketAnalyticsConfiguration",
    page: async (client, Bucket, ContinuationToken, o) => {
      const out = await client.send(
        new ListBucketAnalyticsConfigurationsCommand({ Bucket, ContinuationToken }),
        o,
      );
      return { items: out.AnalyticsConfigurationList ?? [], next: nextToken(out) };
    },
    write: (client, Bucket, Id, AnalyticsConfiguration, o) =>
      client.send(new PutBucketAnalyticsConfigurationCommand({ Bucket, Id, AnalyticsConfiguration }), o),
    remove: (client, Bucket, Id, o) =>
      client.send(new DeleteBucketAnalyticsConfigurationCommand({ Bucket, Id }), o),
  },
  intelligentTiering: {
    list: "ListBucketIntelligentTieringConfigurations",
    put: "PutBucketIntelligentTieringConfiguration",
    delete: "DeleteBucketIntelligentTieringConfiguration",
    page: async (client, Bucket, ContinuationToken, o) => {
      const out = await client.send(
        new ListBucketIntelligentTieringConfigurationsCommand({ Bucket, ContinuationToken }),
        o,
      );
      return { items: out.IntelligentTieringConfigurationList ?? [], next: nextToken(out) };
    },
    write: (client, Bucket, Id, IntelligentTieringConfiguration, o) =>
      client.send(
        new PutBucketIntelligentTieringConfigurationCommand({ Bucket, Id, IntelligentTieringConfiguration }),
        o,
      ),
    remove: (client, Bucket, Id, o) =>
      client.send(new DeleteBucketIntelligentTieringConfigurationCommand({ Bucket, Id }), o),
  },
  inventory: {
    list: "ListBucketInventoryConfigurations",
    put: "PutBucketInventoryConfiguration",
    delete: "DeleteBucketInventoryConfiguration",
    page: async (client, Bucket, ContinuationToken, o) => {
      const out = await client.send(
        new ListBucketInventoryConfigurationsCommand({ Bucket, ContinuationToken }),
        o,
      );
      return { items: out.InventoryConfigurationList ?? [], next: nextToken(out) };
    },
    write: (client, Bucket, Id, InventoryConfiguration, o) =>
      client.send(new PutBucketInventoryConfigurationCommand({ Bucket, Id, InventoryConfiguration }), o),
    remove: (client, Bucket, Id, o) =>
      client.send(new DeleteBucketInventoryConfigurationCommand({ Bucket, Id }), o),
  },
  metrics: {
    list: "ListBucketMetricsConfigurations",
    put: "PutBucketMetricsConfiguration",
    delete: "DeleteBucketMetricsConfiguration",
    page: async (client, Bucket, ContinuationToken, o) => {
      const out = await client.send(
        new ListBucketMetricsConfigurationsCommand({ Bucket, ContinuationToken }),
        o,
      );
      return { items: out.MetricsConfigurationList ?? [], next: nextToken(out) };
    },
    write: (client, Bucket, Id, MetricsConfiguration, o) =>
      client.send(new PutBucketMetricsConfigurationCommand({ Bucket, Id, MetricsConfiguration }), o),
    remove: (client, Bucket, Id, o) =>
      client.send(new DeleteBucketMetricsConfigurationCommand({ Bucket, Id }), o),
  },
};

export const perIdFields = Object.keys(perIdGroups) as readonly PerIdField[];

type PerIdItem = { readonly id: string } & Record<string, unknown>;

/** The list in spec form (undefined: none), ordered by ID: S3 lists them in its own order. */
export function perIdFromAws(field: PerIdField, items: readonly AwsShape[]): PerIdItem[] | undefined {
  const codec = codecOf(field).list as Codec;
  const out = items.map((item) => pruned(fromAws(codec, item)) as PerIdItem);
  return out.length === 0 ? undefined : out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One configuration as S3's Put call takes it. */
export function perIdItemToAws(field: PerIdField, item: unknown): AwsShape {
  return toAws(codecOf(field).list as Codec, item);
}

/** ID → comparable configuration. */
function byId(list: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of (list ?? []) as PerIdItem[]) out.set(item.id, JSON.stringify(pruned(item)));
  return out;
}

/** What to put (new or changed, in spec form) and which IDs to delete so S3 has `desired`. */
export function perIdChanges(desired: unknown, observed: unknown): { put: PerIdItem[]; remove: string[] } {
  const want = byId(desired);
  const have = byId(observed);
  const put = ((desired ?? []) as PerIdItem[]).filter((item) => have.get(item.id) !== want.get(item.id));
  const remove = [...have.keys()].filter((id) => !want.has(id));
  return { put, remove };
}

/** The field names a BucketFields carries for these groups. */
export type GroupFields = Pick<BucketFields, ConfigurationField | PerIdField>;
