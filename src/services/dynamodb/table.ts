// The Table kind: its declaration (table-declaration.ts) served by the generic runtime, with
// DynamoDB's value rules (schema.ts) and its quirks as hooks:
// - DescribeTable answers a description, not the create's input: billing mode, throughput,
//   indexes, stream, encryption, class and replicas in spec form (`fieldsFromDescription`), and
//   the settings read by calls of their own (time to live, backups, insights, resource policy);
// - CreateTable wants exactly the attribute definitions its keys use, a billing mode, -1 for an
//   on-demand maximum left out, and a stream only when it is enabled;
// - drift compares by DynamoDB's rules (a disabled stream whatever its view type, indexes by
//   name and shape, replicas by Region and only the overrides the spec sets, ...);
// - UpdateTable takes one change per call (the runtime's oneChangePerCall): each field's inputs,
//   indexes and replicas one action each, deletes first;
// - a global table's replicas in other Regions are deleted before the table, one per call.
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import * as dynamodbSdk from "@aws-sdk/client-dynamodb";
import { parseNamedArn } from "../arn.ts";
import { sameJson } from "../canonical-forms.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { type Codec, fromAws, toAws } from "../shape-codec.ts";
import { dynamodbClientFactory } from "./client.ts";
import { tableCodecs, tableGenerated } from "./generated/table-fields.ts";
import type {
  BillingMode,
  ContributorInsights,
  GlobalSecondaryIndex,
  KeySchemaElement,
  OnDemandThroughput,
  ProvisionedThroughput,
  TableFields,
  TableReplica,
} from "./schema.ts";
import { tableKind, tableSpecSchema, tableStatusSchema } from "./schema.ts";
import { tableDeclaration } from "./table-declaration.ts";

type Fields = Record<string, unknown>;
type Aws = Readonly<Record<string, unknown>>;

/** The region, account and table name a DynamoDB table ARN names; undefined when it is not one. */
export function parseTableArn(
  arn: string,
): { readonly region: string; readonly account: string; readonly name: string } | undefined {
  const parts = parseNamedArn(arn, "dynamodb");
  if (parts === undefined || !parts.name.startsWith("table/")) return undefined;
  return { ...parts, name: parts.name.slice("table/".length).split("/")[0] ?? "" };
}

// ---- spec → AWS ----

const itemCodec = (field: keyof typeof tableCodecs): Codec => (tableCodecs[field][1] as Codec).list ?? {};

/** Absent billingMode is PROVISIONED (DynamoDB's default; the schema then requires throughput). */
const billingModeOf = (spec: Pick<TableFields, "billingMode">): BillingMode =>
  spec.billingMode ?? "PROVISIONED";

const awsThroughput = (t: ProvisionedThroughput) => ({
  ReadCapacityUnits: t.readCapacityUnits,
  WriteCapacityUnits: t.writeCapacityUnits,
});

/** An on-demand maximum as DynamoDB takes it: a side left out (or the whole field) is -1, no maximum. */
const awsOnDemand = (t: OnDemandThroughput | undefined) => ({
  MaxReadRequestUnits: t?.maxReadRequestUnits ?? -1,
  MaxWriteRequestUnits: t?.maxWriteRequestUnits ?? -1,
});

const awsStream = (s: TableFields["streamSpecification"]) =>
  s?.streamEnabled
    ? { StreamEnabled: true, ...(s.streamViewType ? { StreamViewType: s.streamViewType } : {}) }
    : { StreamEnabled: false };

/** The attribute definitions the given key schemas use (what CreateTable and an index's creation take). */
function definitionsFor(
  spec: Pick<TableFields, "attributeDefinitions">,
  ...keys: (readonly KeySchemaElement[])[]
) {
  const names = new Set(keys.flat().map((k) => k.attributeName));
  return spec.attributeDefinitions
    .filter((a) => names.has(a.attributeName))
    .map((a) => ({ AttributeName: a.attributeName, AttributeType: a.attributeType }));
}

/**
 * CreateTable as DynamoDB takes it: exactly the attributes its keys use (the spec may define more,
 * for later indexes), a billing mode, -1 for an on-demand maximum left out, a stream only when it
 * is enabled, SSE's Enabled always said. Time to live, backups, insights and replicas are not
 * CreateTable's: the update after the create applies them.
 */
export function createTableInput(input: Fields, spec: TableFields): Fields {
  const {
    AttributeDefinitions: _all,
    StreamSpecification: _stream,
    GlobalSecondaryIndexes: gsiInput,
    LocalSecondaryIndexes: lsiInput,
    ...rest
  } = input;
  const gsis = spec.globalSecondaryIndexes ?? [];
  const lsis = spec.localSecondaryIndexes ?? [];
  const sse = spec.sseSpecification;
  return {
    ...rest,
    // DynamoDB refuses an empty list of indexes.
    ...(gsis.length > 0 ? { GlobalSecondaryIndexes: gsiInput } : {}),
    ...(lsis.length > 0 ? { LocalSecondaryIndexes: lsiInput } : {}),
    AttributeDefinitions: definitionsFor(
      spec,
      spec.keySchema,
      ...gsis.map((g) => g.keySchema),
      ...lsis.map((l) => l.keySchema),
    ),
    BillingMode: billingModeOf(spec),
    ...(spec.onDemandThroughput ? { OnDemandThroughput: awsOnDemand(spec.onDemandThroughput) } : {}),
    ...(spec.streamSpecification?.streamEnabled
      ? { StreamSpecification: awsStream(spec.streamSpecification) }
      : {}),
    ...(sse
      ? { SSESpecification: { ...(rest["SSESpecification"] as Fields), Enabled: sse.enabled ?? false } }
      : {}),
  };
}

/**
 * UpdateTable's inputs for each field, one change per call as DynamoDB takes them; [] sends
 * nothing. The billing mode carries the throughput (and, switching to provisioned, the indexes'),
 * so a throughput change beside it is not sent again.
 */
const setInputs: Readonly<Record<string, (desired: Fields, observed: Fields) => readonly Fields[]>> = {
  billingMode: (d, o) => {
    const desired = d as TableFields;
    const observed = o as TableFields;
    const toProvisioned = billingModeOf(desired) === "PROVISIONED";
    const indexes = toProvisioned
      ? (desired.globalSecondaryIndexes ?? [])
          .filter(
            (g) =>
              g.provisionedThroughput &&
              observed.globalSecondaryIndexes?.some((h) => h.indexName === g.indexName),
          )
          .map((g) => ({
            Update: {
              IndexName: g.indexName,
              ProvisionedThroughput: awsThroughput(
                g.provisionedThroughput ?? { readCapacityUnits: 1, writeCapacityUnits: 1 },
              ),
            },
          }))
      : [];
    return [
      {
        BillingMode: billingModeOf(desired),
        ...(desired.provisionedThroughput
          ? { ProvisionedThroughput: awsThroughput(desired.provisionedThroughput) }
          : {}),
        ...(indexes.length > 0 ? { GlobalSecondaryIndexUpdates: indexes } : {}),
      },
    ];
  },
  provisionedThroughput: (d, o) =>
    billingModeOf(d as TableFields) === billingModeOf(o as TableFields)
      ? (setInputs["billingMode"]?.(d, o) ?? [])
      : [],
  // A stream's view type cannot change in place: disable, then enable with the new one.
  streamSpecification: (d, o) => {
    const want = (d as TableFields).streamSpecification;
    const was = (o as TableFields).streamSpecification;
    return [
      ...(was?.streamEnabled && want?.streamEnabled
        ? [{ StreamSpecification: { StreamEnabled: false } }]
        : []),
      { StreamSpecification: awsStream(want) },
    ];
  },
  sseSpecification: (d) => {
    const sse = (d as TableFields).sseSpecification;
    return sse === undefined
      ? []
      : [
          {
            SSESpecification: {
              ...(toAws(tableCodecs.sseSpecification[1], sse) as Fields),
              Enabled: sse.enabled ?? false,
            },
          },
        ];
  },
  deletionProtectionEnabled: (d) => [
    { DeletionProtectionEnabled: (d as TableFields).deletionProtectionEnabled ?? false },
  ],
  tableClass: (d) =>
    (d as TableFields).tableClass === undefined ? [] : [{ TableClass: (d as TableFields).tableClass }],
  onDemandThroughput: (d) => [{ OnDemandThroughput: awsOnDemand((d as TableFields).onDemandThroughput) }],
  globalSecondaryIndexes: (d, o) => {
    const desired = d as TableFields;
    return gsiChanges(desired, o as TableFields).map((change) =>
      change.op === "delete"
        ? { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: change.indexName } }] }
        : change.op === "create"
          ? {
              AttributeDefinitions: definitionsFor(desired, desired.keySchema, change.index.keySchema),
              GlobalSecondaryIndexUpdates: [
                { Create: toAws(itemCodec("globalSecondaryIndexes"), change.index) },
              ],
            }
          : {
              GlobalSecondaryIndexUpdates: [
                {
                  // A provisioned table's index changes its throughput; an on-demand table's its
                  // maxima (-1 where the spec has none).
                  Update: {
                    IndexName: change.index.indexName,
                    ...(billingModeOf(desired) === "PROVISIONED"
                      ? {
                          ProvisionedThroughput: awsThroughput(
                            change.index.provisionedThroughput ?? {
                              readCapacityUnits: 1,
                              writeCapacityUnits: 1,
                            },
                          ),
                        }
                      : { OnDemandThroughput: awsOnDemand(change.index.onDemandThroughput) }),
                  },
                },
              ],
            },
    );
  },
  // DynamoDB adds, changes or removes one replica per UpdateTable.
  tableReplicas: (d, o) =>
    replicaChanges(d as TableFields, o as TableFields).map((change) => ({
      ReplicaUpdates: [
        change.op === "delete"
          ? { Delete: { RegionName: change.regionName } }
          : {
              [change.op === "create" ? "Create" : "Update"]: toAws(
                itemCodec("tableReplicas"),
                change.replica,
              ),
            },
      ],
    })),
  // Off on the old attribute before on for another one: DynamoDB needs both steps.
  timeToLive: (d, o) => {
    const want = (d as TableFields).timeToLive;
    const was = (o as TableFields).timeToLive;
    const spec = (attributeName: string, enabled: boolean) => ({
      TimeToLiveSpecification: { AttributeName: attributeName, Enabled: enabled },
    });
    return [
      ...(was?.enabled && (!want?.enabled || want.attributeName !== was.attributeName)
        ? [spec(was.attributeName, false)]
        : []),
      ...(want?.enabled ? [spec(want.attributeName, true)] : []),
    ];
  },
  continuousBackups: (d) => {
    const want = (d as TableFields).continuousBackups;
    return [
      {
        PointInTimeRecoverySpecification: {
          PointInTimeRecoveryEnabled: want?.pointInTimeRecoveryEnabled ?? false,
          ...(want?.pointInTimeRecoveryEnabled && want.recoveryPeriodInDays !== undefined
            ? { RecoveryPeriodInDays: want.recoveryPeriodInDays }
            : {}),
        },
      },
    ];
  },
  contributorInsights: (d) => {
    const want = canonicalContributorInsights((d as TableFields).contributorInsights);
    return want === undefined
      ? []
      : [{ ContributorInsightsAction: want === "ENABLED" ? "ENABLE" : "DISABLE" }];
  },
  resourcePolicy: (d) => {
    const policy = (d as TableFields).resourcePolicy;
    return policy === undefined ? [] : [{ Policy: policy }];
  },
};

// ---- AWS → spec ----

const keySchemaOf = (keys: unknown): KeySchemaElement[] =>
  ((keys as Aws[] | undefined) ?? []).map((k) => ({
    attributeName: String(k["AttributeName"] ?? ""),
    keyType: (k["KeyType"] ?? "HASH") as KeySchemaElement["keyType"],
  }));

/** Throughput in spec form, only where it applies (PAY_PER_REQUEST reports zeros). */
function throughputOf(t: unknown, billingMode: BillingMode): ProvisionedThroughput | undefined {
  if (billingMode !== "PROVISIONED" || t === undefined) return undefined;
  const r = Number((t as Aws)["ReadCapacityUnits"] ?? 0);
  const w = Number((t as Aws)["WriteCapacityUnits"] ?? 0);
  return r === 0 && w === 0 ? undefined : { readCapacityUnits: r, writeCapacityUnits: w };
}

/** An on-demand maximum DynamoDB reports, in spec form: -1 or 0 (no maximum) left out. */
function onDemandOf(t: unknown): OnDemandThroughput | undefined {
  const limit = (n: unknown) => (typeof n === "number" && n > 0 ? n : undefined);
  const r = limit((t as Aws | undefined)?.["MaxReadRequestUnits"]);
  const w = limit((t as Aws | undefined)?.["MaxWriteRequestUnits"]);
  if (r === undefined && w === undefined) return undefined;
  return {
    ...(r === undefined ? {} : { maxReadRequestUnits: r }),
    ...(w === undefined ? {} : { maxWriteRequestUnits: w }),
  };
}

function projectionOf(p: unknown) {
  const projection = (p ?? {}) as Aws;
  const nonKey = projection["NonKeyAttributes"] as string[] | undefined;
  return {
    ...(nonKey && nonKey.length > 0 ? { nonKeyAttributes: [...nonKey] } : {}),
    ...(projection["ProjectionType"] ? { projectionType: projection["ProjectionType"] } : {}),
  } as GlobalSecondaryIndex["projection"];
}

const enabling = new Set(["ENABLED", "ENABLING", "UPDATING"]);

/**
 * What DescribeTable says, in spec form, where it says it otherwise than CreateTable takes it (a
 * field given as undefined is none): billing mode and throughput from their summaries, indexes
 * and replicas, stream, encryption and table class.
 */
export function fieldsFromDescription(table: Aws): Fields {
  const billingMode = ((table["BillingModeSummary"] as Aws | undefined)?.["BillingMode"] ??
    "PROVISIONED") as BillingMode;
  const onDemand = (t: unknown) => (billingMode === "PAY_PER_REQUEST" ? onDemandOf(t) : undefined);
  const gsis = ((table["GlobalSecondaryIndexes"] as Aws[] | undefined) ?? []).map(
    (g): GlobalSecondaryIndex => {
      const t = throughputOf(g["ProvisionedThroughput"], billingMode);
      const maxima = onDemand(g["OnDemandThroughput"]);
      return {
        indexName: String(g["IndexName"] ?? ""),
        keySchema: keySchemaOf(g["KeySchema"]),
        projection: projectionOf(g["Projection"]),
        ...(t ? { provisionedThroughput: t } : {}),
        ...(maxima ? { onDemandThroughput: maxima } : {}),
      };
    },
  );
  const lsis = ((table["LocalSecondaryIndexes"] as Aws[] | undefined) ?? []).map((l) => ({
    ...(fromAws(itemCodec("localSecondaryIndexes"), l) as Fields),
    projection: projectionOf(l["Projection"]),
  }));
  const replicas = ((table["Replicas"] as Aws[] | undefined) ?? []).map((r) => {
    const tableClass = (r["ReplicaTableClassSummary"] as Aws | undefined)?.["TableClass"];
    return {
      ...(fromAws(itemCodec("tableReplicas"), r) as Fields),
      ...(tableClass ? { tableClassOverride: tableClass } : {}),
    };
  });
  const stream = table["StreamSpecification"] as Aws | undefined;
  const sse = table["SSEDescription"] as Aws | undefined;
  const tableClass = (table["TableClassSummary"] as Aws | undefined)?.["TableClass"];
  return {
    attributeDefinitions: ((table["AttributeDefinitions"] as Aws[] | undefined) ?? []).map((a) => ({
      attributeName: String(a["AttributeName"] ?? ""),
      attributeType: a["AttributeType"] ?? "S",
    })),
    keySchema: keySchemaOf(table["KeySchema"]),
    billingMode,
    provisionedThroughput: throughputOf(table["ProvisionedThroughput"], billingMode),
    onDemandThroughput: onDemand(table["OnDemandThroughput"]),
    localSecondaryIndexes: lsis.length > 0 ? lsis : undefined,
    globalSecondaryIndexes: gsis.length > 0 ? gsis : undefined,
    streamSpecification:
      stream === undefined
        ? undefined
        : stream["StreamEnabled"]
          ? {
              streamEnabled: true,
              ...(stream["StreamViewType"] ? { streamViewType: stream["StreamViewType"] } : {}),
            }
          : { streamEnabled: false },
    sseSpecification:
      typeof sse?.["Status"] === "string" && enabling.has(sse["Status"])
        ? {
            enabled: true,
            ...(sse["SSEType"] ? { sseType: sse["SSEType"] } : {}),
            ...(sse["KMSMasterKeyArn"] ? { kmsMasterKeyID: sse["KMSMasterKeyArn"] } : {}),
          }
        : undefined,
    deletionProtectionEnabled: table["DeletionProtectionEnabled"] ?? false,
    tableClass: tableClass ?? undefined,
    tableReplicas: replicas.length > 0 ? replicas : undefined,
  };
}

/** The settings read by calls of their own, by call, in spec form (absent: off, or none). */
const groupFieldsFromAnswer: Readonly<Record<string, (answer: Fields) => Fields>> = {
  DescribeTimeToLive: (answer) => {
    const ttl = answer["TimeToLiveDescription"] as Aws | undefined;
    const status = ttl?.["TimeToLiveStatus"];
    return status === "ENABLED" || status === "ENABLING"
      ? { timeToLive: { attributeName: String(ttl?.["AttributeName"] ?? ""), enabled: true } }
      : {};
  },
  // Point in time recovery is left out while it is off (the spec's "absent").
  DescribeContinuousBackups: (answer) => {
    const pitr = (answer["ContinuousBackupsDescription"] as Aws | undefined)?.[
      "PointInTimeRecoveryDescription"
    ] as Aws | undefined;
    if (pitr?.["PointInTimeRecoveryStatus"] !== "ENABLED") return {};
    const days = pitr["RecoveryPeriodInDays"];
    return {
      continuousBackups: {
        pointInTimeRecoveryEnabled: true,
        ...(days === undefined ? {} : { recoveryPeriodInDays: days }),
      },
    };
  },
  // On its way counts as there.
  DescribeContributorInsights: (answer) => {
    const status = answer["ContributorInsightsStatus"];
    if (status === undefined) return {};
    return { contributorInsights: status === "ENABLED" || status === "ENABLING" ? "ENABLED" : "DISABLED" };
  },
  GetResourcePolicy: (answer) => (answer["Policy"] ? { resourcePolicy: answer["Policy"] } : {}),
};

// ---- drift ----

/** ACK's two spellings as one: ENABLE and ENABLED are "ENABLED", DISABLE and DISABLED "DISABLED". */
function canonicalContributorInsights(
  v: ContributorInsights | undefined,
): "ENABLED" | "DISABLED" | undefined {
  if (v === undefined) return undefined;
  return v === "ENABLE" || v === "ENABLED" ? "ENABLED" : "DISABLED";
}

/** On-demand maxima compare side by side; a side left out is DynamoDB's -1, no maximum. */
const sameOnDemand = (a: OnDemandThroughput | undefined, b: OnDemandThroughput | undefined) =>
  (a?.maxReadRequestUnits ?? -1) === (b?.maxReadRequestUnits ?? -1) &&
  (a?.maxWriteRequestUnits ?? -1) === (b?.maxWriteRequestUnits ?? -1);

const canonicalStream = (spec: TableFields) => {
  const s = spec.streamSpecification;
  return s?.streamEnabled ? `enabled:${s.streamViewType ?? ""}` : "disabled";
};

const canonicalTtl = (spec: TableFields) => {
  const t = spec.timeToLive;
  return t?.enabled ? `enabled:${t.attributeName}` : "disabled";
};

/** The compare hooks of the fields the declaration says are `custom`. */
const equal: Readonly<Record<string, (desired: TableFields, observed: TableFields) => boolean>> = {
  onDemandThroughput: (desired, observed) =>
    billingModeOf(desired) !== "PAY_PER_REQUEST" ||
    sameOnDemand(desired.onDemandThroughput, observed.onDemandThroughput),
  streamSpecification: (desired, observed) => canonicalStream(desired) === canonicalStream(observed),
  sseSpecification: (desired, observed) => {
    const want = desired.sseSpecification;
    return want === undefined || (want.enabled ?? false) === (observed.sseSpecification?.enabled ?? false);
  },
  globalSecondaryIndexes: (desired, observed) => gsiChanges(desired, observed).length === 0,
  tableReplicas: (desired, observed) => replicaChanges(desired, observed).length === 0,
  timeToLive: (desired, observed) => canonicalTtl(desired) === canonicalTtl(observed),
  continuousBackups: (desired, observed) => {
    const want = desired.continuousBackups;
    const have = observed.continuousBackups;
    if ((want?.pointInTimeRecoveryEnabled ?? false) !== (have?.pointInTimeRecoveryEnabled ?? false))
      return false;
    return (
      !want?.pointInTimeRecoveryEnabled ||
      want.recoveryPeriodInDays === undefined ||
      want.recoveryPeriodInDays === have?.recoveryPeriodInDays
    );
  },
  contributorInsights: (desired, observed) => {
    const want = canonicalContributorInsights(desired.contributorInsights);
    return (
      want === undefined ||
      want === (canonicalContributorInsights(observed.contributorInsights) ?? "DISABLED")
    );
  },
};

/**
 * One change to the table's global secondary indexes. DynamoDB takes one per UpdateTable, and
 * cannot change an index's key schema or projection: such an index is deleted, then created.
 */
export type GsiChange =
  | { readonly op: "delete"; readonly indexName: string }
  | { readonly op: "create"; readonly index: GlobalSecondaryIndex }
  | { readonly op: "update"; readonly index: GlobalSecondaryIndex };

/** The index changes that bring `observed` to `desired`: deletes first, then creates, then updates. */
export function gsiChanges(desired: TableFields, observed: TableFields): GsiChange[] {
  const want = new Map((desired.globalSecondaryIndexes ?? []).map((g) => [g.indexName, g]));
  const have = new Map((observed.globalSecondaryIndexes ?? []).map((g) => [g.indexName, g]));
  const deletes: GsiChange[] = [];
  const creates: GsiChange[] = [];
  const updates: GsiChange[] = [];
  for (const [name, h] of have) {
    const w = want.get(name);
    if (w === undefined || !sameShape(w, h)) deletes.push({ op: "delete", indexName: name });
  }
  const onDemand = billingModeOf(desired) === "PAY_PER_REQUEST";
  for (const [name, w] of want) {
    const h = have.get(name);
    if (h === undefined || !sameShape(w, h)) creates.push({ op: "create", index: w });
    else if (w.provisionedThroughput && !sameThroughput(w, h)) updates.push({ op: "update", index: w });
    else if (onDemand && !sameOnDemand(w.onDemandThroughput, h.onDemandThroughput))
      updates.push({ op: "update", index: w });
  }
  return [...deletes, ...creates, ...updates];
}

/** One change to the table's replicas; DynamoDB takes one per UpdateTable. */
export type ReplicaChange =
  | { readonly op: "delete"; readonly regionName: string }
  | { readonly op: "create"; readonly replica: TableReplica }
  | { readonly op: "update"; readonly replica: TableReplica };

/** The replica changes that bring `observed` to `desired`: deletes, then creates, then updates. */
export function replicaChanges(desired: TableFields, observed: TableFields): ReplicaChange[] {
  const want = new Map((desired.tableReplicas ?? []).map((r) => [r.regionName, r]));
  const have = new Map((observed.tableReplicas ?? []).map((r) => [r.regionName, r]));
  const deletes: ReplicaChange[] = [...have.keys()]
    .filter((region) => region !== undefined && !want.has(region))
    .map((regionName) => ({ op: "delete", regionName: regionName ?? "" }));
  const creates: ReplicaChange[] = [];
  const updates: ReplicaChange[] = [];
  for (const [region, w] of want) {
    const h = have.get(region);
    if (h === undefined) creates.push({ op: "create", replica: w });
    else if (!replicaCovered(w, h)) updates.push({ op: "update", replica: w });
  }
  return [...deletes, ...creates, ...updates];
}

/** Whether the replica DynamoDB has carries every override the spec's sets. */
function replicaCovered(want: TableReplica, have: TableReplica): boolean {
  const key = want.kmsMasterKeyID;
  // DynamoDB reports the key's ARN, whatever alias or ID named it: compared only by ARN.
  if (key?.startsWith("arn:") && key !== have.kmsMasterKeyID) return false;
  if (
    want.tableClassOverride !== undefined &&
    want.tableClassOverride !== (have.tableClassOverride ?? "STANDARD")
  )
    return false;
  if (!covers(want.provisionedThroughputOverride, have.provisionedThroughputOverride)) return false;
  if (!covers(want.onDemandThroughputOverride, have.onDemandThroughputOverride)) return false;
  const indexes = new Map((have.globalSecondaryIndexes ?? []).map((g) => [g.indexName, g]));
  return (want.globalSecondaryIndexes ?? []).every((g) => {
    const h = indexes.get(g.indexName);
    return (
      covers(g.provisionedThroughputOverride, h?.provisionedThroughputOverride) &&
      covers(g.onDemandThroughputOverride, h?.onDemandThroughputOverride)
    );
  });
}

/** Whether `have` holds every member `want` sets (a flat structure of numbers). */
function covers(want: object | undefined, have: object | undefined): boolean {
  if (want === undefined) return true;
  const h = (have ?? {}) as Record<string, unknown>;
  return Object.entries(want).every(([k, v]) => v === undefined || h[k] === v);
}

function sameShape(a: GlobalSecondaryIndex, b: GlobalSecondaryIndex): boolean {
  const shape = (g: GlobalSecondaryIndex) => ({
    keySchema: g.keySchema.map((k) => [k.attributeName, k.keyType]),
    projectionType: g.projection.projectionType ?? "",
    nonKeyAttributes: [...(g.projection.nonKeyAttributes ?? [])].sort(),
  });
  return sameJson(shape(a), shape(b));
}

const sameThroughput = (a: GlobalSecondaryIndex, b: GlobalSecondaryIndex) =>
  a.provisionedThroughput?.readCapacityUnits === b.provisionedThroughput?.readCapacityUnits &&
  a.provisionedThroughput?.writeCapacityUnits === b.provisionedThroughput?.writeCapacityUnits;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const tableSource = {
  kind: tableKind,
  declaration: tableDeclaration,
  generated: tableGenerated,
  sdk: dynamodbSdk,
  clientFactory: dynamodbClientFactory,
  schemas: { spec: tableSpecSchema, status: tableStatusSchema },
  hooks: {
    fieldsFromAnswer: fieldsFromDescription,
    groupFieldsFromAnswer,
    equal: equal as never,
    createInput: (input, spec) => createTableInput(input, spec as TableFields),
    setInputs,
    // A global table's replicas in other Regions go first, one per call (as ACK does), so that
    // none is left behind: until they are gone the delete is retried, saying so.
    deleteFirst: (table, at) => {
      const elsewhere = ((table["Replicas"] as Aws[] | undefined) ?? [])
        .map((r) => r["RegionName"])
        .filter((region): region is string => typeof region === "string" && region !== at.region);
      const [first] = elsewhere;
      return first === undefined
        ? undefined
        : {
            call: "UpdateTable",
            input: { ReplicaUpdates: [{ Delete: { RegionName: first } }] },
            field: "spec.tableReplicas",
            error: {
              code: "ResourceInUseException",
              message: `the replicas in ${elsewhere.join(", ")} are deleted first, one at a time; waiting`,
            },
          };
    },
  },
} satisfies DeclaredKindSource<DynamoDBClient>;

export const tableService = declaredKindModule(tableSource);
