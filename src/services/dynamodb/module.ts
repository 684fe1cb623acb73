// The DynamoDB Table kind plugged into the generic reconciler.
//
// DynamoDB names tables per account and region, so the module's client is the pooled
// DynamoDBClient plus the region it acts in. The ARN in status is built from the decided
// account and region (`arn`), which is where `read` looked. A table spends time CREATING,
// UPDATING and DELETING (and so do its indexes): `busy` tells the reconciler to write nothing
// and look again shortly, and `statusFrom` reports ACK's status.tableStatus and friends.
import { parseSpecWith, type ServiceModule } from "../service-module.ts";
import { dynamodbClientFactory } from "./client.ts";
import { diff, lateInitialize } from "./diff.ts";
import { classifyError, isTableError } from "./errors.ts";
import { arnOf, statusFromDescription, tagMapOf, userTags } from "./mapping.ts";
import { type TableFields, type TableSpec, tableKind, tableSpecSchema } from "./schema.ts";
import {
  busyState,
  claimTable,
  createTable,
  deleteTable,
  type ObservedTable,
  readTable,
  type TableClient,
  updateTable,
} from "./table.ts";

/** How soon to look again at a table DynamoDB is still working on. */
export const busyRequeueMs = 5_000;

function fieldsOf(observed: ObservedTable): TableFields {
  const { tableARN: _arn, description: _description, region: _region, ...fields } = observed;
  return fields;
}

export const tableService: ServiceModule<TableSpec, ObservedTable, TableClient> = {
  kind: tableKind,
  parseSpec: parseSpecWith(tableSpecSchema),
  async client(credentials, decision, resource) {
    const dynamodb = await credentials.client(dynamodbClientFactory, decision, resource);
    return { dynamodb, region: await dynamodb.config.region() };
  },
  identifier: (spec) => spec.tableName,
  identifierField: "spec.tableName",
  async read(client, spec, ctx) {
    const r = await readTable(client, spec, ctx);
    return r.found ? { found: true, observed: r.table } : { found: false };
  },
  tagsOf: (observed) => tagMapOf(observed.tags),
  async create(client, spec, _region, ownerTags, ctx) {
    const r = await createTable(client, spec, ownerTags, ctx);
    return r.created
      ? { created: true, status: r.tableStatus === undefined ? {} : { tableStatus: r.tableStatus } }
      : { created: false };
  },
  async update(client, desired, observed, ownerTags, ctx) {
    return (await updateTable(client, desired, observed, ownerTags, ctx)).map((d) => d.path);
  },
  claim: (client, observed, ownerTags, ctx) => claimTable(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteTable(client, spec.tableName, ctx),
  diff: (desired, observed) => diff(desired, fieldsOf(observed)).map((d) => d.path),
  lateInitialize(spec, observed) {
    const r = lateInitialize(spec, fieldsOf(observed));
    return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
  },
  specFromObserved(observed, spec) {
    const { tags, ...fields } = fieldsOf(observed);
    const user = userTags(tagMapOf(tags));
    // DynamoDB reports only the key attributes' definitions; keep the spec's others (indexes).
    const reported = new Set(fields.attributeDefinitions.map((a) => a.attributeName));
    const attributeDefinitions = [
      ...fields.attributeDefinitions,
      ...spec.attributeDefinitions.filter((a) => !reported.has(a.attributeName)),
    ];
    return {
      ...fields,
      attributeDefinitions,
      ...(user ? { tags: user } : {}),
      ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
    };
  },
  arn: (spec, region, account) => arnOf(spec.tableName, region, account),
  statusFrom: (observed) => statusFromDescription(observed.description),
  busy(observed) {
    const state = busyState(observed.description);
    if (state === undefined) return undefined;
    return {
      reason: "TableStatus",
      message: `table ${observed.tableName} is ${state} in AWS; waiting`,
      requeueAfterMs: busyRequeueMs,
    };
  },
  observedRegion: (observed) => observed.region,
  isTerminal: (err) => isTableError(err) && err.terminal,
  describeError(err, spec) {
    return (
      isTableError(err) ? err : classifyError(err, { operation: "DescribeTable", table: spec.tableName })
    ).message;
  },
};
