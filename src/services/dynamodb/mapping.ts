// Table spec ⇄ DynamoDB API shapes, as pure functions: the ARN, CreateTable's input, the
// UpdateTable inputs, and DescribeTable / ListTagsOfResource / DescribeTimeToLive /
// DescribeContinuousBackups / GetResourcePolicy / DescribeContributorInsights answers in spec
// form (ACK's field names: attributeName, keyType, readCapacityUnits, ...). Structure-valued
// fields map through the generated codecs (src/services/shape-codec.ts).
import type {
  AttributeDefinition as AwsAttributeDefinition,
  GlobalSecondaryIndex as AwsGlobalSecondaryIndex,
  KeySchemaElement as AwsKeySchemaElement,
  OnDemandThroughput as AwsOnDemandThroughput,
  Projection as AwsProjection,
  ProvisionedThroughput as AwsProvisionedThroughput,
  ContinuousBackupsDescription,
  ContributorInsightsStatus,
  CreateTableCommandInput,
  ReplicaDescription,
  ReplicationGroupUpdate,
  TableDescription,
  TimeToLiveDescription,
} from "@aws-sdk/client-dynamodb";
import { parseNamedArn, regionalArn } from "../arn.ts";
import { type Codec, fromAws, specMembers, toAws } from "../shape-codec.ts";
import { awsTags, tagMapOf, userTags, withOwnerTags } from "../tag-list.ts";
import { tableCodecs, tableStatusCodecs } from "./generated/table-fields.ts";
import type {
  AttributeDefinition,
  BillingMode,
  ContinuousBackups,
  ContributorInsights,
  GlobalSecondaryIndex,
  KeySchemaElement,
  LocalSecondaryIndex,
  OnDemandThroughput,
  Projection,
  ProvisionedThroughput,
  SseSpecification,
  StreamSpecification,
  TableClass,
  TableFields,
  TableReplica,
  TimeToLive,
} from "./schema.ts";

/** `arn:<partition>:dynamodb:<region>:<account>:table/<name>`: known before the table exists. */
export function arnOf(name: string, region: string, account: string): string {
  return regionalArn("dynamodb", region, account, `table/${name}`);
}

/** The region, account and table name a DynamoDB table ARN names; undefined when it is not one. */
export function parseTableArn(
  arn: string,
): { readonly region: string; readonly account: string; readonly name: string } | undefined {
  const parts = parseNamedArn(arn, "dynamodb");
  if (parts === undefined || !parts.name.startsWith("table/")) return undefined;
  return { ...parts, name: parts.name.slice("table/".length).split("/")[0] ?? "" };
}

// ---- tags ----

export { awsTags, tagMapOf, userTags };
/** The tag map AWS should hold: the user's tags and the ownership tags (which win). */
export const tableTags = withOwnerTags;

// ---- spec → AWS ----

export function awsAttributeDefinitions(defs: readonly AttributeDefinition[]): AwsAttributeDefinition[] {
  return defs.map((d) => ({ AttributeName: d.attributeName, AttributeType: d.attributeType }));
}

export function awsKeySchema(keys: readonly KeySchemaElement[]): AwsKeySchemaElement[] {
  return keys.map((k) => ({ AttributeName: k.attributeName, KeyType: k.keyType }));
}

export function awsThroughput(t: ProvisionedThroughput): AwsProvisionedThroughput {
  return { ReadCapacityUnits: t.readCapacityUnits, WriteCapacityUnits: t.writeCapacityUnits };
}

export function awsProjection(p: Projection): AwsProjection {
  return {
    ...(p.projectionType === undefined ? {} : { ProjectionType: p.projectionType }),
    ...(p.nonKeyAttributes === undefined ? {} : { NonKeyAttributes: [...p.nonKeyAttributes] }),
  };
}

const itemCodec = (field: keyof typeof tableCodecs): Codec => (tableCodecs[field][1] as Codec).list ?? {};

export function awsGlobalSecondaryIndex(g: GlobalSecondaryIndex): AwsGlobalSecondaryIndex {
  return toAws(itemCodec("globalSecondaryIndexes"), g) as AwsGlobalSecondaryIndex;
}

/**
 * An on-demand maximum as UpdateTable wants it: a side the spec leaves out (or the whole field
 * removed) is -1, DynamoDB's "no maximum".
 */
export function awsOnDemandThroughput(t: OnDemandThroughput | undefined): AwsOnDemandThroughput {
  return {
    MaxReadRequestUnits: t?.maxReadRequestUnits ?? -1,
    MaxWriteRequestUnits: t?.maxWriteRequestUnits ?? -1,
  };
}

/** An on-demand maximum DynamoDB reports, in spec form: -1 or 0 (no maximum) left out. */
export function onDemandThroughputOf(t: AwsOnDemandThroughput | undefined): OnDemandThroughput | undefined {
  const limit = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined);
  const r = limit(t?.MaxReadRequestUnits);
  const w = limit(t?.MaxWriteRequestUnits);
  if (r === undefined && w === undefined) return undefined;
  return {
    ...(r === undefined ? {} : { maxReadRequestUnits: r }),
    ...(w === undefined ? {} : { maxWriteRequestUnits: w }),
  };
}

/** One replica's settings as ReplicaUpdates' Create and Update actions take them. */
export function awsReplica(r: TableReplica) {
  return toAws(itemCodec("tableReplicas"), r) as NonNullable<ReplicationGroupUpdate["Create"]>;
}

/** Absent billingMode is PROVISIONED (DynamoDB's default; the schema then requires throughput). */
export function billingModeOf(spec: Pick<TableFields, "billingMode">): BillingMode {
  return spec.billingMode ?? "PROVISIONED";
}

/** The attribute definitions the given key schemas use (what UpdateTable's GSI creation needs). */
export function definitionsFor(
  spec: Pick<TableFields, "attributeDefinitions">,
  ...keySchemas: (readonly KeySchemaElement[])[]
): AwsAttributeDefinition[] {
  const names = new Set(keySchemas.flat().map((k) => k.attributeName));
  return awsAttributeDefinitions(spec.attributeDefinitions.filter((a) => names.has(a.attributeName)));
}

export function awsStreamSpecification(s: StreamSpecification | undefined) {
  return s?.streamEnabled
    ? { StreamEnabled: true, ...(s.streamViewType ? { StreamViewType: s.streamViewType } : {}) }
    : { StreamEnabled: false };
}

export function awsSseSpecification(s: SseSpecification) {
  return {
    Enabled: s.enabled ?? false,
    ...(s.sseType ? { SSEType: s.sseType } : {}),
    ...(s.kmsMasterKeyID ? { KMSMasterKeyId: s.kmsMasterKeyID } : {}),
  };
}

/**
 * CreateTable with every setting the spec has and every tag (the user's and ownership), so the
 * table never exists untagged. Time to live, continuous backups, contributor insights and
 * replicas are not part of CreateTable: the update that follows the create applies them.
 */
export function createTableInput(
  spec: TableFields,
  ownerTags: Readonly<Record<string, string>>,
): CreateTableCommandInput {
  const tags = tableTags(spec.tags, ownerTags);
  const gsis = spec.globalSecondaryIndexes ?? [];
  const lsis = spec.localSecondaryIndexes ?? [];
  return {
    TableName: spec.tableName,
    // DynamoDB wants exactly the attributes the keys use; the spec may define more (for later indexes).
    AttributeDefinitions: definitionsFor(
      spec,
      spec.keySchema,
      ...gsis.map((g) => g.keySchema),
      ...lsis.map((l) => l.keySchema),
    ),
    KeySchema: awsKeySchema(spec.keySchema),
    BillingMode: billingModeOf(spec),
    ...(spec.provisionedThroughput
      ? { ProvisionedThroughput: awsThroughput(spec.provisionedThroughput) }
      : {}),
    ...(spec.onDemandThroughput
      ? { OnDemandThroughput: awsOnDemandThroughput(spec.onDemandThroughput) }
      : {}),
    ...(gsis.length > 0 ? { GlobalSecondaryIndexes: gsis.map(awsGlobalSecondaryIndex) } : {}),
    ...(lsis.length > 0
      ? {
          LocalSecondaryIndexes: lsis.map(
            (l) =>
              toAws(itemCodec("localSecondaryIndexes"), l) as NonNullable<
                CreateTableCommandInput["LocalSecondaryIndexes"]
              >[number],
          ),
        }
      : {}),
    ...(spec.resourcePolicy ? { ResourcePolicy: spec.resourcePolicy } : {}),
    ...(spec.streamSpecification?.streamEnabled
      ? { StreamSpecification: awsStreamSpecification(spec.streamSpecification) }
      : {}),
    ...(spec.sseSpecification ? { SSESpecification: awsSseSpecification(spec.sseSpecification) } : {}),
    ...(spec.deletionProtectionEnabled === undefined
      ? {}
      : { DeletionProtectionEnabled: spec.deletionProtectionEnabled }),
    ...(spec.tableClass ? { TableClass: spec.tableClass } : {}),
    ...(Object.keys(tags).length > 0 ? { Tags: awsTags(tags) } : {}),
  };
}

// ---- AWS → spec ----

function keySchemaOf(keys: readonly AwsKeySchemaElement[] | undefined): KeySchemaElement[] {
  return (keys ?? []).map((k) => ({
    attributeName: k.AttributeName ?? "",
    keyType: (k.KeyType ?? "HASH") as KeySchemaElement["keyType"],
  }));
}

/** Throughput in spec form, only where it applies (PAY_PER_REQUEST reports zeros). */
function throughputOf(
  t: { ReadCapacityUnits?: number | undefined; WriteCapacityUnits?: number | undefined } | undefined,
  billingMode: BillingMode,
): ProvisionedThroughput | undefined {
  if (billingMode !== "PROVISIONED" || t === undefined) return undefined;
  const r = t.ReadCapacityUnits ?? 0;
  const w = t.WriteCapacityUnits ?? 0;
  if (r === 0 && w === 0) return undefined;
  return { readCapacityUnits: r, writeCapacityUnits: w };
}

function projectionOf(p: AwsProjection | undefined): Projection {
  return {
    ...(p?.NonKeyAttributes && p.NonKeyAttributes.length > 0
      ? { nonKeyAttributes: [...p.NonKeyAttributes] }
      : {}),
    ...(p?.ProjectionType
      ? { projectionType: p.ProjectionType as Projection["projectionType"] & string }
      : {}),
  };
}

const enabling = new Set(["ENABLED", "ENABLING", "UPDATING"]);

/** What the settings read by their own calls say (undefined: not read, or none). */
export interface TableExtras {
  readonly ttl?: TimeToLiveDescription | undefined;
  readonly continuousBackups?: ContinuousBackupsDescription | undefined;
  readonly resourcePolicy?: string | undefined;
  /** Only read while the spec manages contributor insights (table.ts). */
  readonly contributorInsights?: ContributorInsightsStatus | undefined;
}

/** Point in time recovery in spec form: left out while it is off (the spec's "absent"). */
function continuousBackupsOf(d: ContinuousBackupsDescription | undefined): ContinuousBackups | undefined {
  const pitr = d?.PointInTimeRecoveryDescription;
  if (pitr?.PointInTimeRecoveryStatus !== "ENABLED") return undefined;
  return {
    pointInTimeRecoveryEnabled: true,
    ...(pitr.RecoveryPeriodInDays === undefined ? {} : { recoveryPeriodInDays: pitr.RecoveryPeriodInDays }),
  };
}

/** DescribeContributorInsights's status as the spec spells it: on its way counts as there. */
export function contributorInsightsOf(
  status: ContributorInsightsStatus | undefined,
): ContributorInsights | undefined {
  if (status === undefined) return undefined;
  return status === "ENABLED" || status === "ENABLING" ? "ENABLED" : "DISABLED";
}

function localSecondaryIndexOf(l: unknown): LocalSecondaryIndex {
  const index = fromAws(itemCodec("localSecondaryIndexes"), l) as LocalSecondaryIndex;
  return { ...index, projection: projectionOf((l as { Projection?: AwsProjection }).Projection) };
}

/** A replica DescribeTable reports, in spec form (its table class is in a summary there). */
function replicaOf(r: ReplicaDescription): TableReplica {
  const replica = fromAws(itemCodec("tableReplicas"), r) as TableReplica;
  const tableClass = r.ReplicaTableClassSummary?.TableClass;
  return { ...replica, ...(tableClass ? { tableClassOverride: tableClass as TableClass } : {}) };
}

/** What DescribeTable, ListTagsOfResource and the other reads (`extras`) say, in spec form. */
export function tableFieldsFromAws(
  table: TableDescription,
  tags: Readonly<Record<string, string>>,
  extras: TableExtras = {},
): TableFields {
  const { ttl } = extras;
  const billingMode = (table.BillingModeSummary?.BillingMode ?? "PROVISIONED") as BillingMode;
  const throughput = throughputOf(table.ProvisionedThroughput, billingMode);
  const gsis = (table.GlobalSecondaryIndexes ?? []).map((g): GlobalSecondaryIndex => {
    const t = throughputOf(g.ProvisionedThroughput, billingMode);
    const onDemand =
      billingMode === "PAY_PER_REQUEST" ? onDemandThroughputOf(g.OnDemandThroughput) : undefined;
    return {
      indexName: g.IndexName ?? "",
      keySchema: keySchemaOf(g.KeySchema),
      projection: projectionOf(g.Projection),
      ...(t ? { provisionedThroughput: t } : {}),
      ...(onDemand ? { onDemandThroughput: onDemand } : {}),
    };
  });
  const lsis = (table.LocalSecondaryIndexes ?? []).map(localSecondaryIndexOf);
  const onDemand =
    billingMode === "PAY_PER_REQUEST" ? onDemandThroughputOf(table.OnDemandThroughput) : undefined;
  const replicas = (table.Replicas ?? []).map(replicaOf);
  const continuousBackups = continuousBackupsOf(extras.continuousBackups);
  const contributorInsights = contributorInsightsOf(extras.contributorInsights);
  const stream: StreamSpecification | undefined = table.StreamSpecification
    ? table.StreamSpecification.StreamEnabled
      ? {
          streamEnabled: true,
          ...(table.StreamSpecification.StreamViewType
            ? {
                streamViewType: table.StreamSpecification
                  .StreamViewType as StreamSpecification["streamViewType"] & string,
              }
            : {}),
        }
      : { streamEnabled: false }
    : undefined;
  const sse: SseSpecification | undefined =
    table.SSEDescription?.Status && enabling.has(table.SSEDescription.Status)
      ? {
          enabled: true,
          ...(table.SSEDescription.SSEType
            ? { sseType: table.SSEDescription.SSEType as SseSpecification["sseType"] & string }
            : {}),
          ...(table.SSEDescription.KMSMasterKeyArn
            ? { kmsMasterKeyID: table.SSEDescription.KMSMasterKeyArn }
            : {}),
        }
      : undefined;
  const timeToLive: TimeToLive | undefined =
    ttl?.TimeToLiveStatus && (ttl.TimeToLiveStatus === "ENABLED" || ttl.TimeToLiveStatus === "ENABLING")
      ? { attributeName: ttl.AttributeName ?? "", enabled: true }
      : undefined;
  const tagList = Object.entries(tags).map(([key, value]) => ({ key, value }));
  return {
    tableName: table.TableName ?? "",
    attributeDefinitions: (table.AttributeDefinitions ?? []).map((a) => ({
      attributeName: a.AttributeName ?? "",
      attributeType: (a.AttributeType ?? "S") as AttributeDefinition["attributeType"],
    })),
    keySchema: keySchemaOf(table.KeySchema),
    billingMode,
    ...(throughput ? { provisionedThroughput: throughput } : {}),
    ...(onDemand ? { onDemandThroughput: onDemand } : {}),
    ...(lsis.length > 0 ? { localSecondaryIndexes: lsis } : {}),
    ...(gsis.length > 0 ? { globalSecondaryIndexes: gsis } : {}),
    ...(stream ? { streamSpecification: stream } : {}),
    ...(sse ? { sseSpecification: sse } : {}),
    ...(timeToLive ? { timeToLive } : {}),
    deletionProtectionEnabled: table.DeletionProtectionEnabled ?? false,
    ...(table.TableClassSummary?.TableClass
      ? { tableClass: table.TableClassSummary.TableClass as TableClass }
      : {}),
    ...(extras.resourcePolicy ? { resourcePolicy: extras.resourcePolicy } : {}),
    ...(continuousBackups ? { continuousBackups } : {}),
    ...(contributorInsights ? { contributorInsights } : {}),
    ...(replicas.length > 0 ? { tableReplicas: replicas } : {}),
    ...(tagList.length > 0 ? { tags: tagList } : {}),
  };
}

/** DynamoDB's long-running states: while in one, the table (or an index) is not ready for changes. */
export const busyStatuses: ReadonlySet<string> = new Set(["CREATING", "UPDATING", "DELETING"]);

/** ACK's status fields from a TableDescription (generated from the model: tableStatus, replicas, ...). */
export function statusFromDescription(table: TableDescription): Record<string, unknown> {
  const status = specMembers(
    tableStatusCodecs,
    table as Readonly<Record<string, unknown>>,
    Object.keys(tableStatusCodecs),
  );
  // metav1.Time's form, as ACK writes it: whole seconds.
  if (table.CreationDateTime) status["creationDateTime"] = secondsPrecision(table.CreationDateTime);
  return status;
}

/** metav1.Time's form: RFC 3339 in UTC, whole seconds. */
function secondsPrecision(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}
