// The DynamoDB Table module against the real AWS emulator (moto in server mode): create with
// user tags and ownership tags in one call, read back (settings, tags, TTL), update billing,
// throughput, TTL, indexes and tags with ownership tags kept, claim, delete, an existing name
// answered `created: false`, deletion protection reported with its fix, and isolation between
// accounts (moto maps sts:AssumeRole keys for 222222222222 to that account).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTagsOfResourceCommand,
  UpdateTableCommand,
} from "@aws-sdk/client-dynamodb";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { diff } from "../../src/services/dynamodb/diff.ts";
import type { TableError } from "../../src/services/dynamodb/errors.ts";
import { tableService } from "../../src/services/dynamodb/module.ts";
import { type TableFields, tableSpecSchema } from "../../src/services/dynamodb/schema.ts";
import {
  claimTable,
  createTable,
  deleteTable,
  readTable,
  type TableClient,
  updateTable,
} from "../../src/services/dynamodb/table.ts";
import { noSecrets } from "../../src/services/service-module.ts";

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const otherAccount = "222222222222";
const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "crossrole.dev/owner": "Table/shop/orders",
  "crossrole.dev/owner-uid": "uid-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

let dir: string;
let emulator: Emulator;
let mine: TableClient;
let other: TableClient;
let myAccount: string;

function dynamodb(credentials: AwsCredentialIdentity): DynamoDBClient {
  return new DynamoDBClient({ region, endpoint: emulator.endpoint, credentials });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-dynamodb-table-"));
  emulator = await startEmulator({ dir });
  const sts = new STSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
  myAccount = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? "";
  mine = { dynamodb: dynamodb(defaultCredentials), region };
  const assumed = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${otherAccount}:role/x`,
      RoleSessionName: "ddb-table-test",
    }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
  other = {
    dynamodb: dynamodb({
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    }),
    region,
  };
  sts.destroy();
});

after(async () => {
  for (const c of [mine, other]) c?.dynamodb.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
function uniqueName(label: string): string {
  counter += 1;
  return `crossrole-${label}-${process.pid}-${counter}`;
}

function spec(name: string, extra: Record<string, unknown> = {}): TableFields {
  return tableSpecSchema.parse({
    tableName: name,
    attributeDefinitions: [
      { attributeName: "id", attributeType: "S" },
      { attributeName: "status", attributeType: "S" },
    ],
    keySchema: [{ attributeName: "id", keyType: "HASH" }],
    provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
    ...extra,
  });
}

async function tagsIn(client: TableClient, name: string): Promise<Record<string, string>> {
  const d = await client.dynamodb.send(new DescribeTableCommand({ TableName: name }));
  const out = await client.dynamodb.send(new ListTagsOfResourceCommand({ ResourceArn: d.Table?.TableArn }));
  return Object.fromEntries((out.Tags ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
}

describe("DynamoDB Table module against the emulator", () => {
  test("creates with user tags and ownership tags in one call, and reads it all back", async () => {
    const name = uniqueName("full");
    const desired = spec(name, { tags: [{ key: "team", value: "shop" }], deletionProtectionEnabled: false });
    const created = await createTable(mine, desired, owner);
    assert.ok(created.created);
    assert.deepEqual(await tagsIn(mine, name), { team: "shop", ...owner });
    const r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.equal(r.table.tableARN, `arn:aws:dynamodb:${region}:${myAccount}:table/${name}`);
    assert.equal(tableService.observedRegion(r.table), region);
    assert.equal(r.table.billingMode, "PROVISIONED");
    assert.deepEqual(r.table.provisionedThroughput, { readCapacityUnits: 5, writeCapacityUnits: 5 });
    assert.deepEqual(tableService.tagsOf(r.table), { team: "shop", ...owner });
    assert.equal(tableService.statusFrom?.(r.table)["tableStatus"], "ACTIVE");
    assert.equal(tableService.busy?.(r.table), undefined);
    assert.deepEqual(diff(desired, r.table), []);
  });

  test("updates billing, throughput, TTL, indexes and tags, keeping the ownership tags", async () => {
    const name = uniqueName("update");
    await createTable(
      mine,
      spec(name, {
        tags: [
          { key: "team", value: "shop" },
          { key: "old", value: "x" },
        ],
      }),
      owner,
    );
    let r = await readTable(mine, { tableName: name });
    assert.ok(r.found);

    // throughput + TTL + tags
    const step1 = spec(name, {
      provisionedThroughput: { readCapacityUnits: 7, writeCapacityUnits: 3 },
      timeToLive: { attributeName: "expiresAt", enabled: true },
      tags: [{ key: "team", value: "payments" }],
    });
    const changed1 = await updateTable(mine, step1, r.table, owner);
    assert.deepEqual(
      changed1.map((d) => d.path),
      ["spec.provisionedThroughput", "spec.timeToLive", "spec.tags"],
    );
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(r.table.provisionedThroughput, { readCapacityUnits: 7, writeCapacityUnits: 3 });
    assert.deepEqual(r.table.timeToLive, { attributeName: "expiresAt", enabled: true });
    assert.deepEqual(await tagsIn(mine, name), { team: "payments", ...owner });
    assert.deepEqual(diff(step1, r.table), []);

    // switch to on-demand, add an index, enable a stream
    const step2 = tableSpecSchema.parse({
      ...step1,
      billingMode: "PAY_PER_REQUEST",
      provisionedThroughput: undefined,
      globalSecondaryIndexes: [
        {
          indexName: "by-status",
          keySchema: [{ attributeName: "status", keyType: "HASH" }],
          projection: { projectionType: "ALL" },
        },
      ],
      streamSpecification: { streamEnabled: true, streamViewType: "NEW_IMAGE" },
    });
    // moto finishes each change at once (ACTIVE), so one update call applies them all;
    // against AWS it stops at the first that leaves the table UPDATING and the next reconcile continues.
    for (let i = 0; i < 3 && diff(step2, r.table).length > 0; i++) {
      await updateTable(mine, step2, r.table, owner);
      r = await readTable(mine, { tableName: name });
      assert.ok(r.found);
    }
    assert.deepEqual(diff(step2, r.table), []);
    assert.equal(r.table.billingMode, "PAY_PER_REQUEST");
    assert.deepEqual(
      r.table.globalSecondaryIndexes?.map((g) => g.indexName),
      ["by-status"],
    );
    assert.deepEqual(await tagsIn(mine, name), { team: "payments", ...owner });

    // TTL off, index removed
    const step3 = tableSpecSchema.parse({
      ...step2,
      timeToLive: undefined,
      globalSecondaryIndexes: undefined,
    });
    await updateTable(mine, step3, r.table, owner);
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(diff(step3, r.table), []);
    assert.equal(await deleteTable(mine, name), "deleted");
  });

  test("an out-of-band throughput change is drift, and update corrects it", async () => {
    const name = uniqueName("drift");
    const desired = spec(name);
    await createTable(mine, desired, owner);
    await mine.dynamodb.send(
      new UpdateTableCommand({
        TableName: name,
        ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
      }),
    );
    let r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(tableService.diff({ ...desired }, r.table), ["spec.provisionedThroughput"]);
    await tableService.update(mine, desired, r.table, owner, {}, noSecrets);
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(r.table.provisionedThroughput, { readCapacityUnits: 5, writeCapacityUnits: 5 });
  });

  test("an existing name is created: false; claim adds the ownership tags and keeps the others", async () => {
    const name = uniqueName("existing");
    await mine.dynamodb.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        BillingMode: "PAY_PER_REQUEST",
        Tags: [{ Key: "theirs", Value: "yes" }],
      }),
    );
    assert.deepEqual(await createTable(mine, spec(name), owner), { created: false });
    assert.deepEqual(await tagsIn(mine, name), { theirs: "yes" });
    const r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    await claimTable(mine, r.table, owner);
    assert.deepEqual(await tagsIn(mine, name), { theirs: "yes", ...owner });
  });

  test("another account sees nothing of it, and can make its own of the same name", async () => {
    const name = uniqueName("isolated");
    await createTable(mine, spec(name), owner);
    assert.deepEqual(await readTable(other, { tableName: name }), { found: false });
    assert.equal(await deleteTable(other, name), "not-found");
    const created = await createTable(other, spec(name), owner);
    assert.ok(created.created);
    const r = await readTable(other, { tableName: name });
    assert.ok(r.found);
    assert.equal(r.table.tableARN, `arn:aws:dynamodb:${region}:${otherAccount}:table/${name}`);
  });

  test("delete: protected tables are refused naming spec.deletionProtectionEnabled; gone is not-found", async () => {
    const name = uniqueName("protected");
    await createTable(mine, spec(name, { deletionProtectionEnabled: true }), owner);
    await assert.rejects(deleteTable(mine, name), (err: TableError) => {
      assert.equal(err.field, "spec.deletionProtectionEnabled");
      assert.match(err.message, /deletion protection is on/);
      return true;
    });
    let r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    await updateTable(mine, spec(name, { deletionProtectionEnabled: false }), r.table, owner);
    assert.equal(await deleteTable(mine, name), "deleted");
    r = await readTable(mine, { tableName: name });
    assert.equal(r.found, false);
    assert.equal(await deleteTable(mine, name), "not-found");
  });

  test("a value DynamoDB refuses is a terminal error naming the field", async () => {
    const name = uniqueName("invalid");
    const bad = { ...spec(name), keySchema: [{ attributeName: "missing", keyType: "HASH" as const }] };
    await assert.rejects(createTable(mine, bad, owner), (err: TableError) => {
      assert.ok(err.terminal, err.message);
      return true;
    });
  });
});
