// Long-running AWS states with the real controller process (issue: a table CREATING, an instance
// creating or modifying keeps ACK.ResourceSynced=False with AWS's status in the message, is
// looked at again later, and never holds a worker). The emulator answers every create at once,
// so a proxy between the controller and the emulator rewrites the state AWS reports: the object
// really exists; only what DescribeTable / DescribeDBInstances say about it is held back.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor } from "../../src/local-stack/wait.ts";
import { userAgent } from "../../src/version.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import {
  condition,
  configMap,
  type E2E,
  getResource,
  namespace,
  patchResource,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "slow";
let e2e: E2E;
let proxy: AwsProxy;

/** DynamoDB (JSON): every table and index status reads `state`. */
const tableStatus =
  (state: string) =>
  (body: string): string =>
    body.replace(/"(TableStatus|IndexStatus)":\s*"ACTIVE"/g, `"$1":"${state}"`);
/** RDS (XML): the instance status reads `state`. */
const instanceStatus =
  (state: string) =>
  (body: string): string =>
    body.replace(
      /<DBInstanceStatus>available<\/DBInstanceStatus>/g,
      `<DBInstanceStatus>${state}</DBInstanceStatus>`,
    );

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": "111111111111" }),
    configMap("ack-role-account-map", { "111111111111": "arn:aws:iam::111111111111:role/slow" }),
    ...namespaceObjectsFor(["DBInstance"], ns),
  ]);
  // One worker per kind: a busy resource that held it would stall every other one.
  await e2e.startController(
    [
      "--reconcile-resource-max-concurrent-syncs=Table=1",
      "--reconcile-resource-max-concurrent-syncs=DBInstance=1",
    ],
    { awsEndpoint: proxy.endpoint },
  );
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

test("a table CREATING is Synced=False with DynamoDB's status, nothing is written to it, and it never holds the worker", async () => {
  const holdBack = proxy.addFault({
    name: "creating",
    match: (r) => r.action === "DescribeTable" && r.body.includes('"slow-creating"'),
    respond: { rewrite: tableStatus("CREATING") },
  });
  await e2e.apply([minimalResource("Table", ns, "creating", "slow-creating")]);
  const busy = await waitForResourceCondition(
    e2e.kube,
    "Table",
    ns,
    "creating",
    "ACK.ResourceSynced",
    "False",
    "TableStatus",
  );
  assert.match(
    condition(busy, "ACK.ResourceSynced")?.message ?? "",
    /table slow-creating is CREATING in AWS/,
  );
  assert.equal(busy.status?.["tableStatus"], "CREATING");
  assert.equal(
    busy.status?.ackResourceMetadata?.ownerAccountID,
    "111111111111",
    "where it is, recorded already",
  );
  assert.equal(condition(busy, "ACK.Terminal"), undefined);

  // With the only Table worker free, another table is created and Synced meanwhile.
  await e2e.apply([minimalResource("Table", ns, "other", "slow-other")]);
  await waitForResourceCondition(e2e.kube, "Table", ns, "other", "ACK.ResourceSynced", "True");
  assert.equal(
    (await waitForResourceCondition(e2e.kube, "Table", ns, "creating", "ACK.ResourceSynced", "False"))
      .status?.["tableStatus"],
    "CREATING",
  );
  // Every AWS call says who made it (CloudTrail's userAgent).
  assert.ok(
    proxy.requests.every((r) => String(r.headers["user-agent"] ?? "").includes(userAgent)),
    `every AWS call carries ${userAgent}`,
  );
  const writes = proxy.requests.filter(
    (r) =>
      r.body.includes('"slow-creating"') &&
      /^(UpdateTable|TagResource|UntagResource|UpdateTimeToLive)$/.test(r.action ?? ""),
  );
  assert.deepEqual(writes, [], "nothing is written to a table DynamoDB is still creating");

  // DynamoDB finishes: the next look (5 s later) finds it ACTIVE and Synced.
  holdBack();
  const synced = await waitForResourceCondition(
    e2e.kube,
    "Table",
    ns,
    "creating",
    "ACK.ResourceSynced",
    "True",
    undefined,
    15_000,
  );
  assert.equal(synced.status?.["tableStatus"], "ACTIVE");
});

test("an update that leaves the table UPDATING is Synced=False until DynamoDB is done", async () => {
  await waitForResourceCondition(e2e.kube, "Table", ns, "other", "ACK.ResourceSynced", "True");
  const updatedAt = proxy.requests.length;
  const holdBack = proxy.addFault({
    name: "updating",
    // Only once the controller has asked for the change: from then on DynamoDB says UPDATING.
    match: (r) =>
      r.action === "DescribeTable" &&
      r.body.includes('"slow-other"') &&
      proxy.requests.slice(updatedAt).some((u) => u.action === "UpdateTable"),
    respond: { rewrite: tableStatus("UPDATING") },
  });
  await patchResource(e2e.kube, "Table", ns, "other", {
    spec: {
      billingMode: "PROVISIONED",
      provisionedThroughput: { readCapacityUnits: 2, writeCapacityUnits: 2 },
    },
  });
  const busy = await waitForResourceCondition(
    e2e.kube,
    "Table",
    ns,
    "other",
    "ACK.ResourceSynced",
    "False",
    "TableStatus",
  );
  assert.match(condition(busy, "ACK.ResourceSynced")?.message ?? "", /is UPDATING in AWS/);
  holdBack();
  const synced = await waitForResourceCondition(
    e2e.kube,
    "Table",
    ns,
    "other",
    "ACK.ResourceSynced",
    "True",
    undefined,
    15_000,
  );
  assert.equal(synced.status?.["tableStatus"], "ACTIVE");
  assert.equal(proxy.calls("UpdateTable").filter((r) => r.body.includes('"slow-other"')).length, 1);
});

test("a DB instance creating is Synced=False with RDS's status, then Synced once available", async () => {
  const holdBack = proxy.addFault({
    name: "db-creating",
    match: (r) => r.action === "DescribeDBInstances" && r.params["DBInstanceIdentifier"] === "slow-db",
    respond: { rewrite: instanceStatus("creating") },
  });
  await e2e.apply([minimalResource("DBInstance", ns, "db", "slow-db")]);
  const busy = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    ns,
    "db",
    "ACK.ResourceSynced",
    "False",
    "DBInstanceStatus",
  );
  assert.match(
    condition(busy, "ACK.ResourceSynced")?.message ?? "",
    /DB instance slow-db is creating in AWS; waiting until it is available/,
  );
  assert.equal(busy.status?.["dbInstanceStatus"], "creating");
  // Meanwhile the one DBInstance worker serves another instance.
  await e2e.apply([minimalResource("DBInstance", ns, "db2", "slow-db2")]);
  await waitForResourceCondition(e2e.kube, "DBInstance", ns, "db2", "ACK.ResourceSynced", "True");
  assert.deepEqual(
    proxy.calls("ModifyDBInstance").filter((r) => r.params["DBInstanceIdentifier"] === "slow-db"),
    [],
    "nothing is modified while RDS is creating",
  );
  holdBack();
  // RDS is looked at again 15 s after the busy answer.
  await waitFor(
    async () => (condition(await getDb(), "ACK.ResourceSynced")?.status === "True" ? true : undefined),
    { what: "DBInstance slow/db Synced once available", timeoutMs: 25_000 },
  );
  assert.equal((await getDb())?.status?.["dbInstanceStatus"], "available");
});

const getDb = () => getResource(e2e.kube, "DBInstance", ns, "db");
