// The Table kind (the generic runtime serving table-declaration.ts) against the real AWS emulator (moto in server mode): create with
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
  CreateBackupCommand,
  CreateTableCommand,
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetResourcePolicyCommand,
  ListTagsOfResourceCommand,
  PutResourcePolicyCommand,
  RestoreTableFromBackupCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
} from "@aws-sdk/client-dynamodb";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { type TableFields, tableSpecSchema } from "../../src/services/dynamodb/schema.ts";
import { tableService } from "../../src/services/dynamodb/table.ts";
import type { ServiceError } from "../../src/services/service-error.ts";
import { noSecrets } from "../../src/services/service-module.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { flatObserved, observedOf } from "../support/flat-observed.ts";

// The module's calls, named as the operations this test was first written against (the functions
// of the hand-written module the generic runtime replaced), so that its assertions stay as they were.

type TableError = ServiceError<string> & { readonly field?: string };

/** The module's client (`sdk`), and the same client as `dynamodb` for the test's own calls. */
interface TableClient {
  readonly dynamodb: DynamoDBClient;
  readonly sdk: DynamoDBClient;
  readonly region: string;
}
const tableClient = (dynamodb: DynamoDBClient): TableClient => ({ dynamodb, sdk: dynamodb, region });

/** What the module observed, with its spec fields and ARN also at the top (tags: every tag, as a map). */
type ObservedTable = DeclaredObserved & Omit<TableFields, "tags"> & { tableARN?: string };
const flat = (o: DeclaredObserved) => flatObserved<ObservedTable>(o, { tableARN: o.arn || undefined });
const unflat = (o: ObservedTable) => observedOf(o, ["tableARN"]);

async function createTable(c: TableClient, spec: TableFields, ownerTags: Record<string, string> = {}) {
  const r = await tableService.create(c as never, spec, region, ownerTags, {}, noSecrets);
  return r.created
    ? { created: true as const, tableStatus: r.status["tableStatus"] }
    : { created: false as const };
}
async function readTable(c: TableClient, spec: Partial<TableFields> & Pick<TableFields, "tableName">) {
  const r = await tableService.read(c as never, spec as TableFields, {});
  return r.found ? { found: true as const, table: flat(r.observed) } : { found: false as const };
}
const diff = (desired: TableFields, observed: ObservedTable) =>
  tableService.diff(desired, unflat(observed)).map((path) => ({ path }));
async function updateTable(
  c: TableClient,
  desired: TableFields,
  observed: ObservedTable,
  ownerTags: Record<string, string>,
) {
  return (await tableService.update(c as never, desired, unflat(observed), ownerTags, {}, noSecrets)).map(
    (path) => ({ path }),
  );
}
const claimTable = (c: TableClient, observed: ObservedTable, ownerTags: Record<string, string>) =>
  tableService.claim(c as never, unflat(observed), ownerTags, {});
const deleteTable = (c: TableClient, name: string) =>
  tableService.delete(c as never, { tableName: name }, {}, {});

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const otherAccount = "222222222222";
const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Table/shop/orders",
  "services.k8s.aws/owner-uid": "uid-1",
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
  mine = tableClient(dynamodb(defaultCredentials));
  const assumed = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${otherAccount}:role/x`,
      RoleSessionName: "ddb-table-test",
    }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
  other = tableClient(
    dynamodb({
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    }),
  );
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

  // ---- the field groups added for ACK parity ----

  const forum = (name: string, extra: Record<string, unknown> = {}) =>
    tableSpecSchema.parse({
      tableName: name,
      attributeDefinitions: [
        { attributeName: "forum", attributeType: "S" },
        { attributeName: "subject", attributeType: "S" },
        { attributeName: "lastPost", attributeType: "S" },
      ],
      keySchema: [
        { attributeName: "forum", keyType: "HASH" },
        { attributeName: "subject", keyType: "RANGE" },
      ],
      billingMode: "PAY_PER_REQUEST",
      ...extra,
    });

  test("localSecondaryIndexes (ACK's table_local_secondary_indexes.yaml): created with the table, read back, no drift", async () => {
    const name = uniqueName("lsi");
    const desired = forum(name, {
      localSecondaryIndexes: [
        {
          indexName: "LastPostIndex",
          keySchema: [
            { attributeName: "forum", keyType: "HASH" },
            { attributeName: "lastPost", keyType: "RANGE" },
          ],
          projection: { projectionType: "KEYS_ONLY" },
        },
      ],
    });
    assert.ok((await createTable(mine, desired, owner)).created);
    const r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(r.table.localSecondaryIndexes, desired.localSecondaryIndexes);
    assert.deepEqual(diff(desired, r.table), []);
    const adopted = tableService.specFromObserved(r.table, desired);
    assert.deepEqual(adopted.localSecondaryIndexes, desired.localSecondaryIndexes);
    assert.equal(await deleteTable(mine, name), "deleted");
  });

  test("continuousBackups: set by the update after the create, read back, drift corrected, off when removed", async () => {
    const name = uniqueName("pitr");
    const desired = forum(name, {
      continuousBackups: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 },
    });
    await createTable(mine, desired, owner);
    let r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(
      diff(desired, r.table).map((d) => d.path),
      ["spec.continuousBackups"],
    );
    await updateTable(mine, desired, r.table, owner);
    const pitr = async () =>
      (await mine.dynamodb.send(new DescribeContinuousBackupsCommand({ TableName: name })))
        .ContinuousBackupsDescription?.PointInTimeRecoveryDescription;
    assert.equal((await pitr())?.PointInTimeRecoveryStatus, "ENABLED");
    assert.equal((await pitr())?.RecoveryPeriodInDays, 7);
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(diff(desired, r.table), []);

    // Turned off out of band: drift, and the update turns it on again.
    await mine.dynamodb.send(
      new UpdateContinuousBackupsCommand({
        TableName: name,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
      }),
    );
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(tableService.diff(desired, r.table), ["spec.continuousBackups"]);
    await updateTable(mine, desired, r.table, owner);
    assert.equal((await pitr())?.PointInTimeRecoveryStatus, "ENABLED");

    // Removed from the spec: point in time recovery is turned off.
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    await updateTable(mine, forum(name), r.table, owner);
    assert.equal((await pitr())?.PointInTimeRecoveryStatus, "DISABLED");
    assert.equal(await deleteTable(mine, name), "deleted");
  });

  test("resourcePolicy: put when the create left none, compared as JSON, corrected, deleted when removed", async () => {
    const name = uniqueName("policy");
    const arn = `arn:aws:dynamodb:${region}:${myAccount}:table/${name}`;
    const statement = {
      Effect: "Allow",
      Principal: { AWS: `arn:aws:iam::${myAccount}:root` },
      Action: "dynamodb:GetItem",
      Resource: arn,
    };
    const policy = JSON.stringify({ Version: "2012-10-17", Statement: [statement] });
    const desired = forum(name, { resourcePolicy: policy });
    await createTable(mine, desired, owner);
    let r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    // moto does not apply CreateTable's ResourcePolicy (DynamoDB does): the update that follows puts it.
    assert.equal(r.table.resourcePolicy, undefined, "moto ignores CreateTable's ResourcePolicy");
    await updateTable(mine, desired, r.table, owner);
    const stored = await mine.dynamodb.send(new GetResourcePolicyCommand({ ResourceArn: arn }));
    assert.deepEqual(JSON.parse(stored.Policy ?? "{}"), JSON.parse(policy));
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(diff(desired, r.table), []);
    // The same document spelled differently is no drift; another one is, and is put back.
    const respelled = forum(name, {
      resourcePolicy: JSON.stringify({ Statement: [statement], Version: "2012-10-17" }, null, 2),
    });
    assert.deepEqual(diff(respelled, r.table), []);
    await mine.dynamodb.send(
      new PutResourcePolicyCommand({
        ResourceArn: arn,
        Policy: JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ ...statement, Action: "dynamodb:*" }],
        }),
      }),
    );
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(tableService.diff(desired, r.table), ["spec.resourcePolicy"]);
    await updateTable(mine, desired, r.table, owner);
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.deepEqual(diff(desired, r.table), []);
    // Removed from the spec: the policy is deleted.
    await updateTable(mine, forum(name), r.table, owner);
    r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    assert.equal(r.table.resourcePolicy, undefined);
    assert.equal(await deleteTable(mine, name), "deleted");
  });

  test("status.restoreSummary of a table restored from a backup, and the generated status fields", async () => {
    const name = uniqueName("restored");
    const source = uniqueName("source");
    await createTable(mine, forum(source), owner);
    const backup = await mine.dynamodb.send(new CreateBackupCommand({ TableName: source, BackupName: "b" }));
    await mine.dynamodb.send(
      new RestoreTableFromBackupCommand({
        TargetTableName: name,
        BackupArn: backup.BackupDetails?.BackupArn,
      }),
    );
    const r = await readTable(mine, { tableName: name });
    assert.ok(r.found);
    const status = tableService.statusFrom?.(r.table) ?? {};
    const restore = status["restoreSummary"] as Record<string, unknown> | undefined;
    assert.equal(restore?.["sourceBackupARN"], backup.BackupDetails?.BackupArn);
    assert.equal(restore?.["restoreInProgress"], false);
    assert.match(String(restore?.["restoreDateTime"]), /^\d{4}-\d\d-\d\dT/);
    assert.equal(status["tableStatus"], "ACTIVE");
    assert.ok(tableService.parseStatus({ ...status }).ok, "the status schema records it");
  });

  test("onDemandThroughput, contributorInsights and tableReplicas reach DynamoDB as it takes them (the emulator does not implement them)", async () => {
    // moto ignores OnDemandThroughput and ReplicaUpdates, reports neither back, and has no
    // contributor insights calls at all: what crossrole sends is checked on the wire.
    let proxy: AwsProxy | undefined;
    try {
      proxy = await startAwsProxy(emulator.endpoint);
      const viaProxy = tableClient(
        new DynamoDBClient({ region, endpoint: proxy.endpoint, credentials: defaultCredentials }),
      );
      const name = uniqueName("wire");
      const desired = forum(name, {
        onDemandThroughput: { maxReadRequestUnits: 100, maxWriteRequestUnits: 100 },
        globalSecondaryIndexes: [
          {
            indexName: "gsi-one",
            keySchema: [{ attributeName: "lastPost", keyType: "HASH" }],
            projection: { projectionType: "ALL" },
            onDemandThroughput: { maxReadRequestUnits: 50, maxWriteRequestUnits: 50 },
          },
        ],
        streamSpecification: { streamEnabled: true, streamViewType: "NEW_AND_OLD_IMAGES" },
        tableReplicas: [{ regionName: "us-west-2" }],
      });
      assert.ok((await createTable(viaProxy, desired, owner)).created);
      const create = JSON.parse(proxy.calls("CreateTable")[0]?.body ?? "{}");
      assert.deepEqual(create.OnDemandThroughput, { MaxReadRequestUnits: 100, MaxWriteRequestUnits: 100 });
      assert.deepEqual(create.GlobalSecondaryIndexes[0].OnDemandThroughput, {
        MaxReadRequestUnits: 50,
        MaxWriteRequestUnits: 50,
      });
      assert.equal(create.ReplicaUpdates, undefined);

      // The update after the create: the replica (and the maxima moto did not keep).
      let r = await readTable(viaProxy, { tableName: name });
      assert.ok(r.found);
      assert.equal(r.table.onDemandThroughput, undefined, "moto does not report OnDemandThroughput");
      proxy.clearRecording();
      await updateTable(viaProxy, desired, r.table, owner);
      const updates = proxy.calls("UpdateTable").map((c) => JSON.parse(c.body));
      assert.deepEqual(updates, [
        { TableName: name, OnDemandThroughput: { MaxReadRequestUnits: 100, MaxWriteRequestUnits: 100 } },
        {
          TableName: name,
          GlobalSecondaryIndexUpdates: [
            {
              Update: {
                IndexName: "gsi-one",
                OnDemandThroughput: { MaxReadRequestUnits: 50, MaxWriteRequestUnits: 50 },
              },
            },
          ],
        },
        { TableName: name, ReplicaUpdates: [{ Create: { RegionName: "us-west-2" } }] },
      ]);

      // Contributor insights: read only while the spec manages it. moto answers 500 to both
      // calls, so the read fails (Recoverable) — what was asked for is what DynamoDB takes.
      proxy.clearRecording();
      const insights = { ...desired, contributorInsights: "ENABLED" as const };
      await assert.rejects(readTable(viaProxy, insights), (err: TableError) => {
        assert.equal(err.field, "spec.contributorInsights");
        assert.equal(err.terminal, false);
        return true;
      });
      assert.deepEqual(JSON.parse(proxy.calls("DescribeContributorInsights")[0]?.body ?? "{}"), {
        TableName: name,
      });
      await assert.rejects(
        updateTable(viaProxy, insights, { ...r.table, contributorInsights: "DISABLED" }, owner),
      );
      assert.deepEqual(JSON.parse(proxy.calls("UpdateContributorInsights")[0]?.body ?? "{}"), {
        TableName: name,
        ContributorInsightsAction: "ENABLE",
      });

      // Removed from the spec: the maxima go back to -1 (none), the replica is deleted.
      proxy.clearRecording();
      r = await readTable(viaProxy, { tableName: name });
      assert.ok(r.found);
      const observed = {
        ...r.table,
        onDemandThroughput: { maxReadRequestUnits: 100, maxWriteRequestUnits: 100 },
        tableReplicas: [{ regionName: "us-west-2" }],
      };
      await updateTable(
        viaProxy,
        { ...desired, onDemandThroughput: undefined, tableReplicas: undefined },
        observed,
        owner,
      );
      assert.deepEqual(
        proxy.calls("UpdateTable").map((c) => JSON.parse(c.body)),
        [
          { TableName: name, OnDemandThroughput: { MaxReadRequestUnits: -1, MaxWriteRequestUnits: -1 } },
          {
            TableName: name,
            GlobalSecondaryIndexUpdates: [
              {
                Update: {
                  IndexName: "gsi-one",
                  OnDemandThroughput: { MaxReadRequestUnits: 50, MaxWriteRequestUnits: 50 },
                },
              },
            ],
          },
          { TableName: name, ReplicaUpdates: [{ Delete: { RegionName: "us-west-2" } }] },
        ],
      );
      viaProxy.dynamodb.destroy();
    } finally {
      await proxy?.close();
    }
  });
});
