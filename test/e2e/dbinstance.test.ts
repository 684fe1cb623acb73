// RDS DBInstances end to end with the real controller process. A DBInstance in a namespace whose
// CARM owner-account-id maps to 111111111111 lands in that account (checked in the emulator with
// that account's own credentials), with ARN, account, dbInstanceStatus and endpoint in status;
// out-of-band drift is corrected at the DBInstance resync (3 s); a spec change is applied;
// deletion policy delete and retain; adoption of an untagged existing instance; read-only; an
// immutable change is rejected by the apiserver; a value RDS refuses is ACK.Terminal naming the
// field; placement through spec.identityRef to an AWSRoleIdentity, through the service-level team
// key rds.<team>, and through an IAMRoleSelector whose resourceTypeSelector names DBInstance.
// The master password: read from a Secret in the resource's own namespace and sent in
// CreateDBInstance; a reference to another namespace is Terminal SecretNotPermitted and nothing
// is created; a missing Secret is Recoverable SecretUnavailable until it appears; a changed
// Secret is sent again with ModifyDBInstance — all checked in moto's own request recording — and
// no password ever appears in the controller's log output or in Events. ACK's own e2e manifests
// (db_instance_postgres14_t3_micro, db_instance_postgres17_adopt) apply unchanged and are served
// (copyTagsToSnapshot, an RDS-managed password, ACK's status fields) with no drift loop at
// resync; a read replica, not supported yet, is ACK.Terminal naming its field.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import {
  CreateDBInstanceCommand,
  type DBInstance,
  DescribeDBInstancesCommand,
  ModifyDBInstanceCommand,
  RDSClient,
} from "@aws-sdk/client-rds";
import { isReservedTagKey } from "../../src/api/reserved-tag-keys.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { KubeApiError, patchTypes } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { type MotoRecordedRequest, readMotoRecording } from "../support/moto-recording.ts";
import {
  type ControllerProcess,
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
  resourcePath,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const T = "333333333333";
const S = "444444444444";
const ownerAccount = "services.k8s.aws/owner-account-id";
const teamId = "services.k8s.aws/team-id";
const resyncSeconds = 3;
const centralRole = `arn:aws:iam::${Y}:role/central-it`;
const teamRdsRole = `arn:aws:iam::${T}:role/team-a-rds`;
const selectorRole = `arn:aws:iam::${S}:role/dev-rds`;

/** Every password this file puts in a Secret: none may show in logs or Events. */
const passwords = {
  orders: "orders-Pw-1111",
  rotated: "orders-Pw-2222-rotated",
  foreign: "foreign-Pw-3333",
  late: "late-Pw-4444",
  other: "other-Pw-5555",
};

let e2e: E2E;
let endpoint: string;
let controller: ControllerProcess;
const controllers: ControllerProcess[] = [];

function dbInstance(
  ns: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBInstance",
    metadata: { name, namespace: ns, ...metadata },
    spec: {
      dbInstanceIdentifier: `${ns}-${name}`,
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
      engineVersion: "16.3",
      allocatedStorage: 20,
      masterUsername: "shop_admin",
      ...spec,
    },
  } as KubeObject;
}

function secret(ns: string, name: string, password: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: ns },
    stringData: { password },
  } as KubeObject;
}

const passwordRef = (name: string, extra: Record<string, unknown> = {}) => ({
  masterUserPassword: { name, key: "password", ...extra },
});

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  endpoint = e2e.stack.awsEndpoint ?? "";
  const mine = ["rds-x", "rds-adopt", "rds-ro", "rds-ref", "rds-team", "rds-other"];
  await e2e.apply([
    namespace("ack-system"),
    namespace("rds-x", { [ownerAccount]: X }),
    namespace("rds-adopt", { [ownerAccount]: X }),
    namespace("rds-ro", { [ownerAccount]: X }),
    namespace("rds-ref"),
    namespace("rds-team", { [teamId]: "team-a" }),
    namespace("rds-other", { [ownerAccount]: X }),
    namespace("rds-sel"),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/rds-x` }),
    configMap("ack-role-team-map", {
      "team-a": `arn:aws:iam::${Y}:role/team-a`,
      "rds.team-a": teamRdsRole,
    }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: mine } }),
    identity("AWSRoleIdentity", "central-it", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: centralRole,
      allowedNamespaces: { list: ["rds-ref"] },
    }),
    secret("rds-x", "orders-db", passwords.orders),
    secret("rds-other", "orders-db", passwords.other),
    secret("rds-adopt", "legacy-db", passwords.other),
    secret("rds-ref", "billing-db", passwords.other),
    secret("rds-team", "team-db", passwords.other),
  ]);
  controller = await e2e.startController([
    `--reconcile-resource-resync-seconds=DBInstance=${resyncSeconds}`,
    "--feature-gates=TeamLevelCARM=true,ServiceLevelCARM=true",
  ]);
  controllers.push(controller);
});
after(() => e2e?.stop());

/** A client acting as `account` itself (an inspector, or an out-of-band change). */
const rdsAs = (account: string) => clientAs(RDSClient, endpoint, account);

const arnIn = (account: string, id: string) => `arn:aws:rds:${region}:${account}:db:${id}`;

/** The instance as `account` describes it; undefined when it has none of that identifier. */
async function instanceIn(account: string, id: string): Promise<DBInstance | undefined> {
  try {
    return (await (await rdsAs(account)).send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: id })))
      .DBInstances?.[0];
  } catch (err) {
    if ((err as { name?: string }).name === "DBInstanceNotFoundFault") return undefined;
    throw err;
  }
}

async function tagsIn(
  account: string,
  id: string,
): Promise<{ user: Record<string, string>; ownerUid?: string }> {
  const i = await instanceIn(account, id);
  assert.ok(i, `${id} in ${account}`);
  const all = Object.fromEntries((i.TagList ?? []).map((x) => [x.Key ?? "", x.Value ?? ""]));
  const user = Object.fromEntries(Object.entries(all).filter(([k]) => !isReservedTagKey(k)));
  const ownerUid = all["services.k8s.aws/owner-uid"];
  return ownerUid === undefined ? { user } : { user, ownerUid };
}

/** The RDS requests (`action`) moto recorded for the instance `id`, in order. */
async function recorded(action: string, id: string): Promise<MotoRecordedRequest[]> {
  const path = e2e.stack.emulator?.recordingPath;
  assert.ok(path, "the emulator records requests");
  return (await readMotoRecording(path)).filter(
    (r) => r.params["Action"] === action && r.params["DBInstanceIdentifier"] === id,
  );
}

const synced = (ns: string, name: string, timeoutMs = 30_000) =>
  waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    ns,
    name,
    "ACK.ResourceSynced",
    "True",
    undefined,
    timeoutMs,
  );

const patchSpec = (ns: string, name: string, spec: Record<string, unknown>) =>
  patchResource(e2e.kube, "DBInstance", ns, name, { spec });

const deleteObject = (ns: string, name: string) => deleteResourceAndWait(e2e.kube, "DBInstance", ns, name);

const statusOf = (r: { status?: unknown } | undefined) => (r?.status ?? {}) as Record<string, unknown>;

test("CARM: a DBInstance in a namespace mapped to 111111111111 lands there, tagged, with the Secret's password, status and late-initialised spec", async () => {
  await e2e.apply([
    dbInstance("rds-x", "orders", { ...passwordRef("orders-db"), tags: [{ key: "team", value: "shop" }] }),
  ]);
  const d = await synced("rds-x", "orders");
  const id = "rds-x-orders";
  const status = statusOf(d);
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(d.status?.ackResourceMetadata?.region, region);
  assert.equal(d.status?.ackResourceMetadata?.arn, arnIn(X, id));
  assert.equal(status["dbInstanceStatus"], "available");
  assert.deepEqual(status["endpoint"], {
    address: `${id}.aaaaaaaaaa.${region}.rds.amazonaws.com`,
    port: 5432,
  });
  assert.equal(condition(d, "Ready")?.status, "True");
  assert.ok(d.metadata.finalizers?.includes("finalizers.rds.services.k8s.aws/DBInstance"));

  const described = await instanceIn(X, id);
  assert.equal(described?.DBInstanceArn, arnIn(X, id));
  assert.equal(described?.DBInstanceClass, "db.t3.micro");
  assert.equal(described?.MasterUsername, "shop_admin");
  assert.deepEqual(await tagsIn(X, id), { user: { team: "shop" }, ownerUid: d.metadata.uid });
  assert.equal(await instanceIn(controllerAccount, id), undefined, "nothing in the controller's account");
  assert.equal(await instanceIn(Y, id), undefined);

  const creates = await recorded("CreateDBInstance", id);
  assert.equal(creates.length, 1);
  assert.equal(creates[0]?.params["MasterUserPassword"], passwords.orders, "the Secret's value reached RDS");
  assert.deepEqual(
    (await recorded("ModifyDBInstance", id)).filter((r) => r.params["MasterUserPassword"] !== undefined),
    [],
    "the password is sent once, at creation",
  );

  const settled = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "DBInstance", "rds-x", "orders");
      return r?.spec?.["backupRetentionPeriod"] !== undefined ? r : undefined;
    },
    { what: "spec late-initialised from RDS", timeoutMs: 20_000 },
  );
  assert.equal(settled.spec?.["backupRetentionPeriod"], 1);
  assert.equal(settled.spec?.["storageEncrypted"], false);
  assert.equal(settled.spec?.["deletionProtection"], false);
  assert.equal(settled.spec?.["storageType"], "gp2");
  assert.deepEqual(settled.spec?.["masterUserPassword"], { name: "orders-db", key: "password" });
  assert.equal(statusOf(settled)["masterUserPassword"], undefined);
});

test("drift: backupRetentionPeriod and dbInstanceClass changed out of band are corrected at the DBInstance resync", async () => {
  const id = "rds-x-orders";
  await synced("rds-x", "orders");
  await (await rdsAs(X)).send(
    new ModifyDBInstanceCommand({
      DBInstanceIdentifier: id,
      BackupRetentionPeriod: 9,
      DBInstanceClass: "db.t3.large",
      ApplyImmediately: true,
    }),
  );
  assert.equal((await instanceIn(X, id))?.BackupRetentionPeriod, 9);
  await waitFor(
    async () => {
      const i = await instanceIn(X, id);
      return i?.BackupRetentionPeriod === 1 && i.DBInstanceClass === "db.t3.micro";
    },
    {
      what: "backupRetentionPeriod and dbInstanceClass back to the spec's",
      timeoutMs: resyncSeconds * 1000 + 15_000,
    },
  );
  const modify = (await recorded("ModifyDBInstance", id)).at(-1);
  assert.equal(modify?.params["ApplyImmediately"], "true", "drift correction applies immediately");
  await waitForEvent(e2e.kube, "rds-x", "DBInstance", "orders", "Updated", /spec\.backupRetentionPeriod/);
});

test("a spec change is applied: class, retention, deletion protection and tags, ownership tags kept", async () => {
  const id = "rds-x-orders";
  await patchSpec("rds-x", "orders", {
    dbInstanceClass: "db.t3.small",
    backupRetentionPeriod: 5,
    deletionProtection: true,
    tags: [
      { key: "owner", value: "platform" },
      { key: "tier", value: "gold" },
    ],
  });
  await waitFor(
    async () => {
      const i = await instanceIn(X, id);
      return (
        i?.DBInstanceClass === "db.t3.small" && i.BackupRetentionPeriod === 5 && i.DeletionProtection === true
      );
    },
    { what: "class db.t3.small, retention 5, deletion protection on", timeoutMs: 20_000 },
  );
  const d = await getResource(e2e.kube, "DBInstance", "rds-x", "orders");
  await waitFor(async () => ((await tagsIn(X, id)).user["owner"] === "platform" ? true : undefined), {
    what: "tags applied",
    timeoutMs: 20_000,
  });
  assert.deepEqual(await tagsIn(X, id), {
    user: { owner: "platform", tier: "gold" },
    ownerUid: d?.metadata.uid,
  });
});

test("a changed Secret value is sent to RDS again with ModifyDBInstance (seen at the emulator)", async () => {
  const id = "rds-x-orders";
  const before = (await recorded("ModifyDBInstance", id)).length;
  await e2e.kube.request({
    method: "PATCH",
    path: "/api/v1/namespaces/rds-x/secrets/orders-db",
    contentType: patchTypes.merge,
    body: { stringData: { password: passwords.rotated } },
  });
  const sent = await waitFor(
    async () =>
      (await recorded("ModifyDBInstance", id))
        .slice(before)
        .find((r) => r.params["MasterUserPassword"] === passwords.rotated),
    { what: "ModifyDBInstance carrying the new password", timeoutMs: 15_000 },
  );
  assert.equal(sent.params["ApplyImmediately"], "true");
  await waitForEvent(e2e.kube, "rds-x", "DBInstance", "orders", "Updated", /spec\.masterUserPassword/);
  // Once applied, it is not sent again: two later reconciles (each reads the instance) send nothing.
  const reads = (await recorded("DescribeDBInstances", id)).length;
  await waitFor(
    async () => ((await recorded("DescribeDBInstances", id)).length >= reads + 2 ? true : undefined),
    {
      what: "two later reconciles read the instance",
      timeoutMs: 2 * resyncSeconds * 1000 + 15_000,
    },
  );
  const withNew = (await recorded("ModifyDBInstance", id)).filter(
    (r) => r.params["MasterUserPassword"] === passwords.rotated,
  );
  assert.equal(withNew.length, 1, "the new password is sent once");
});

test("another key of the password Secret changing sends nothing to RDS; status records no plaintext or plain hash of it", async () => {
  const id = "rds-x-orders";
  const withPassword = async () =>
    (await recorded("ModifyDBInstance", id)).filter((r) => r.params["MasterUserPassword"] !== undefined)
      .length;
  const sentBefore = await withPassword();
  const reads = (await recorded("DescribeDBInstances", id)).length;
  await e2e.kube.request({
    method: "PATCH",
    path: "/api/v1/namespaces/rds-x/secrets/orders-db",
    contentType: patchTypes.merge,
    body: { stringData: { username: "orders-app", note: `rotated ${Date.now()}` } },
  });
  // The Secret's change re-queues the instance at once; a resync follows. Both read it.
  await waitFor(
    async () => ((await recorded("DescribeDBInstances", id)).length >= reads + 2 ? true : undefined),
    { what: "two reconciles after the Secret changed", timeoutMs: 2 * resyncSeconds * 1000 + 15_000 },
  );
  assert.equal(await withPassword(), sentBefore, "the unchanged password is not sent again");
  const applied = statusOf(await synced("rds-x", "orders"))["appliedSecrets"] as Record<string, string>;
  const record = applied["spec.masterUserPassword"] ?? "";
  assert.ok(record !== "", "what was applied is recorded");
  for (const plain of [
    passwords.rotated,
    createHash("sha256").update(passwords.rotated).digest("hex"),
    createHash("sha256").update(passwords.rotated).digest("base64url"),
  ])
    assert.ok(!record.includes(plain), "neither the value nor its plain hash");
});

test("a tenant forging status.appliedSecrets only makes the controller resend its own Secret's value", async () => {
  const id = "rds-x-orders";
  const before = (await recorded("ModifyDBInstance", id)).length;
  // Status is writable by a tenant with `*` on the group; the record says "not applied yet".
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("DBInstance", "rds-x", "orders")}/status`,
    contentType: patchTypes.merge,
    body: { status: { appliedSecrets: { "spec.masterUserPassword": "forged/1" } } },
  });
  const resent = await waitFor(
    async () =>
      (await recorded("ModifyDBInstance", id)).slice(before).find((r) => r.params["MasterUserPassword"]),
    { what: "the next reconcile to set the password again", timeoutMs: 2 * resyncSeconds * 1000 + 15_000 },
  );
  assert.equal(
    resent.params["MasterUserPassword"],
    passwords.rotated,
    "the Secret's own value, nothing else",
  );
  // The status write that follows the ModifyDBInstance puts the Secret's real version back.
  const d = await waitFor(
    async () => {
      const r = await synced("rds-x", "orders");
      const applied = statusOf(r)["appliedSecrets"] as Record<string, string> | undefined;
      return applied?.["spec.masterUserPassword"] !== "forged/1" ? r : undefined;
    },
    { what: "the record to be the Secret's real version again", timeoutMs: 10_000 },
  );
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, X);
  for (const account of [Y, T, S]) assert.equal(await instanceIn(account, id), undefined, account);
});

test("an immutable change is rejected by the apiserver, naming the field", async () => {
  for (const [spec, message] of [
    [{ engine: "mysql" }, /engine is immutable/],
    [{ dbInstanceIdentifier: "rds-x-renamed" }, /dbInstanceIdentifier is immutable/],
    [{ masterUsername: "root" }, /masterUsername is immutable/],
    [{ allocatedStorage: 10 }, /allocatedStorage can only grow/],
  ] as const) {
    await assert.rejects(
      () => patchSpec("rds-x", "orders", spec),
      (err: unknown) => {
        assert.ok(err instanceof KubeApiError, String(err));
        assert.equal(err.status, 422);
        assert.match(err.message, message);
        return true;
      },
    );
  }
});

test("a value RDS refuses is ACK.Terminal naming the field; nothing in AWS", async () => {
  // In crossrole's engine list, refused by this RDS (moto's list lacks it): InvalidParameterValue.
  await e2e.apply([
    dbInstance("rds-x", "refused", { engine: "custom-sqlserver-dev", ...passwordRef("orders-db") }),
  ]);
  const d = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "rds-x",
    "refused",
    "ACK.Terminal",
    "True",
  );
  const message = condition(d, "ACK.Terminal")?.message ?? "";
  assert.match(
    message,
    /^spec\.engine: CreateDBInstance on DB instance "rds-x-refused" failed with InvalidParameterValue/,
  );
  assert.ok(!message.includes(passwords.orders) && !message.includes(passwords.rotated));
  assert.equal(await instanceIn(X, "rds-x-refused"), undefined);
  await deleteObject("rds-x", "refused");
});

test("a password reference to another namespace is Terminal SecretNotPermitted; nothing is read or created", async () => {
  await e2e.apply([
    secret("rds-x", "foreign-db", passwords.foreign),
    dbInstance("rds-other", "thief", passwordRef("orders-db", { namespace: "rds-x" })),
  ]);
  const d = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "rds-other",
    "thief",
    "ACK.Terminal",
    "True",
    "SecretNotPermitted",
  );
  assert.match(condition(d, "ACK.Terminal")?.message ?? "", /own namespace \("rds-other"\)/);
  assert.equal(condition(d, "ACK.ResourceSynced")?.status, "False");
  assert.equal(await instanceIn(X, "rds-other-thief"), undefined);
  assert.deepEqual(await recorded("CreateDBInstance", "rds-other-thief"), []);
  // The same name in its own namespace is fine once the reference no longer leaves it.
  await patchSpec("rds-other", "thief", {
    masterUserPassword: { name: "orders-db", key: "password", namespace: null },
  });
  await synced("rds-other", "thief");
  const creates = await recorded("CreateDBInstance", "rds-other-thief");
  assert.equal(
    creates[0]?.params["MasterUserPassword"],
    passwords.other,
    "its own namespace's Secret, not rds-x's",
  );
  await deleteObject("rds-other", "thief");
});

test("a missing Secret is Recoverable SecretUnavailable; the instance is created once the Secret appears", async () => {
  await e2e.apply([dbInstance("rds-x", "late", passwordRef("late-db"))]);
  const d = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "rds-x",
    "late",
    "ACK.Recoverable",
    "True",
    "SecretUnavailable",
  );
  assert.match(condition(d, "ACK.Recoverable")?.message ?? "", /late-db/);
  assert.equal(await instanceIn(X, "rds-x-late"), undefined);
  await e2e.apply([secret("rds-x", "late-db", passwords.late)]);
  // Well under the 15 s wait requeue: the Secret appearing re-queues the resource.
  await synced("rds-x", "late", 10_000);
  assert.ok(await instanceIn(X, "rds-x-late"));
  const creates = await recorded("CreateDBInstance", "rds-x-late");
  assert.equal(creates.length, 1);
  assert.equal(creates[0]?.params["MasterUserPassword"], passwords.late);
});

test("deletion policy delete (the default) deletes the instance in its account, without a final snapshot", async () => {
  await e2e.apply([dbInstance("rds-x", "doomed", passwordRef("orders-db"))]);
  await synced("rds-x", "doomed");
  assert.ok(await instanceIn(X, "rds-x-doomed"));
  await deleteObject("rds-x", "doomed");
  assert.equal(await instanceIn(X, "rds-x-doomed"), undefined);
  await waitForEvent(e2e.kube, "rds-x", "DBInstance", "doomed", "Deleted", new RegExp(`in account ${X}`));
  const deletes = await recorded("DeleteDBInstance", "rds-x-doomed");
  assert.equal(deletes.length, 1);
  assert.equal(deletes[0]?.params["SkipFinalSnapshot"], "true", "ACK's default: no final snapshot");
});

test("deletion policy retain leaves the instance in AWS", async () => {
  await e2e.apply([
    dbInstance("rds-x", "kept", passwordRef("orders-db"), {
      annotations: { "services.k8s.aws/deletion-policy": "retain" },
    }),
  ]);
  await synced("rds-x", "kept");
  await deleteObject("rds-x", "kept");
  assert.ok(await instanceIn(X, "rds-x-kept"), "rds-x-kept still in account X");
  assert.deepEqual(await recorded("DeleteDBInstance", "rds-x-kept"), []);
  await waitForEvent(e2e.kube, "rds-x", "DBInstance", "kept", "Retained", /deletion policy is retain/);
});

test("adoption: an untagged existing instance is adopted with adoption-policy adopt — spec from AWS, tagged as ours, not recreated or modified", async () => {
  const id = "rds-adopt-legacy";
  await (await rdsAs(X)).send(
    new CreateDBInstanceCommand({
      DBInstanceIdentifier: id,
      DBInstanceClass: "db.t3.medium",
      Engine: "postgres",
      EngineVersion: "15.4",
      AllocatedStorage: 40,
      MasterUsername: "legacy",
      BackupRetentionPeriod: 7,
      Tags: [{ Key: "legacy", Value: "yes" }],
    }),
  );
  await e2e.apply([
    dbInstance(
      "rds-adopt",
      "legacy",
      { ...passwordRef("legacy-db"), masterUsername: "legacy", engineVersion: "15.4", allocatedStorage: 40 },
      { annotations: { "services.k8s.aws/adoption-policy": "adopt" } },
    ),
  ]);
  const d = await synced("rds-adopt", "legacy");
  assert.equal(d.status?.ackResourceMetadata?.arn, arnIn(X, id));
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, X);
  await waitForEvent(e2e.kube, "rds-adopt", "DBInstance", "legacy", "Adopted", new RegExp(`${id}.*${X}`));
  const adopted = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "DBInstance", "rds-adopt", "legacy");
      return r?.spec?.["dbInstanceClass"] === "db.t3.medium" ? r : undefined;
    },
    { what: "spec.dbInstanceClass taken from AWS (strict adopt)", timeoutMs: 20_000 },
  );
  assert.equal(adopted.spec?.["backupRetentionPeriod"], 7);
  assert.deepEqual(adopted.spec?.["tags"], [{ key: "legacy", value: "yes" }]);
  assert.deepEqual(adopted.spec?.["masterUserPassword"], { name: "legacy-db", key: "password" });
  assert.equal((await instanceIn(X, id))?.DBInstanceClass, "db.t3.medium", "AWS is not changed by adopting");
  assert.deepEqual(await tagsIn(X, id), { user: { legacy: "yes" }, ownerUid: adopted.metadata.uid });
  const reasons = (await eventsAbout(e2e.kube, "rds-adopt", "DBInstance", "legacy")).map((e) => e.reason);
  assert.ok(!reasons.includes("Created"), reasons.join(","));
  const creates = await recorded("CreateDBInstance", id);
  assert.equal(creates.length, 1, "only the out-of-band create: never created by the controller");
  assert.equal(creates[0]?.params["MasterUserPassword"], undefined);
  // The only write is the master password from the spec's Secret (as ACK, which sets it on adoption too).
  for (const m of await recorded("ModifyDBInstance", id)) {
    assert.deepEqual(
      Object.keys(m.params)
        .filter((k) => !["Action", "Version", "DBInstanceIdentifier", "ApplyImmediately"].includes(k))
        .sort(),
      ["MasterUserPassword"],
    );
    assert.equal(m.params["MasterUserPassword"], passwords.other);
  }
});

test("read-only: an existing instance is read (status filled, Synced), a differing spec is not applied, deleting the resource leaves it", async () => {
  const id = "rds-ro-observed";
  await (await rdsAs(X)).send(
    new CreateDBInstanceCommand({
      DBInstanceIdentifier: id,
      DBInstanceClass: "db.t3.micro",
      Engine: "postgres",
      MasterUsername: "observer",
      BackupRetentionPeriod: 2,
    }),
  );
  await e2e.apply([
    dbInstance(
      "rds-ro",
      "observed",
      { masterUsername: "observer", backupRetentionPeriod: 30, dbInstanceClass: "db.t3.large" },
      { annotations: { "services.k8s.aws/read-only": "true" } },
    ),
  ]);
  const d = await synced("rds-ro", "observed");
  assert.equal(d.status?.ackResourceMetadata?.arn, arnIn(X, id));
  assert.equal(statusOf(d)["dbInstanceStatus"], "available");
  assert.ok(!d.metadata.finalizers?.includes("finalizers.rds.services.k8s.aws/DBInstance"));
  const i = await instanceIn(X, id);
  assert.equal(i?.BackupRetentionPeriod, 2);
  assert.equal(i?.DBInstanceClass, "db.t3.micro");
  assert.deepEqual(await recorded("ModifyDBInstance", id), []);
  await e2e.kube.request({
    method: "DELETE",
    path: `/apis/rds.services.k8s.aws/v1alpha1/namespaces/rds-ro/dbinstances/observed`,
  });
  await waitFor(async () => (await getResource(e2e.kube, "DBInstance", "rds-ro", "observed")) === undefined, {
    what: "DBInstance rds-ro/observed gone from Kubernetes",
    timeoutMs: 10_000,
  });
  assert.ok(await instanceIn(X, id), "the instance is still in AWS");
});

test("spec.identityRef to an AWSRoleIdentity places the instance in that role's account", async () => {
  await e2e.apply([
    dbInstance("rds-ref", "billing", {
      ...passwordRef("billing-db"),
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    }),
  ]);
  const d = await synced("rds-ref", "billing");
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, Y);
  assert.equal(d.status?.ackResourceMetadata?.arn, arnIn(Y, "rds-ref-billing"));
  assert.equal(d.status?.ackResourceMetadata?.identity?.["source"], "identityRef");
  assert.equal(d.status?.ackResourceMetadata?.identity?.["roleARN"], centralRole);
  assert.equal(statusOf(d)["dbInstanceStatus"], "available");
  assert.ok(await instanceIn(Y, "rds-ref-billing"));
  assert.equal(await instanceIn(X, "rds-ref-billing"), undefined);
  assert.equal(await instanceIn(controllerAccount, "rds-ref-billing"), undefined);
});

test("service-level team CARM: rds.team-a is preferred over team-a for a DBInstance", async () => {
  await e2e.apply([dbInstance("rds-team", "reports", passwordRef("team-db"))]);
  const d = await synced("rds-team", "reports");
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, T);
  assert.equal(d.status?.ackResourceMetadata?.identity?.["source"], "teamCARM");
  assert.equal(d.status?.ackResourceMetadata?.identity?.["roleARN"], teamRdsRole);
  assert.ok(await instanceIn(T, "rds-team-reports"));
  assert.equal(await instanceIn(Y, "rds-team-reports"), undefined, "not where team-a alone points");
});

/**
 * ACK's own e2e manifests (rds-controller v1.11.1, test/e2e/resources/), as they are but for
 * ACK's $VARIABLES, which its test runner substitutes too.
 */
const ackManifests = {
  postgres14: (id: string, ns: string, secretName: string): KubeObject =>
    ({
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name: id, namespace: ns },
      spec: {
        allocatedStorage: 5,
        backupRetentionPeriod: 0,
        copyTagsToSnapshot: true,
        dbInstanceClass: "db.t3.micro",
        dbInstanceIdentifier: id,
        engine: "postgres",
        engineVersion: "14.18",
        masterUsername: "root",
        masterUserPassword: { namespace: ns, name: secretName, key: "password" },
        multiAZ: false,
        tags: [{ key: "environment", value: "dev" }],
      },
    }) as KubeObject,
  postgres17Adopt: (id: string, ns: string): KubeObject =>
    ({
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: {
        name: id,
        namespace: ns,
        annotations: {
          "services.k8s.aws/adoption-policy": "adopt-or-create",
          "services.k8s.aws/deletion-policy": "retain",
        },
      },
      spec: {
        allocatedStorage: 20,
        dbInstanceClass: "db.t4g.micro",
        dbInstanceIdentifier: id,
        engine: "postgres",
        engineVersion: "17",
        manageMasterUserPassword: true,
        masterUsername: "dbadmin",
        multiAZ: false,
        storageType: "gp2",
      },
    }) as KubeObject,
};

test("ACK's db_instance_postgres14_t3_micro applies unchanged: copyTagsToSnapshot reaches RDS, status is ACK's, resyncs send nothing", async () => {
  const id = "ack-pg14";
  await e2e.apply([ackManifests.postgres14(id, "rds-x", "orders-db")]);
  const d = await synced("rds-x", id);
  const status = statusOf(d);
  const described = await instanceIn(X, id);
  assert.equal(described?.CopyTagsToSnapshot, true);
  assert.equal(described?.BackupRetentionPeriod, 0);
  assert.deepEqual(
    (status["vpcSecurityGroups"] as { vpcSecurityGroupID?: string }[] | undefined)?.map(
      (g) => g.vpcSecurityGroupID,
    ),
    described?.VpcSecurityGroups?.map((g) => g.VpcSecurityGroupId),
    "status.vpcSecurityGroups as RDS reports them",
  );
  assert.deepEqual(status["dbParameterGroups"], [
    { dbParameterGroupName: "default.postgres14", parameterApplyStatus: "in-sync" },
  ]);
  assert.equal(status["dbInstancePort"], 5432);
  assert.match(String(status["latestRestorableTime"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  // Late initialisation copies RDS's placement into the spec, then two resyncs find no drift:
  // every value RDS normalises compares equal, so nothing is sent again.
  const settled = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "DBInstance", "rds-x", id);
      return r?.spec?.["vpcSecurityGroupIDs"] !== undefined && r.spec["port"] !== undefined ? r : undefined;
    },
    { what: "placement late-initialised from RDS", timeoutMs: 20_000 },
  );
  assert.equal(settled.spec?.["port"], 5432);
  assert.equal(settled.spec?.["preferredMaintenanceWindow"], described?.PreferredMaintenanceWindow);
  const reads = (await recorded("DescribeDBInstances", id)).length;
  await waitFor(
    async () => ((await recorded("DescribeDBInstances", id)).length >= reads + 2 ? true : undefined),
    { what: "two more resyncs of the DBInstance", timeoutMs: 20_000 },
  );
  assert.deepEqual(
    (await recorded("ModifyDBInstance", id)).map((r) => r.params),
    [],
    "no drift loop: nothing to modify",
  );
  assert.equal((await recorded("CreateDBInstance", id)).length, 1);
  await deleteObject("rds-x", id);
});

test("ACK's db_instance_postgres17_adopt creates (nothing to adopt) with RDS managing the password: status.masterUserSecret", async () => {
  const id = "ack-pg17-adopt";
  await e2e.apply([ackManifests.postgres17Adopt(id, "rds-x")]);
  const d = await synced("rds-x", id);
  const create = (await recorded("CreateDBInstance", id))[0]?.params ?? {};
  assert.equal(create["ManageMasterUserPassword"], "true");
  assert.equal(create["MasterUserPassword"], undefined);
  const secretStatus = statusOf(d)["masterUserSecret"] as { secretARN?: string } | undefined;
  assert.match(secretStatus?.secretARN ?? "", /^arn:aws:secretsmanager:/);
  await deleteObject("rds-x", id);
  assert.ok(await instanceIn(X, id), "deletion-policy retain keeps the instance");
});

test("a read replica (not supported yet) is ACK.Terminal naming spec.sourceDBInstanceIdentifier; nothing in AWS", async () => {
  await e2e.apply([
    dbInstance("rds-x", "replica", {
      ...passwordRef("orders-db"),
      sourceDBInstanceIdentifier: "rds-x-orders",
    }),
  ]);
  const d = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "rds-x",
    "replica",
    "ACK.Terminal",
    "True",
  );
  assert.match(
    condition(d, "ACK.Terminal")?.message ?? "",
    /spec\.sourceDBInstanceIdentifier: creating a read replica is not supported by crossrole yet/,
  );
  assert.deepEqual(await recorded("CreateDBInstance", "rds-x-replica"), []);
  assert.equal(await instanceIn(X, "rds-x-replica"), undefined);
  await deleteObject("rds-x", "replica");
});

test("no password appears in the controller's log output or in any Event", async () => {
  const logs = await readFile(controller.logFile, "utf8");
  assert.ok(logs.includes("rds:CreateDBInstance"), "the log does record the RDS calls");
  const events = (
    await Promise.all(
      ["rds-x", "rds-adopt", "rds-ro", "rds-ref", "rds-team", "rds-other"].map((ns) =>
        e2e.kube.request<{ items: unknown[] }>({ method: "GET", path: `/api/v1/namespaces/${ns}/events` }),
      ),
    )
  ).flatMap((l) => l.items);
  assert.ok(events.length > 0);
  const eventText = JSON.stringify(events);
  for (const [name, value] of Object.entries(passwords)) {
    assert.ok(!logs.includes(value), `password ${name} in the controller's log`);
    assert.ok(!eventText.includes(value), `password ${name} in an Event`);
  }
});

test("IAMRoleSelector mode: a selector whose resourceTypeSelector names DBInstance places it in its role's account", async () => {
  await controller.stop();
  await e2e.apply([
    secret("rds-sel", "sel-db", passwords.other),
    {
      apiVersion: "services.k8s.aws/v1alpha1",
      kind: "IAMRoleSelector",
      metadata: { name: "dev-rds" },
      spec: {
        arn: selectorRole,
        namespaceSelector: { names: ["rds-sel"] },
        resourceTypeSelector: [{ group: "rds.services.k8s.aws", version: "", kind: "DBInstance" }],
      },
    } as KubeObject,
    // Same namespace, another kind: must not compete with dev-rds for a DBInstance.
    {
      apiVersion: "services.k8s.aws/v1alpha1",
      kind: "IAMRoleSelector",
      metadata: { name: "dev-s3" },
      spec: {
        arn: `arn:aws:iam::${Y}:role/dev-s3`,
        namespaceSelector: { names: ["rds-sel"] },
        resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }],
      },
    } as KubeObject,
    dbInstance("rds-sel", "app", passwordRef("sel-db")),
  ]);
  const selectorController = await e2e.startController(
    ["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"],
    {
      name: "selector-controller",
    },
  );
  controllers.push(selectorController);
  const d = await synced("rds-sel", "app");
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, S);
  assert.equal(d.status?.ackResourceMetadata?.iamRoleSelector?.["selectorName"], "dev-rds");
  assert.equal(condition(d, "ACK.IAMRoleSelected")?.status, "True");
  assert.ok(await instanceIn(S, "rds-sel-app"));
  assert.equal(await instanceIn(Y, "rds-sel-app"), undefined);
  const logs = await readFile(selectorController.logFile, "utf8");
  for (const value of Object.values(passwords)) assert.ok(!logs.includes(value));
});
