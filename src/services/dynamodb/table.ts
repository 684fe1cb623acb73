// Create, read, update and delete one DynamoDB table through a DynamoDBClient the caller
// configured (credentials of the decided identity, region, endpoint). Knows nothing about
// Kubernetes: the reconciler decides when to call what (ownership, adoption, deletion policy,
// region and account drift) and turns TableErrors into conditions. Every call carries the
// reconcile's CallContext: shutdown aborts it, and it is logged with the reconcile ID.
//
// DynamoDB names tables per account and region, so `read` only ever looks in the account and
// region the client acts in. CreateTable takes the tags, so a table never exists untagged.
// DynamoDB works on one change at a time: after an UpdateTable that leaves the table (or an
// index) CREATING / UPDATING / DELETING, `update` stops, and the next reconcile (which sees the
// table busy, see module.ts) carries on once it is ACTIVE again.
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  ListTagsOfResourceCommand,
  type TableDescription,
  TagResourceCommand,
  type TimeToLiveDescription,
  UntagResourceCommand,
  UpdateTableCommand,
  type UpdateTableCommandInput,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { CallContext } from "../call-context.ts";
import { serviceCalls } from "../service-calls.ts";
import { applyTagChanges, type TagWrites } from "../tag-changes.ts";
import { tagMapFromAws } from "../tag-list.ts";
import { diff, type FieldDifference, gsiChanges } from "./diff.ts";
import { classifyError, isInUse, isNotFound } from "./errors.ts";
import {
  awsGlobalSecondaryIndex,
  awsSseSpecification,
  awsStreamSpecification,
  awsTags,
  awsThroughput,
  billingModeOf,
  busyStatuses,
  createTableInput,
  definitionsFor,
  parseTableArn,
  tableFieldsFromAws,
  tableTags,
  tagMapOf,
} from "./mapping.ts";
import type { TableFields } from "./schema.ts";

/** A DynamoDB client and the region it acts in (the fallback when the ARN does not say). */
export interface TableClient {
  readonly dynamodb: DynamoDBClient;
  readonly region: string;
}

/** The ownership tags the reconciler wants on the table (empty: none, e.g. in module tests). */
export type OwnerTags = Readonly<Record<string, string>>;

/**
 * What DynamoDB has: the managed settings in spec form, `tags` holding every tag (ownership
 * tags included), the raw description (for status and busy) and where the table is.
 */
export interface ObservedTable extends TableFields {
  readonly tableARN: string | undefined;
  readonly description: TableDescription;
  /** The region the ARN (else the client) names. */
  readonly region: string;
}

export type ReadResult = { readonly found: false } | { readonly found: true; readonly table: ObservedTable };

/** DynamoDB calls: logged with the table's name, failures as TableErrors. */
const dynamodb = serviceCalls({
  service: "dynamodb",
  object: "table",
  isGone: isNotFound,
  classify: classifyError,
});

const tagsField = { field: "spec.tags" };

/** DescribeTable; undefined when the account has no such table. */
export async function describeTable(
  client: TableClient,
  name: string,
  ctx: CallContext = {},
): Promise<TableDescription | undefined> {
  const out = await dynamodb.sendUnlessGone(ctx, "DescribeTable", name, (o) =>
    client.dynamodb.send(new DescribeTableCommand({ TableName: name }), o),
  );
  return out?.Table;
}

/** Every tag on the table (ListTagsOfResource is paginated). */
async function listTags(
  client: TableClient,
  name: string,
  arn: string,
  ctx: CallContext,
): Promise<Record<string, string> | undefined> {
  const tags: Record<string, string> = {};
  let next: string | undefined;
  do {
    const token = next;
    const out = await dynamodb.sendUnlessGone(
      ctx,
      "ListTagsOfResource",
      name,
      (o) =>
        client.dynamodb.send(
          new ListTagsOfResourceCommand({ ResourceArn: arn, ...(token ? { NextToken: token } : {}) }),
          o,
        ),
      tagsField,
    );
    if (out === undefined) return undefined;
    Object.assign(tags, tagMapFromAws(out.Tags));
    next = out.NextToken;
  } while (next);
  return tags;
}

async function describeTtl(
  client: TableClient,
  name: string,
  ctx: CallContext,
): Promise<TimeToLiveDescription | undefined | "gone"> {
  const out = await dynamodb.sendUnlessGone(
    ctx,
    "DescribeTimeToLive",
    name,
    (o) => client.dynamodb.send(new DescribeTimeToLiveCommand({ TableName: name }), o),
    { field: "spec.timeToLive" },
  );
  return out === undefined ? "gone" : out.TimeToLiveDescription;
}

/**
 * Reads the table of that name in the client's account and region: its settings, tags and time
 * to live. Works on any table the identity can read, whoever created it (the reconciler decides
 * from the tags whether it may touch it). `found: false` when there is none (or it vanished).
 */
export async function readTable(
  client: TableClient,
  spec: Pick<TableFields, "tableName">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const name = spec.tableName;
  const description = await describeTable(client, name, ctx);
  if (description === undefined) return { found: false };
  const arn = description.TableArn;
  const tags = arn ? await listTags(client, name, arn, ctx) : {};
  if (tags === undefined) return { found: false };
  const ttl = await describeTtl(client, name, ctx);
  if (ttl === "gone") return { found: false };
  const table: ObservedTable = {
    ...tableFieldsFromAws(description, tags, ttl),
    tableARN: arn,
    description,
    region: (arn && parseTableArn(arn)?.region) || client.region,
  };
  return { found: true, table };
}

export type CreateResult =
  /** DynamoDB is making the table (usually CREATING). */
  | { readonly created: true; readonly tableStatus: string | undefined }
  /** The account already has a table of that name: whose it is, the tags must tell. */
  | { readonly created: false };

/**
 * CreateTable with the spec's settings and every tag (the user's and `ownerTags`) in one call.
 * A name the account already has is ResourceInUseException: `created: false`, never ours.
 */
export async function createTable(
  client: TableClient,
  spec: TableFields,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<CreateResult> {
  const name = spec.tableName;
  const out = await dynamodb.sendUnless(isInUse, ctx, "CreateTable", name, (o) =>
    client.dynamodb.send(new CreateTableCommand(createTableInput(spec, ownerTags)), o),
  );
  return out === undefined
    ? { created: false }
    : { created: true, tableStatus: out.TableDescription?.TableStatus };
}

/** Whether DynamoDB is still working on the table or one of its indexes. */
export function busyState(table: TableDescription | undefined): string | undefined {
  if (table === undefined) return undefined;
  if (table.TableStatus && busyStatuses.has(table.TableStatus)) return table.TableStatus;
  for (const g of table.GlobalSecondaryIndexes ?? []) {
    if (g.IndexStatus && busyStatuses.has(g.IndexStatus)) return `${g.IndexStatus} (index ${g.IndexName})`;
  }
  return undefined;
}

/**
 * Brings the table to `desired`: UpdateTable for the table's settings and its global secondary
 * indexes (one change per call, as DynamoDB requires), UpdateTimeToLive, and the user's tags
 * (TagResource / UntagResource), always keeping `ownerTags`. Stops after a call that leaves the
 * table busy: the rest is for the next reconcile. Returns what it changed.
 */
export async function updateTable(
  client: TableClient,
  desired: TableFields,
  observed: TableFields & { readonly tableARN?: string | undefined },
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<FieldDifference[]> {
  const name = desired.tableName;
  const differences = diff(desired, observed);
  const changed: FieldDifference[] = [];
  const updateTable = async (input: Omit<UpdateTableCommandInput, "TableName">, field: string) => {
    const out = await dynamodb.send(
      ctx,
      "UpdateTable",
      name,
      (o) => client.dynamodb.send(new UpdateTableCommand({ TableName: name, ...input }), o),
      { field },
    );
    return busyState(out.TableDescription) !== undefined;
  };
  const billingChanged = differences.some((d) => d.field === "billingMode");
  for (const d of differences) {
    let busy = false;
    switch (d.field) {
      case "billingMode":
      case "provisionedThroughput": {
        if (d.field === "provisionedThroughput" && billingChanged) continue; // sent with billingMode
        const mode = billingModeOf(desired);
        const switchingToProvisioned = billingChanged && mode === "PROVISIONED";
        const gsiUpdates = switchingToProvisioned
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
        busy = await updateTable(
          {
            BillingMode: mode,
            ...(desired.provisionedThroughput
              ? { ProvisionedThroughput: awsThroughput(desired.provisionedThroughput) }
              : {}),
            ...(gsiUpdates.length > 0 ? { GlobalSecondaryIndexUpdates: gsiUpdates } : {}),
          },
          d.path,
        );
        break;
      }
      case "streamSpecification": {
        const was = observed.streamSpecification;
        const want = desired.streamSpecification;
        if (was?.streamEnabled && want?.streamEnabled) {
          // A stream's view type cannot change in place: disable, then enable with the new one.
          busy = await updateTable({ StreamSpecification: { StreamEnabled: false } }, d.path);
          if (busy) break;
        }
        busy = await updateTable({ StreamSpecification: awsStreamSpecification(want) }, d.path);
        break;
      }
      case "sseSpecification":
        if (desired.sseSpecification === undefined) continue;
        busy = await updateTable({ SSESpecification: awsSseSpecification(desired.sseSpecification) }, d.path);
        break;
      case "deletionProtectionEnabled":
        busy = await updateTable(
          { DeletionProtectionEnabled: desired.deletionProtectionEnabled ?? false },
          d.path,
        );
        break;
      case "tableClass":
        if (desired.tableClass === undefined) continue;
        busy = await updateTable({ TableClass: desired.tableClass }, d.path);
        break;
      case "globalSecondaryIndexes":
        for (const change of gsiChanges(desired, observed)) {
          const input: Omit<UpdateTableCommandInput, "TableName"> =
            change.op === "delete"
              ? { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: change.indexName } }] }
              : change.op === "create"
                ? {
                    AttributeDefinitions: definitionsFor(desired, desired.keySchema, change.index.keySchema),
                    GlobalSecondaryIndexUpdates: [{ Create: awsGlobalSecondaryIndex(change.index) }],
                  }
                : {
                    GlobalSecondaryIndexUpdates: [
                      {
                        Update: {
                          IndexName: change.index.indexName,
                          ProvisionedThroughput: awsThroughput(
                            change.index.provisionedThroughput ?? {
                              readCapacityUnits: 1,
                              writeCapacityUnits: 1,
                            },
                          ),
                        },
                      },
                    ],
                  };
          busy = await updateTable(input, d.path);
          if (busy) break;
        }
        break;
      case "timeToLive":
        await updateTtl(client, desired, observed, ctx);
        break;
      case "tags": {
        const arn = observed.tableARN;
        if (arn === undefined) continue;
        const tags = tableTags(desired.tags, ownerTags);
        await applyTagChanges(tags, tagMapOf(observed.tags), tagWrites(client, name, arn, ctx));
        break;
      }
    }
    changed.push(d);
    if (busy) return changed;
  }
  return changed;
}

/** UpdateTimeToLive: off on the old attribute before on for another one (DynamoDB needs both steps). */
async function updateTtl(
  client: TableClient,
  desired: TableFields,
  observed: TableFields,
  ctx: CallContext,
): Promise<void> {
  const name = desired.tableName;
  const send = (attributeName: string, enabled: boolean) =>
    dynamodb.send(
      ctx,
      "UpdateTimeToLive",
      name,
      (o) =>
        client.dynamodb.send(
          new UpdateTimeToLiveCommand({
            TableName: name,
            TimeToLiveSpecification: { AttributeName: attributeName, Enabled: enabled },
          }),
          o,
        ),
      { field: "spec.timeToLive" },
    );
  const was = observed.timeToLive;
  const want = desired.timeToLive;
  if (was?.enabled && (!want?.enabled || want.attributeName !== was.attributeName)) {
    await send(was.attributeName, false);
  }
  if (want?.enabled) await send(want.attributeName, true);
}

/** TagResource and UntagResource on the table of that ARN. */
function tagWrites(client: TableClient, name: string, arn: string, ctx: CallContext): TagWrites {
  return {
    tag: (tags) =>
      dynamodb.send(
        ctx,
        "TagResource",
        name,
        (o) => client.dynamodb.send(new TagResourceCommand({ ResourceArn: arn, Tags: awsTags(tags) }), o),
        tagsField,
      ),
    untag: (keys) =>
      dynamodb.send(
        ctx,
        "UntagResource",
        name,
        (o) => client.dynamodb.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: keys }), o),
        tagsField,
      ),
  };
}

/** Puts the ownership tags on a table that lacks them, keeping every tag it has (adoption). */
export async function claimTable(
  client: TableClient,
  observed: ObservedTable,
  ownerTags: OwnerTags,
  ctx: CallContext = {},
): Promise<void> {
  const name = observed.tableName;
  const arn = observed.tableARN;
  if (arn === undefined || Object.keys(ownerTags).length === 0) return;
  await tagWrites(client, name, arn, ctx).tag(ownerTags);
}

/**
 * DeleteTable on the table of that name in the client's account; one already gone is
 * "not-found". A table busy with a change is retried (ResourceInUse); deletion protection is
 * reported with the fix (errors.ts).
 */
export async function deleteTable(
  client: TableClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  return dynamodb.deleteUnlessGone(ctx, "DeleteTable", name, (o) =>
    client.dynamodb.send(new DeleteTableCommand({ TableName: name }), o),
  );
}
