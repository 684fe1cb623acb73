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
  DeleteResourcePolicyCommand,
  DeleteTableCommand,
  DescribeContinuousBackupsCommand,
  DescribeContributorInsightsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  GetResourcePolicyCommand,
  ListTagsOfResourceCommand,
  PutResourcePolicyCommand,
  type TableDescription,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateContributorInsightsCommand,
  UpdateTableCommand,
  type UpdateTableCommandInput,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { CallContext } from "../call-context.ts";
import { serviceCalls } from "../service-calls.ts";
import { applyTagChanges, claimTags, type TagWrites } from "../tag-changes.ts";
import { tagMapFromAws } from "../tag-list.ts";
import {
  canonicalContributorInsights,
  diff,
  type FieldDifference,
  gsiChanges,
  replicaChanges,
} from "./diff.ts";
import { classifyError, isInUse, isNotFound, isPolicyNotFound, replicasFirstError } from "./errors.ts";
import {
  awsGlobalSecondaryIndex,
  awsOnDemandThroughput,
  awsReplica,
  awsSseSpecification,
  awsStreamSpecification,
  awsTags,
  awsThroughput,
  billingModeOf,
  busyStatuses,
  createTableInput,
  definitionsFor,
  parseTableArn,
  type TableExtras,
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

/** A read of one setting's own call: its answer, or "gone" when the table vanished meanwhile. */
type SettingRead<T> = Promise<T | "gone">;

function describeTtl(client: TableClient, name: string, ctx: CallContext): SettingRead<TableExtras["ttl"]> {
  return dynamodb
    .sendUnlessGone(
      ctx,
      "DescribeTimeToLive",
      name,
      (o) => client.dynamodb.send(new DescribeTimeToLiveCommand({ TableName: name }), o),
      { field: "spec.timeToLive" },
    )
    .then((out) => (out === undefined ? "gone" : out.TimeToLiveDescription));
}

function describeContinuousBackups(
  client: TableClient,
  name: string,
  ctx: CallContext,
): SettingRead<TableExtras["continuousBackups"]> {
  return dynamodb
    .sendUnlessGone(
      ctx,
      "DescribeContinuousBackups",
      name,
      (o) => client.dynamodb.send(new DescribeContinuousBackupsCommand({ TableName: name }), o),
      { field: "spec.continuousBackups" },
    )
    .then((out) => (out === undefined ? "gone" : out.ContinuousBackupsDescription));
}

/** The table's resource-based policy; a table without one answers PolicyNotFound: none. */
function getResourcePolicy(
  client: TableClient,
  name: string,
  arn: string,
  ctx: CallContext,
): SettingRead<TableExtras["resourcePolicy"]> {
  return dynamodb
    .sendUnlessGone(
      ctx,
      "GetResourcePolicy",
      name,
      async (o) => {
        try {
          return await client.dynamodb.send(new GetResourcePolicyCommand({ ResourceArn: arn }), o);
        } catch (err) {
          if (isPolicyNotFound(err)) return { Policy: undefined };
          throw err;
        }
      },
      { field: "spec.resourcePolicy" },
    )
    .then((out) => (out === undefined ? "gone" : out.Policy));
}

function describeContributorInsights(
  client: TableClient,
  name: string,
  ctx: CallContext,
): SettingRead<TableExtras["contributorInsights"]> {
  return dynamodb
    .sendUnlessGone(
      ctx,
      "DescribeContributorInsights",
      name,
      (o) => client.dynamodb.send(new DescribeContributorInsightsCommand({ TableName: name }), o),
      { field: "spec.contributorInsights" },
    )
    .then((out) => (out === undefined ? "gone" : out.ContributorInsightsStatus));
}

/**
 * Reads the table of that name in the client's account and region: its settings, tags, time to
 * live, continuous backups, resource policy and (only while the spec manages it: DynamoDB's
 * setting is kept otherwise) contributor insights. Works on any table the identity can read,
 * whoever created it (the reconciler decides from the tags whether it may touch it).
 * `found: false` when there is none (or it vanished).
 */
export async function readTable(
  client: TableClient,
  spec: Pick<TableFields, "tableName" | "contributorInsights">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const name = spec.tableName;
  const description = await describeTable(client, name, ctx);
  if (description === undefined) return { found: false };
  const arn = description.TableArn;
  const tags = arn ? await listTags(client, name, arn, ctx) : {};
  if (tags === undefined) return { found: false };
  const ttl = await describeTtl(client, name, ctx);
  const continuousBackups = await describeContinuousBackups(client, name, ctx);
  const resourcePolicy = arn ? await getResourcePolicy(client, name, arn, ctx) : undefined;
  const contributorInsights =
    spec.contributorInsights === undefined ? undefined : await describeContributorInsights(client, name, ctx);
  if ([ttl, continuousBackups, resourcePolicy, contributorInsights].includes("gone")) return { found: false };
  const extras = { ttl, continuousBackups, resourcePolicy, contributorInsights } as TableExtras;
  const table: ObservedTable = {
    ...tableFieldsFromAws(description, tags, extras),
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

/** Whether DynamoDB is still working on the table, one of its indexes or one of its replicas. */
export function busyState(table: TableDescription | undefined): string | undefined {
  if (table === undefined) return undefined;
  if (table.TableStatus && busyStatuses.has(table.TableStatus)) return table.TableStatus;
  for (const g of table.GlobalSecondaryIndexes ?? []) {
    if (g.IndexStatus && busyStatuses.has(g.IndexStatus)) return `${g.IndexStatus} (index ${g.IndexName})`;
  }
  for (const r of table.Replicas ?? []) {
    if (r.ReplicaStatus && busyStatuses.has(r.ReplicaStatus))
      return `${r.ReplicaStatus} (replica in ${r.RegionName})`;
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
      case "onDemandThroughput":
        busy = await updateTable(
          { OnDemandThroughput: awsOnDemandThroughput(desired.onDemandThroughput) },
          d.path,
        );
        break;
      case "tableReplicas":
        // DynamoDB adds, changes or removes one replica per UpdateTable.
        for (const change of replicaChanges(desired, observed)) {
          const update =
            change.op === "delete"
              ? { Delete: { RegionName: change.regionName } }
              : change.op === "create"
                ? { Create: awsReplica(change.replica) }
                : { Update: awsReplica(change.replica) };
          busy = await updateTable({ ReplicaUpdates: [update] }, d.path);
          if (busy) break;
        }
        break;
      case "continuousBackups": {
        const want = desired.continuousBackups;
        await dynamodb.send(
          ctx,
          "UpdateContinuousBackups",
          name,
          (o) =>
            client.dynamodb.send(
              new UpdateContinuousBackupsCommand({
                TableName: name,
                PointInTimeRecoverySpecification: {
                  PointInTimeRecoveryEnabled: want?.pointInTimeRecoveryEnabled ?? false,
                  ...(want?.pointInTimeRecoveryEnabled && want.recoveryPeriodInDays !== undefined
                    ? { RecoveryPeriodInDays: want.recoveryPeriodInDays }
                    : {}),
                },
              }),
              o,
            ),
          { field: d.path },
        );
        break;
      }
      case "contributorInsights": {
        const want = canonicalContributorInsights(desired.contributorInsights);
        if (want === undefined) continue;
        await dynamodb.send(
          ctx,
          "UpdateContributorInsights",
          name,
          (o) =>
            client.dynamodb.send(
              new UpdateContributorInsightsCommand({
                TableName: name,
                ContributorInsightsAction: want === "ENABLED" ? "ENABLE" : "DISABLE",
              }),
              o,
            ),
          { field: d.path },
        );
        break;
      }
      case "resourcePolicy": {
        const arn = observed.tableARN;
        if (arn === undefined) continue;
        const policy = desired.resourcePolicy;
        if (policy === undefined) {
          await dynamodb.send(
            ctx,
            "DeleteResourcePolicy",
            name,
            (o) => client.dynamodb.send(new DeleteResourcePolicyCommand({ ResourceArn: arn }), o),
            { field: d.path },
          );
        } else {
          await dynamodb.send(
            ctx,
            "PutResourcePolicy",
            name,
            (o) =>
              client.dynamodb.send(new PutResourcePolicyCommand({ ResourceArn: arn, Policy: policy }), o),
            { field: d.path },
          );
        }
        break;
      }
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
                        // A provisioned table's index changes its throughput; an on-demand
                        // table's its maxima (-1 where the spec has none).
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
                            : { OnDemandThroughput: awsOnDemandThroughput(change.index.onDemandThroughput) }),
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
  if (arn === undefined) return;
  await claimTags(tagMapOf(observed.tags), ownerTags, tagWrites(client, name, arn, ctx));
}

/**
 * DeleteTable on the table of that name in the client's account; one already gone is
 * "not-found". A table busy with a change is retried (ResourceInUse); deletion protection is
 * reported with the fix (errors.ts). A global table's replicas in other Regions go first, one
 * per call (as ACK does), so that none is left behind: until they are gone the delete is
 * retried, with a Recoverable error saying so.
 */
export async function deleteTable(
  client: TableClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  const table = await describeTable(client, name, ctx);
  if (table === undefined) return "not-found";
  const replicas = (table.Replicas ?? []).filter((r) => r.RegionName && r.RegionName !== client.region);
  const [first] = replicas;
  if (first?.RegionName !== undefined) {
    const region = first.RegionName;
    if (busyState(table) === undefined) {
      await dynamodb.send(
        ctx,
        "UpdateTable",
        name,
        (o) =>
          client.dynamodb.send(
            new UpdateTableCommand({ TableName: name, ReplicaUpdates: [{ Delete: { RegionName: region } }] }),
            o,
          ),
        { field: "spec.tableReplicas" },
      );
    }
    throw replicasFirstError(
      name,
      replicas.map((r) => r.RegionName ?? ""),
    );
  }
  return dynamodb.deleteUnlessGone(ctx, "DeleteTable", name, (o) =>
    client.dynamodb.send(new DeleteTableCommand({ TableName: name }), o),
  );
}
