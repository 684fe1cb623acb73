// DynamoDB Tables end to end with the real controller process: a Table in a namespace whose CARM
// owner-account-id maps to 111111111111 lands in that account (checked in the emulator with that
// account's own credentials), ACTIVE, with ARN and account in status; out-of-band throughput
// drift is corrected at the Table resync; a spec change is applied; deletion policy delete and
// retain; adoption of an untagged existing table; an invalid spec is ACK.Terminal naming the
// field; a keySchema change is rejected by the apiserver; and spec.identityRef to an
// AWSRoleIdentity places a table in a second account.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateTableCommand,
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  GetResourcePolicyCommand,
  ListTagsOfResourceCommand,
  type TableDescription,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
} from "@aws-sdk/client-dynamodb";
import { isReservedTagKey } from "../../src/api/reserved-tag-keys.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { KubeApiError } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  clientAs,
  condition,
  configMap,
  controllerAccount,
  deleteResourceAndWait,
  type E2E,
  eventsAbout,
  getResource,
  identity,
  namespace,
  patchResource,
  region,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const ownerAccount = "services.k8s.aws/owner-account-id";
const resyncSeconds = 3;
const centralRole = `arn:aws:iam::${Y}:role/central-it`;

let e2e: E2E;
let endpoint: string;

const keyed = {
  attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
  keySchema: [{ attributeName: "id", keyType: "HASH" }],
};

function table(
  ns: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
    kind: "Table",
    metadata: { name, namespace: ns, ...metadata },
    spec: { tableName: `${ns}-${name}`, ...keyed, billingMode: "PAY_PER_REQUEST", ...spec },
  } as KubeObject;
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  const mine = ["ddb-x", "ddb-adopt", "ddb-ref"];
  await e2e.apply([
    namespace("ack-system"),
    namespace("ddb-x", { [ownerAccount]: X }),
    namespace("ddb-adopt", { [ownerAccount]: X }),
    namespace("ddb-ref"),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/ddb-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: mine } }),
    identity("AWSRoleIdentity", "central-it", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: centralRole,
      allowedNamespaces: { list: ["ddb-ref"] },
    }),
  ]);
  await e2e.startController([`--reconcile-resource-resync-seconds=Table=${resyncSeconds}`]);
});
after(() => e2e?.stop());

/** A client acting as `account` itself (an inspector, or an out-of-band change). */
const dynamodbAs = (account: string) => clientAs(DynamoDBClient, endpoint, account);

const arnIn = (account: string, name: string) => `arn:aws:dynamodb:${region}:${account}:table/${name}`;

/** The table as `account` describes it; undefined when it has no such table. */
async function tableIn(account: string, name: string): Promise<TableDescription | undefined> {
  try {
    return (await (await dynamodbAs(account)).send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (err) {
    if ((err as { name?: string }).name === "ResourceNotFoundException") return undefined;
    throw err;
  }
}

async function tagsIn(
  account: string,
  name: string,
): Promise<{ user: Record<string, string>; ownerUid?: string }> {
  const t = await tableIn(account, name);
  assert.ok(t?.TableArn, `${name} in ${account}`);
  const out = await (await dynamodbAs(account)).send(
    new ListTagsOfResourceCommand({ ResourceArn: t.TableArn }),
  );
  const all = Object.fromEntries((out.Tags ?? []).map((x) => [x.Key ?? "", x.Value ?? ""]));
  const user = Object.fromEntries(Object.entries(all).filter(([k]) => !isReservedTagKey(k)));
  const ownerUid = all["services.k8s.aws/owner-uid"];
  return ownerUid === undefined ? { user } : { user, ownerUid };
}

const synced = (ns: string, name: string) =>
  waitForResourceCondition(e2e.kube, "Table", ns, name, "ACK.ResourceSynced", "True");

const patchSpec = (ns: string, name: string, spec: Record<string, unknown>) =>
  patchResource(e2e.kube, "Table", ns, name, { spec });

const deleteTableObject = (ns: string, name: string) => deleteResourceAndWait(e2e.kube, "Table", ns, name);

const provisioned = (r: number, w: number) => ({
  billingMode: "PROVISIONED",
  provisionedThroughput: { readCapacityUnits: r, writeCapacityUnits: w },
});

test("CARM: a Table in a namespace mapped to 111111111111 lands there, tagged, ACTIVE, with ARN and account in status", async () => {
  await e2e.apply([
    table("ddb-x", "orders", { ...provisioned(5, 5), tags: [{ key: "team", value: "shop" }] }),
  ]);
  const t = await synced("ddb-x", "orders");
  const name = "ddb-x-orders";
  const status = t.status as Record<string, unknown> | undefined;
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(t.status?.ackResourceMetadata?.region, region);
  assert.equal(t.status?.ackResourceMetadata?.arn, arnIn(X, name));
  assert.equal(status?.["tableStatus"], "ACTIVE");
  assert.ok(status?.["creationDateTime"]);
  assert.equal(condition(t, "Ready")?.status, "True");
  assert.ok(t.metadata.finalizers?.includes("finalizers.dynamodb.services.k8s.aws/Table"));

  const described = await tableIn(X, name);
  assert.equal(described?.TableArn, arnIn(X, name));
  assert.equal(described?.ProvisionedThroughput?.ReadCapacityUnits, 5);
  assert.deepEqual(await tagsIn(X, name), { user: { team: "shop" }, ownerUid: t.metadata.uid });
  assert.equal(await tableIn(controllerAccount, name), undefined, "nothing in the controller's account");
  assert.equal(await tableIn(Y, name), undefined);
  const settled = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "Table", "ddb-x", "orders");
      return r?.spec?.["deletionProtectionEnabled"] !== undefined ? r : undefined;
    },
    { what: "spec.deletionProtectionEnabled late-initialised", timeoutMs: 20_000 },
  );
  assert.equal(settled.spec?.["deletionProtectionEnabled"], false);
});

test("drift: provisioned throughput changed out of band is corrected at the Table resync", async () => {
  const name = "ddb-x-orders";
  await synced("ddb-x", "orders");
  await (await dynamodbAs(X)).send(
    new UpdateTableCommand({
      TableName: name,
      ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    }),
  );
  assert.equal((await tableIn(X, name))?.ProvisionedThroughput?.ReadCapacityUnits, 1);
  await waitFor(async () => (await tableIn(X, name))?.ProvisionedThroughput?.ReadCapacityUnits === 5, {
    what: "ReadCapacityUnits back to 5",
    timeoutMs: resyncSeconds * 1000 + 15_000,
  });
});

test("a spec change is applied: throughput, TTL and tags, ownership tags kept", async () => {
  const name = "ddb-x-orders";
  await patchSpec("ddb-x", "orders", {
    provisionedThroughput: { readCapacityUnits: 8, writeCapacityUnits: 4 },
    timeToLive: { attributeName: "expiresAt", enabled: true },
    tags: [
      { key: "owner", value: "platform" },
      { key: "tier", value: "gold" },
    ],
  });
  await waitFor(
    async () => {
      const t = await tableIn(X, name);
      return (
        t?.ProvisionedThroughput?.ReadCapacityUnits === 8 && t.ProvisionedThroughput.WriteCapacityUnits === 4
      );
    },
    { what: "throughput 8/4", timeoutMs: 20_000 },
  );
  await waitFor(
    async () => {
      const out = await (await dynamodbAs(X)).send(new DescribeTimeToLiveCommand({ TableName: name }));
      return out.TimeToLiveDescription?.TimeToLiveStatus === "ENABLED";
    },
    { what: "TTL enabled", timeoutMs: 20_000 },
  );
  const t = await getResource(e2e.kube, "Table", "ddb-x", "orders");
  await waitFor(async () => ((await tagsIn(X, name)).user["owner"] === "platform" ? true : undefined), {
    what: "tags applied",
    timeoutMs: 20_000,
  });
  assert.deepEqual(await tagsIn(X, name), {
    user: { owner: "platform", tier: "gold" },
    ownerUid: t?.metadata.uid,
  });
});

test("an immutable change is rejected by the apiserver: spec.keySchema and spec.tableName", async () => {
  for (const [spec, message] of [
    [
      {
        attributeDefinitions: [
          { attributeName: "id", attributeType: "S" },
          { attributeName: "sk", attributeType: "S" },
        ],
        keySchema: [
          { attributeName: "id", keyType: "HASH" },
          { attributeName: "sk", keyType: "RANGE" },
        ],
      },
      /keySchema is immutable/,
    ],
    [{ tableName: "ddb-x-renamed" }, /tableName is immutable/],
  ] as const) {
    await assert.rejects(
      () => patchSpec("ddb-x", "orders", spec),
      (err: unknown) => {
        assert.ok(err instanceof KubeApiError, String(err));
        assert.equal(err.status, 422);
        assert.match(err.message, message);
        return true;
      },
    );
  }
});

test("an invalid spec the apiserver cannot judge is ACK.Terminal naming the field; nothing in AWS", async () => {
  const gsi = (n: number) => ({
    indexName: `by-id-${n}`,
    keySchema: [{ attributeName: "id", keyType: "HASH" }],
    projection: {
      projectionType: "INCLUDE",
      nonKeyAttributes: Array.from({ length: 60 }, (_, i) => `a${n}x${i}`),
    },
  });
  await e2e.apply([table("ddb-x", "bad", { globalSecondaryIndexes: [gsi(1), gsi(2)] })]);
  const t = await waitForResourceCondition(e2e.kube, "Table", "ddb-x", "bad", "ACK.Terminal", "True");
  assert.match(condition(t, "ACK.Terminal")?.message ?? "", /spec\.globalSecondaryIndexes: .*at most 100/);
  assert.equal(await tableIn(X, "ddb-x-bad"), undefined);
  await patchSpec("ddb-x", "bad", { globalSecondaryIndexes: null });
  await synced("ddb-x", "bad");
  assert.ok(await tableIn(X, "ddb-x-bad"));
  await deleteTableObject("ddb-x", "bad");
});

test("ACK's table_local_secondary_indexes.yaml applies unchanged: the index is made with the table, status filled", async () => {
  // ACK dynamodb-controller v1.9.2 test/e2e/resources/table_local_secondary_indexes.yaml, with
  // $TABLE_NAME filled in.
  const name = "ddb-x-lsi";
  await e2e.apply([
    {
      apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
      kind: "Table",
      metadata: { name, namespace: "ddb-x" },
      spec: {
        tableName: name,
        tableClass: "STANDARD",
        attributeDefinitions: [
          { attributeName: "ForumName", attributeType: "S" },
          { attributeName: "LastPostDateTime", attributeType: "S" },
          { attributeName: "Subject", attributeType: "S" },
        ],
        keySchema: [
          { attributeName: "ForumName", keyType: "HASH" },
          { attributeName: "Subject", keyType: "RANGE" },
        ],
        localSecondaryIndexes: [
          {
            indexName: "LastPostIndex",
            keySchema: [
              { attributeName: "ForumName", keyType: "HASH" },
              { attributeName: "LastPostDateTime", keyType: "RANGE" },
            ],
            projection: { projectionType: "KEYS_ONLY" },
          },
        ],
        provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
        streamSpecification: { streamEnabled: true, streamViewType: "NEW_AND_OLD_IMAGES" },
      },
    } as KubeObject,
  ]);
  const t = await synced("ddb-x", name);
  const described = await tableIn(X, name);
  assert.deepEqual(
    described?.LocalSecondaryIndexes?.map((l) => [l.IndexName, l.Projection?.ProjectionType]),
    [["LastPostIndex", "KEYS_ONLY"]],
  );
  const status = t.status as Record<string, unknown> | undefined;
  assert.equal(status?.["latestStreamARN"], described?.LatestStreamArn);
  assert.equal(status?.["tableStatus"], "ACTIVE");
  await deleteTableObject("ddb-x", name);
});

test("continuousBackups and resourcePolicy reach DynamoDB after the create, and drift is corrected at the resync", async () => {
  const name = "ddb-x-backed-up";
  const arn = arnIn(X, name);
  const policy = JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${X}:root` },
        Action: "dynamodb:GetItem",
        Resource: arn,
      },
    ],
  });
  await e2e.apply([
    table("ddb-x", "backed-up", {
      continuousBackups: { pointInTimeRecoveryEnabled: true },
      resourcePolicy: policy,
    }),
  ]);
  await synced("ddb-x", "backed-up");
  const client = await dynamodbAs(X);
  const pitr = async () =>
    (await client.send(new DescribeContinuousBackupsCommand({ TableName: name })))
      .ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus;
  await waitFor(async () => (await pitr()) === "ENABLED", {
    what: "point in time recovery on",
    timeoutMs: 20_000,
  });
  await waitFor(
    async () => {
      const stored = await client
        .send(new GetResourcePolicyCommand({ ResourceArn: arn }))
        .catch(() => undefined);
      return stored?.Policy !== undefined && JSON.stringify(JSON.parse(stored.Policy)) === policy;
    },
    { what: "the resource policy on the table", timeoutMs: 20_000 },
  );
  await client.send(
    new UpdateContinuousBackupsCommand({
      TableName: name,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
    }),
  );
  await waitFor(async () => (await pitr()) === "ENABLED", {
    what: "point in time recovery back on",
    timeoutMs: resyncSeconds * 1000 + 15_000,
  });
  await deleteTableObject("ddb-x", "backed-up");
});

test("an sseSpecification.kmsMasterKeyRef to a Key that does not exist waits for it, naming it; nothing in AWS (test/e2e/kms-key.test.ts fills one)", async () => {
  await e2e.apply([
    table("ddb-x", "kms-ref", {
      sseSpecification: { enabled: true, kmsMasterKeyRef: { from: { name: "orders-key" } } },
    }),
  ]);
  const t = await waitForResourceCondition(
    e2e.kube,
    "Table",
    "ddb-x",
    "kms-ref",
    "ACK.Recoverable",
    "True",
    "ReferenceNotFound",
  );
  assert.match(
    condition(t, "ACK.Recoverable")?.message ?? "",
    /spec\.sseSpecification\.kmsMasterKeyRef names Key ddb-x\/orders-key, which does not exist yet: waiting for it/,
  );
  assert.equal(await tableIn(X, "ddb-x-kms-ref"), undefined);
  await deleteTableObject("ddb-x", "kms-ref");
});

test("deletion policy delete (the default) deletes the table in its account", async () => {
  await e2e.apply([table("ddb-x", "doomed")]);
  await synced("ddb-x", "doomed");
  assert.ok(await tableIn(X, "ddb-x-doomed"));
  await deleteTableObject("ddb-x", "doomed");
  assert.equal(await tableIn(X, "ddb-x-doomed"), undefined);
  await waitForEvent(e2e.kube, "ddb-x", "Table", "doomed", "Deleted", new RegExp(`in account ${X}`));
});

test("deletion policy retain leaves the table in AWS", async () => {
  await e2e.apply([
    table("ddb-x", "kept", {}, { annotations: { "services.k8s.aws/deletion-policy": "retain" } }),
  ]);
  await synced("ddb-x", "kept");
  await deleteTableObject("ddb-x", "kept");
  assert.ok(await tableIn(X, "ddb-x-kept"), "ddb-x-kept still in account X");
  await waitForEvent(e2e.kube, "ddb-x", "Table", "kept", "Retained", /deletion policy is retain/);
});

test("adoption: an untagged existing table is adopted with adoption-policy adopt — spec from AWS, tagged as ours, not recreated", async () => {
  const name = "ddb-adopt-legacy";
  await (await dynamodbAs(X)).send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
      BillingMode: "PROVISIONED",
      ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 },
      Tags: [{ Key: "legacy", Value: "yes" }],
    }),
  );
  await e2e.apply([
    table("ddb-adopt", "legacy", provisioned(1, 1), {
      annotations: { "services.k8s.aws/adoption-policy": "adopt" },
    }),
  ]);
  const t = await synced("ddb-adopt", "legacy");
  assert.equal(t.status?.ackResourceMetadata?.arn, arnIn(X, name));
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, X);
  await waitForEvent(e2e.kube, "ddb-adopt", "Table", "legacy", "Adopted", new RegExp(`${name}.*${X}`));
  const adopted = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "Table", "ddb-adopt", "legacy");
      const p = r?.spec?.["provisionedThroughput"] as { readCapacityUnits?: number } | undefined;
      return p?.readCapacityUnits === 7 ? r : undefined;
    },
    { what: "spec.provisionedThroughput taken from AWS (strict adopt)", timeoutMs: 20_000 },
  );
  assert.deepEqual(adopted.spec?.["tags"], [{ key: "legacy", value: "yes" }]);
  assert.equal(
    (await tableIn(X, name))?.ProvisionedThroughput?.ReadCapacityUnits,
    7,
    "AWS is not changed by adopting",
  );
  assert.deepEqual(await tagsIn(X, name), { user: { legacy: "yes" }, ownerUid: adopted.metadata.uid });
  const reasons = (await eventsAbout(e2e.kube, "ddb-adopt", "Table", "legacy")).map((e) => e.reason);
  assert.ok(!reasons.includes("Created"), reasons.join(","));
});

test("spec.identityRef to an AWSRoleIdentity places the table in that role's account", async () => {
  await e2e.apply([
    table("ddb-ref", "billing", { identityRef: { kind: "AWSRoleIdentity", name: "central-it" } }),
  ]);
  const t = await synced("ddb-ref", "billing");
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, Y);
  assert.equal(t.status?.ackResourceMetadata?.arn, arnIn(Y, "ddb-ref-billing"));
  assert.equal(t.status?.ackResourceMetadata?.identity?.["source"], "identityRef");
  assert.equal(t.status?.ackResourceMetadata?.identity?.["roleARN"], centralRole);
  assert.equal((t.status as Record<string, unknown> | undefined)?.["tableStatus"], "ACTIVE");
  assert.ok(await tableIn(Y, "ddb-ref-billing"));
  assert.equal(await tableIn(X, "ddb-ref-billing"), undefined);
  assert.equal(await tableIn(controllerAccount, "ddb-ref-billing"), undefined);
});
