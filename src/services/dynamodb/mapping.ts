// Table spec ⇄ DynamoDB API shapes, as pure functions: the ARN, CreateTable's input, the
// UpdateTable inputs, and DescribeTable / ListTagsOfResource / DescribeTimeToLive answers in
// spec form (ACK's field names: attributeName, keyType, readCapacityUnits, ...).
import type {
  AttributeDefinition as AwsAttributeDefinition,
  GlobalSecondaryIndex as AwsGlobalSecondaryIndex,
  KeySchemaElement as AwsKeySchemaElement,
  Projection as AwsProjection,
  ProvisionedThroughput as AwsProvisionedThroughput,
  CreateTableCommandInput,
  TableDescription,
  TimeToLiveDescription,
} from "@aws-sdk/client-dynamodb";
import { parseNamedArn, regionalArn } from "../arn.ts";
import { awsTags, tagMapOf, userTags, withOwnerTags } from "../tag-list.ts";
import type {
  AttributeDefinition,
  BillingMode,
  GlobalSecondaryIndex,
  KeySchemaElement,
  Projection,
  ProvisionedThroughput,
  SseSpecification,
  StreamSpecification,
  TableClass,
  TableFields,
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

export function awsGlobalSecondaryIndex(g: GlobalSecondaryIndex): AwsGlobalSecondaryIndex {
  return {
    IndexName: g.indexName,
    KeySchema: awsKeySchema(g.keySchema),
    Projection: awsProjection(g.projection),
    ...(g.provisionedThroughput ? { ProvisionedThroughput: awsThroughput(g.provisionedThroughput) } : {}),
  };
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
 * table never exists untagged. Time to live is not part of CreateTable: the update that follows
 * the create applies it.
 */
export function createTableInput(
  spec: TableFields,
  ownerTags: Readonly<Record<string, string>>,
): CreateTableCommandInput {
  const tags = tableTags(spec.tags, ownerTags);
  const gsis = spec.globalSecondaryIndexes ?? [];
  return {
    TableName: spec.tableName,
    // DynamoDB wants exactly the attributes the keys use; the spec may define more (for later indexes).
    AttributeDefinitions: definitionsFor(spec, spec.keySchema, ...gsis.map((g) => g.keySchema)),
    KeySchema: awsKeySchema(spec.keySchema),
    BillingMode: billingModeOf(spec),
    ...(spec.provisionedThroughput
      ? { ProvisionedThroughput: awsThroughput(spec.provisionedThroughput) }
      : {}),
    ...(gsis.length > 0 ? { GlobalSecondaryIndexes: gsis.map(awsGlobalSecondaryIndex) } : {}),
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

/** What DescribeTable, ListTagsOfResource and DescribeTimeToLive say, in spec form. */
export function tableFieldsFromAws(
  table: TableDescription,
  tags: Readonly<Record<string, string>>,
  ttl: TimeToLiveDescription | undefined,
): TableFields {
  const billingMode = (table.BillingModeSummary?.BillingMode ?? "PROVISIONED") as BillingMode;
  const throughput = throughputOf(table.ProvisionedThroughput, billingMode);
  const gsis = (table.GlobalSecondaryIndexes ?? []).map((g): GlobalSecondaryIndex => {
    const t = throughputOf(g.ProvisionedThroughput, billingMode);
    return {
      indexName: g.IndexName ?? "",
      keySchema: keySchemaOf(g.KeySchema),
      projection: projectionOf(g.Projection),
      ...(t ? { provisionedThroughput: t } : {}),
    };
  });
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
    ...(gsis.length > 0 ? { globalSecondaryIndexes: gsis } : {}),
    ...(stream ? { streamSpecification: stream } : {}),
    ...(sse ? { sseSpecification: sse } : {}),
    ...(timeToLive ? { timeToLive } : {}),
    deletionProtectionEnabled: table.DeletionProtectionEnabled ?? false,
    ...(table.TableClassSummary?.TableClass
      ? { tableClass: table.TableClassSummary.TableClass as TableClass }
      : {}),
    ...(tagList.length > 0 ? { tags: tagList } : {}),
  };
}

/** DynamoDB's long-running states: while in one, the table (or an index) is not ready for changes. */
export const busyStatuses: ReadonlySet<string> = new Set(["CREATING", "UPDATING", "DELETING"]);

/** ACK's status fields from a TableDescription (status.tableStatus, creationDateTime, ...). */
export function statusFromDescription(table: TableDescription): Record<string, unknown> {
  const gsis = (table.GlobalSecondaryIndexes ?? []).map((g) => ({
    ...(g.IndexName ? { indexName: g.IndexName } : {}),
    ...(g.IndexStatus ? { indexStatus: g.IndexStatus } : {}),
    ...(g.IndexArn ? { indexARN: g.IndexArn } : {}),
  }));
  return {
    ...(table.TableStatus ? { tableStatus: table.TableStatus } : {}),
    ...(table.CreationDateTime ? { creationDateTime: secondsPrecision(table.CreationDateTime) } : {}),
    ...(table.ItemCount === undefined ? {} : { itemCount: table.ItemCount }),
    ...(table.TableSizeBytes === undefined ? {} : { tableSizeBytes: table.TableSizeBytes }),
    ...(table.TableId ? { tableID: table.TableId } : {}),
    ...(table.LatestStreamArn ? { latestStreamARN: table.LatestStreamArn } : {}),
    ...(table.LatestStreamLabel ? { latestStreamLabel: table.LatestStreamLabel } : {}),
    ...(gsis.length > 0 ? { globalSecondaryIndexesDescriptions: gsis } : {}),
  };
}

/** metav1.Time's form: RFC 3339 in UTC, whole seconds. */
function secondsPrecision(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}
