// The DynamoDB Table kind plugged into the generic reconciler.
//
// DynamoDB names tables per account and region, so the module's client is the pooled
// DynamoDBClient plus the region it acts in. The ARN in status is built from the decided
// account and region (`arn`), which is where `read` looked. A table spends time CREATING,
// UPDATING and DELETING (and so do its indexes): `busy` tells the reconciler to write nothing
// and look again shortly, and `statusFrom` reports ACK's status.tableStatus and friends.
import { parseSpecWith, parseStatusWith, type ServiceModule } from "../service-module.ts";
import {
  adoptedSpec,
  errorReporting,
  fromDeclared,
  observationOf,
  pathsOf,
  regionalClient,
  specFieldComparison,
  withoutKeys,
} from "../service-module-parts.ts";
import { dynamodbClientFactory } from "./client.ts";
import { diff, lateInitialize } from "./diff.ts";
import { classifyError, isTableError } from "./errors.ts";
import { tableDeclared } from "./generated/table-fields.ts";
import { arnOf, statusFromDescription, tagMapOf, userTags } from "./mapping.ts";
import { type TableFields, type TableSpec, tableKind, tableSpecSchema, tableStatusSchema } from "./schema.ts";
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

/** The spec fields of what AWS has. */
const fieldsOf = (observed: ObservedTable): TableFields =>
  withoutKeys(observed, ["tableARN", "description", "region"]);

export const tableService: ServiceModule<TableSpec, ObservedTable, TableClient> = {
  kind: tableKind,
  parseSpec: parseSpecWith(tableSpecSchema),
  parseStatus: parseStatusWith(tableStatusSchema),
  client: regionalClient(dynamodbClientFactory, "dynamodb"),
  ...fromDeclared(tableDeclared),
  read: async (client, spec, ctx) => observationOf(await readTable(client, spec, ctx), "table"),
  tagsOf: (observed) => tagMapOf(observed.tags),
  async create(client, spec, _region, ownerTags, ctx) {
    const r = await createTable(client, spec, ownerTags, ctx);
    return r.created
      ? { created: true, status: r.tableStatus === undefined ? {} : { tableStatus: r.tableStatus } }
      : { created: false };
  },
  update: async (client, desired, observed, ownerTags, ctx) =>
    pathsOf(await updateTable(client, desired, observed, ownerTags, ctx)),
  claim: (client, observed, ownerTags, ctx) => claimTable(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteTable(client, spec.tableName, ctx),
  ...specFieldComparison(fieldsOf, diff, lateInitialize),
  specFromObserved(observed, spec) {
    const { tags, ...fields } = fieldsOf(observed);
    // DynamoDB reports only the key attributes' definitions; keep the spec's others (indexes).
    const reported = new Set(fields.attributeDefinitions.map((a) => a.attributeName));
    const attributeDefinitions = [
      ...fields.attributeDefinitions,
      ...spec.attributeDefinitions.filter((a) => !reported.has(a.attributeName)),
    ];
    return adoptedSpec({ ...fields, attributeDefinitions }, "tags", userTags(tagMapOf(tags)), spec);
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
  ...errorReporting(isTableError, (err, spec: TableSpec) =>
    classifyError(err, { operation: "DescribeTable", table: spec.tableName }),
  ),
};
