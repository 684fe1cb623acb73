// KMS's Key end to end with the real controller process and the recording proxy: a kind named by
// the ID KMS assigns (src/controller/reconcile/locate.ts). A Key lands in its namespace's account
// with one CreateKey and no search, Synced with ACK's status.keyID; updated by the key's own calls;
// a tenant's status naming another resource's key touches nothing of it (the key found is the one
// tagged as this resource's); status wiped, the key is found by its tags, never made twice; a
// controller killed after KMS made the key but before status said so finds that key, no second one;
// a Queue's kmsMasterKeyRef fills the key's ID and a LogGroup's kmsKeyRef its ARN, while a forged
// keyID on the Key makes its referrers wait instead of naming another key; deleted, the key is
// scheduled for deletion; two keys tagged as one resource's are refused naming both; a CreateKey
// that lands after its resource was let go is found by its tag and deleted by the tombstone's sweep.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateKeyCommand,
  DescribeKeyCommand,
  KMSClient,
  ListKeysCommand,
  ListResourceTagsCommand,
  ScheduleKeyDeletionCommand,
} from "@aws-sdk/client-kms";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { waitFor } from "../../src/runtime/wait-for.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import {
  type ControllerProcess,
  clientAs,
  condition,
  configMap,
  deleteResourceAndWait,
  type E2E,
  getResource,
  identity,
  namespace,
  patchResource,
  resourcePath,
  startE2E,
  waitForSynced,
  writeStatusAsTenant,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let proxy: AwsProxy;
let controller: ControllerProcess;
let kms: KMSClient;

const startController = () => e2e.startController([], { awsEndpoint: proxy.endpoint });

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([
    namespace("ack-system"),
    namespace("apps", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/apps-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: ["apps", "ack-system"] } }),
  ]);
  controller = await startController();
  kms = await clientAs(KMSClient, e2e.stack.awsEndpoint ?? "", X);
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

const key = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: "kms.services.k8s.aws/v1alpha1",
    kind: "Key",
    metadata: { name, namespace: "apps" },
    spec: { description: `apps ${name}`, ...spec },
  }) as KubeObject;

const keyIdOf = async (name: string) =>
  String(
    ((await getResource(e2e.kube, "Key", "apps", name))?.status as Record<string, unknown>)?.["keyID"] ?? "",
  );
const uidOf = async (name: string) => (await getResource(e2e.kube, "Key", "apps", name))?.metadata.uid ?? "";

/** The keys in X tagged as the resource `uid`'s, pending deletion left out. */
async function keysOf(uid: string): Promise<string[]> {
  const out: string[] = [];
  for (const k of (await kms.send(new ListKeysCommand({}))).Keys ?? []) {
    const id = k.KeyId ?? "";
    const meta = (await kms.send(new DescribeKeyCommand({ KeyId: id }))).KeyMetadata;
    if (meta?.KeyState === "PendingDeletion") continue;
    const tags = (await kms.send(new ListResourceTagsCommand({ KeyId: id }))).Tags ?? [];
    if (tags.some((t) => t.TagKey === "services.k8s.aws/owner-uid" && t.TagValue === uid)) out.push(id);
  }
  return out;
}

/** Writes `status` as a tenant may (the status subresource of its own object). */
const writeStatus = (name: string, status: Record<string, unknown>) =>
  writeStatusAsTenant(e2e.kube, "Key", "apps", name, status);

/** Requests whose JSON body names `id`, by action. */
const naming = (id: string) => proxy.requests.filter((r) => r.body.includes(id)).map((r) => r.action);

test("a Key lands in the namespace's account with one CreateKey and no search, Synced with status.keyID; updated by the key's own calls", async () => {
  proxy.clearRecording();
  await e2e.apply([key("orders", { tags: [{ tagKey: "team", tagValue: "apps" }] })]);
  const synced = await waitForSynced(e2e.kube, "Key", "apps", "orders");
  const id = await keyIdOf("orders");
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.equal(proxy.calls("CreateKey").length, 1);
  assert.equal(proxy.calls("ListKeys").length, 0, "a new Key costs no search");
  assert.deepEqual(await keysOf(synced.metadata.uid ?? ""), [id], "one key, tagged as this resource's");
  const meta = synced.status?.ackResourceMetadata as Record<string, unknown> | undefined;
  assert.equal(meta?.["arn"], `arn:aws:kms:us-east-1:${X}:key/${id}`);
  assert.equal(meta?.["ownerAccountID"], X);

  await patchResource(e2e.kube, "Key", "apps", "orders", {
    spec: { description: "the orders key", enableKeyRotation: true },
  });
  await waitForSynced(e2e.kube, "Key", "apps", "orders", 2);
  const now = (await kms.send(new DescribeKeyCommand({ KeyId: id }))).KeyMetadata;
  assert.equal(now?.Description, "the orders key");
  assert.ok(proxy.calls("EnableKeyRotation").length >= 1);
});

test("status naming another resource's key: nothing of that key is touched; the key tagged as this resource's is found again", async () => {
  await e2e.apply([key("theirs"), key("mine")]);
  await waitForSynced(e2e.kube, "Key", "apps", "theirs");
  await waitForSynced(e2e.kube, "Key", "apps", "mine");
  const theirs = await keyIdOf("theirs");
  const mine = await keyIdOf("mine");
  proxy.clearRecording();
  await writeStatus("mine", { keyID: theirs });
  // A change of spec makes the controller write: it must write to its own key, found by its tags.
  await patchResource(e2e.kube, "Key", "apps", "mine", { spec: { description: "mine, changed" } });
  await waitFor(
    async () =>
      (await keyIdOf("mine")) === mine &&
      (await getResource(e2e.kube, "Key", "apps", "mine"))?.metadata.generation === 2
        ? true
        : undefined,
    {
      what: "mine Synced on its own key again",
      timeoutMs: 30_000,
    },
  );
  await waitForSynced(e2e.kube, "Key", "apps", "mine", 2);
  assert.ok(naming(theirs).includes("DescribeKey"), "the ID status named was read, and its tags refused it");
  assert.ok(proxy.calls("ListKeys").length >= 1, "then the key tagged as this resource's was looked for");
  const writes = naming(theirs).filter((a) => !/^(Describe|Get|List)/.test(a ?? ""));
  assert.deepEqual(writes, [], "no write names the other resource's key");
  assert.equal(
    (await kms.send(new DescribeKeyCommand({ KeyId: theirs }))).KeyMetadata?.Description,
    "apps theirs",
  );
  assert.equal(
    (await kms.send(new DescribeKeyCommand({ KeyId: mine }))).KeyMetadata?.Description,
    "mine, changed",
  );
  assert.equal(proxy.calls("CreateKey").length, 0, "no second key");
});

test("status wiped: the key is found by its tags, never made twice", async () => {
  await e2e.apply([key("wiped")]);
  await waitForSynced(e2e.kube, "Key", "apps", "wiped");
  const id = await keyIdOf("wiped");
  proxy.clearRecording();
  await writeStatus("wiped", { keyID: null, conditions: null });
  // Status is a record, not an input: its next reconcile (here a spec change) puts it right.
  await patchResource(e2e.kube, "Key", "apps", "wiped", { spec: { description: "wiped, changed" } });
  await waitForSynced(e2e.kube, "Key", "apps", "wiped", 2);
  assert.equal(await keyIdOf("wiped"), id, "status.keyID recorded again");
  assert.equal(proxy.calls("CreateKey").length, 0);
  assert.ok(proxy.calls("ListKeys").length >= 1, "found by a search of the keys' tags");
  assert.deepEqual(await keysOf(await uidOf("wiped")), [id]);
});

test("killed after KMS made the key, before status said so: the next controller finds that key, no second one", async () => {
  proxy.clearRecording();
  const remove = proxy.addFault({
    name: "hang CreateKey",
    match: (r) => r.action === "CreateKey" && r.body.includes("apps crash"),
    respond: "forward-then-hang",
    times: 1,
  });
  await e2e.apply([key("crash")]);
  await waitFor(() => (proxy.calls("CreateKey").length === 1 ? true : undefined), {
    what: "the CreateKey sent",
    timeoutMs: 20_000,
  });
  await controller.stop("SIGKILL");
  remove();
  const uid = await uidOf("crash");
  const made = await waitFor(async () => ((await keysOf(uid)).length === 1 ? keysOf(uid) : undefined), {
    what: "KMS made the key",
    timeoutMs: 10_000,
  });
  assert.equal(await keyIdOf("crash"), "", "status never said so");
  controller = await startController();
  await waitForSynced(e2e.kube, "Key", "apps", "crash");
  assert.deepEqual(await keysOf(uid), made, "the key KMS made, and no other");
  assert.equal(await keyIdOf("crash"), made[0]);
  assert.equal(proxy.calls("CreateKey").length, 1, "one create in all");
});

test("references: a Queue's and a Topic's kmsMasterKeyRef fill the key's ID, a LogGroup's and a Table's its ARN; a forged keyID makes referrers wait", async () => {
  await e2e.apply([key("shared")]);
  await waitForSynced(e2e.kube, "Key", "apps", "shared");
  const id = await keyIdOf("shared");
  proxy.clearRecording();
  await e2e.apply([
    {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "jobs", namespace: "apps" },
      spec: { queueName: "apps-jobs", kmsMasterKeyRef: { from: { name: "shared" } } },
    } as KubeObject,
    {
      apiVersion: "cloudwatchlogs.services.k8s.aws/v1alpha1",
      kind: "LogGroup",
      metadata: { name: "jobs", namespace: "apps" },
      spec: { name: "apps-jobs", kmsKeyRef: { from: { name: "shared" } } },
    } as KubeObject,
  ]);
  await e2e.apply([
    {
      apiVersion: "sns.services.k8s.aws/v1alpha1",
      kind: "Topic",
      metadata: { name: "jobs", namespace: "apps" },
      spec: { name: "apps-jobs", kmsMasterKeyRef: { from: { name: "shared" } } },
    } as KubeObject,
    {
      apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
      kind: "Table",
      metadata: { name: "jobs", namespace: "apps" },
      spec: {
        tableName: "apps-jobs",
        attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
        keySchema: [{ attributeName: "id", keyType: "HASH" }],
        billingMode: "PAY_PER_REQUEST",
        sseSpecification: { enabled: true, sseType: "KMS", kmsMasterKeyRef: { from: { name: "shared" } } },
      },
    } as KubeObject,
  ]);
  for (const kind of ["Queue", "LogGroup", "Topic", "Table"])
    await waitForSynced(e2e.kube, kind, "apps", "jobs");
  const arn = `arn:aws:kms:us-east-1:${X}:key/${id}`;
  const queue = JSON.parse(proxy.calls("CreateQueue")[0]?.body ?? "{}");
  assert.equal(queue.Attributes?.KmsMasterKeyId, id, "a Queue takes the key's ID (ACK's Status.KeyID)");
  const group = JSON.parse(proxy.calls("CreateLogGroup")[0]?.body ?? "{}");
  assert.equal(group.kmsKeyId, arn, "a LogGroup takes the key's ARN (ACK's Status.ACKResourceMetadata.ARN)");
  // SNS's query form: Attributes.entry.<n>.key / .value.
  const topic = proxy.calls("CreateTopic")[0]?.params ?? {};
  const entry = Object.keys(topic).find(
    (k) => /^Attributes\.entry\.\d+\.key$/.test(k) && topic[k] === "KmsMasterKeyId",
  );
  assert.equal(topic[entry?.replace(/key$/, "value") ?? ""], id, "a Topic takes the key's ID");
  const table = JSON.parse(proxy.calls("CreateTable")[0]?.body ?? "{}");
  assert.equal(table.SSESpecification?.KMSMasterKeyId, arn, "a Table takes the key's ARN");

  // Another resource's key in the Key's status: the referrer checks the key's tags in AWS and waits.
  await e2e.apply([key("bystander")]);
  await waitForSynced(e2e.kube, "Key", "apps", "bystander");
  const bystander = await keyIdOf("bystander");
  await writeStatus("shared", { keyID: bystander });
  await e2e.apply([
    {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "late", namespace: "apps" },
      spec: { queueName: "apps-late", kmsMasterKeyRef: { from: { name: "shared" } } },
    } as KubeObject,
  ]);
  const late = await waitFor(
    async () => {
      const q = await getResource(e2e.kube, "Queue", "apps", "late");
      const c = condition(q, "ACK.Recoverable") ?? condition(q, "ACK.Terminal");
      return c?.status === "True" ? c : undefined;
    },
    { what: "the late Queue refused", timeoutMs: 30_000 },
  );
  assert.doesNotMatch(late.message ?? "", /Synced/);
  assert.equal(
    proxy.calls("CreateQueue").filter((r) => r.body.includes("apps-late")).length,
    0,
    "nothing made naming another key",
  );
});

test("two keys carrying one resource's owner-uid tag: refused naming both, nothing written to either; once one goes, Synced on the other", async () => {
  await e2e.apply([key("twin")]);
  await waitForSynced(e2e.kube, "Key", "apps", "twin");
  const first = await keyIdOf("twin");
  const uid = await uidOf("twin");
  // A second key tagged as the same resource's (copied tags, or a create the SDK sent twice).
  const second =
    (
      await kms.send(
        new CreateKeyCommand({
          Description: "a copy",
          Tags: [{ TagKey: "services.k8s.aws/owner-uid", TagValue: uid }],
        }),
      )
    ).KeyMetadata?.KeyId ?? "";
  proxy.clearRecording();
  // Status no longer says which: the search finds both.
  await writeStatus("twin", { keyID: null });
  await patchResource(e2e.kube, "Key", "apps", "twin", { spec: { description: "twin, changed" } });
  const refused = await waitFor(
    async () => {
      const c = condition(await getResource(e2e.kube, "Key", "apps", "twin"), "ACK.Recoverable");
      return c?.status === "True" && c.reason === "SeveralTagged" ? c : undefined;
    },
    { what: "the Key refused: two keys tagged as its own", timeoutMs: 30_000 },
  );
  assert.match(refused.message ?? "", new RegExp(`2 Key objects in account ${X}`));
  assert.ok(
    (refused.message ?? "").includes(first) && (refused.message ?? "").includes(second),
    refused.message,
  );
  assert.deepEqual(
    proxy.requests.map((r) => r.action).filter((a) => a === "UpdateKeyDescription" || a === "CreateKey"),
    [],
    "nothing written to either, nothing made",
  );
  // The extra one goes (out of band): the next attempt finds one, and brings it to the spec.
  await kms.send(new ScheduleKeyDeletionCommand({ KeyId: second, PendingWindowInDays: 7 }));
  await waitForSynced(e2e.kube, "Key", "apps", "twin", 2);
  assert.equal(await keyIdOf("twin"), first);
  assert.equal(
    (await kms.send(new DescribeKeyCommand({ KeyId: first }))).KeyMetadata?.Description,
    "twin, changed",
  );
});

test("deleted, the key is scheduled for deletion with the pending window", async () => {
  await e2e.apply([key("gone")]);
  await waitForSynced(e2e.kube, "Key", "apps", "gone");
  proxy.clearRecording();
  const id = await keyIdOf("gone");
  await deleteResourceAndWait(e2e.kube, "Key", "apps", "gone");
  const meta = (await kms.send(new DescribeKeyCommand({ KeyId: id }))).KeyMetadata;
  assert.equal(meta?.KeyState, "PendingDeletion");
  const scheduled = proxy.calls("ScheduleKeyDeletion").map((r) => JSON.parse(r.body));
  assert.deepEqual(scheduled, [{ KeyId: id, PendingWindowInDays: 7 }], "ACK's default window");
});

test("a CreateKey that lands after its resource was let go: the tombstone's sweep finds the key by its tag and schedules its deletion", async () => {
  const window = ["--create-intent-window-seconds=15"];
  await controller.stop();
  controller = await e2e.startController(window, { awsEndpoint: proxy.endpoint });
  let land: () => void = () => undefined;
  const landing = new Promise<void>((resolve) => {
    land = resolve;
  });
  const remove = proxy.addFault({
    name: "hold CreateKey",
    match: (r) => r.action === "CreateKey" && r.body.includes("apps late"),
    respond: { holdUntil: landing },
  });
  proxy.clearRecording();
  await e2e.apply([key("late")]);
  await waitFor(() => (proxy.calls("CreateKey").length === 1 ? true : undefined), {
    what: "the CreateKey sent (and held)",
    timeoutMs: 20_000,
  });
  const uid = await uidOf("late");
  // Killed while AWS holds the create; the resource deleted while no controller runs.
  await controller.stop("SIGKILL");
  remove();
  await e2e.kube.request({ method: "DELETE", path: resourcePath("Key", "apps", "late") });
  controller = await e2e.startController(window, { awsEndpoint: proxy.endpoint });
  // Nothing tagged as its own yet: held until the intent's window closes, then let go.
  await waitFor(
    async () => ((await getResource(e2e.kube, "Key", "apps", "late")) === undefined ? true : undefined),
    {
      what: "the Key released once its create intent's window closed",
      timeoutMs: 60_000,
    },
  );
  assert.deepEqual(await keysOf(uid), [], "nothing made yet");
  land();
  // The held create lands: a key tagged with the released resource's uid, found by the sweep.
  await waitFor(
    async () => {
      for (const k of (await kms.send(new ListKeysCommand({}))).Keys ?? []) {
        const tags = (await kms.send(new ListResourceTagsCommand({ KeyId: k.KeyId ?? "" }))).Tags ?? [];
        if (!tags.some((t) => t.TagKey === "services.k8s.aws/owner-uid" && t.TagValue === uid)) continue;
        const state = (await kms.send(new DescribeKeyCommand({ KeyId: k.KeyId ?? "" }))).KeyMetadata
          ?.KeyState;
        if (state === "PendingDeletion") return true;
      }
      return undefined;
    },
    { what: "the late key scheduled for deletion by the tombstone's sweep", timeoutMs: 60_000 },
  );
  assert.ok(
    controller.logs().some((l) => l["event"] === "tombstone.deleted"),
    "the sweep says what it deleted",
  );
});
