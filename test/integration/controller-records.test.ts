// The controller's own records (src/controller/records/) against a real kube-apiserver: two
// replicas adding their keys to one record at once both land (merge patches, never a lost
// update); a key set to null is removed; a referrer's uses are dropped everywhere but where it
// still refers; a use already cached costs no write; an untaggable object's owner is recorded in
// one request, never over another live owner's; and the administrator's ConfigMaps in the same
// namespace are never read as records, written or deleted.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { configMapType } from "../../src/controller/config-types.ts";
import { OwnedObjects, ownedEntryOf, ownedRecordName } from "../../src/controller/records/owned-objects.ts";
import {
  kubeRecordStore,
  type RecordObject,
  type RecordStore,
} from "../../src/controller/records/record-store.ts";
import { ReferenceUses, referrersRecordName } from "../../src/controller/records/reference-uses.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { Informer } from "../../src/runtime/informer.ts";
import { createKubeClient, getIfExists, type KubeClient } from "../../src/runtime/kube-client.ts";
import { objectPath } from "../../src/runtime/kube-object.ts";

const ns = "ack-system";
let stack: Stack;
let kube: KubeClient;
let informer: Informer<RecordObject>;
let store: RecordStore;
const writes: string[] = [];

before(async () => {
  stack = await startStack({ aws: false });
  const plain = createKubeClient(stack.kubeConfig);
  // Every write the store makes, counted on the way to the apiserver.
  kube = {
    request: (req) => {
      if (req.method !== "GET") writes.push(`${req.method} ${req.path}`);
      return plain.request(req);
    },
    watch: (req) => plain.watch(req),
  };
  await plain.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
  });
  await plain.request({
    method: "POST",
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-account-map", namespace: ns },
      data: { "111111111111": "arn:aws:iam::111111111111:role/x" },
    },
  });
  informer = new Informer<RecordObject>({
    client: plain,
    resource: configMapType,
    namespaces: [ns],
    name: "cm",
  });
  informer.start();
  await waitFor(() => informer.hasSynced(), { what: "records informer synced", timeoutMs: 10_000 });
  store = kubeRecordStore(kube, ns, informer);
});
after(async () => {
  await informer?.stop();
  await stack?.stop();
});

const target = { kind: "DBSubnetGroup", namespace: "net", name: "shared", uid: "g-1" };
const referrer = (name: string) => ({ kind: "DBInstance", namespace: "apps", name, uid: `i-${name}` });
const live = (name: string) => getIfExists<RecordObject>(kube, objectPath(configMapType, ns, name));

test("two replicas recording uses of one object at once: both are kept", async () => {
  const a = new ReferenceUses(store);
  const b = new ReferenceUses(store);
  const where = { account: "111111111111", region: "us-east-1" };
  await Promise.all([
    a.record(target, referrer("one"), "spec.dbSubnetGroupRef", where),
    b.record(target, referrer("two"), "spec.dbSubnetGroupRef", where),
  ]);
  const uses = await a.of(target.uid);
  assert.deepEqual([...uses.keys()].sort(), ["i-one", "i-two"]);
  assert.equal(uses.get("i-one")?.name, "one");
  assert.equal(uses.get("i-one")?.account, "111111111111");
  const record = await live(referrersRecordName(target.uid));
  assert.equal(record?.metadata.labels?.["crossrole.dev/record"], "referrers");
  assert.equal(record?.metadata.annotations?.["crossrole.dev/referenced"], "DBSubnetGroup net/shared");
});

test("a use the cache already holds is not written again; a moved one is", async () => {
  const uses = new ReferenceUses(store);
  await waitFor(() => store.cached(referrersRecordName(target.uid))?.data?.["i-one"] !== undefined, {
    what: "the record cached",
    timeoutMs: 5_000,
  });
  writes.length = 0;
  await uses.record(target, referrer("one"), "spec.dbSubnetGroupRef", {
    account: "111111111111",
    region: "us-east-1",
  });
  assert.deepEqual(writes, []);
  await uses.record(target, referrer("one"), "spec.dbSubnetGroupRef", {
    account: "111111111111",
    region: "eu-west-1",
  });
  assert.equal(writes.length, 1);
  assert.equal((await uses.of(target.uid)).get("i-one")?.region, "eu-west-1");
});

test("a referrer's uses go everywhere but where it still refers; a released object's record goes", async () => {
  const uses = new ReferenceUses(store);
  const other = { ...target, name: "other", uid: "g-2" };
  await uses.record(other, referrer("one"), "spec.dbSubnetGroupRef", { account: "1", region: "r" });
  await waitFor(() => store.list("referrers").length === 2, {
    what: "both records cached",
    timeoutMs: 5_000,
  });
  await uses.forgetReferrer("i-one", new Set(["g-2"]));
  assert.deepEqual([...(await uses.of("g-1")).keys()], ["i-two"]);
  assert.deepEqual([...(await uses.of("g-2")).keys()], ["i-one"]);
  await waitFor(() => store.cached(referrersRecordName("g-2")) !== undefined, {
    what: "g-2",
    timeoutMs: 5_000,
  });
  await uses.forgetReferenced("g-2");
  assert.equal(await live(referrersRecordName("g-2")), undefined);
  // Removing a key from a record that does not exist creates nothing.
  await store.put("crossrole-referrers-none", "referrers", { x: null });
  assert.equal(await live("crossrole-referrers-none"), undefined);
});

test("the administrator's ConfigMaps in the namespace are never records", async () => {
  assert.equal(store.cached("ack-role-account-map"), undefined);
  assert.ok(store.list("referrers").every((r) => r.metadata.name.startsWith("crossrole-referrers-")));
  assert.ok(await live("ack-role-account-map"), "untouched");
});

test("owned objects (an untaggable object's owner): one request to record a new one, never another live owner's, a retained or earlier namesake's replaced, forgotten and retained as the resource goes", async () => {
  const records = new OwnedObjects(store);
  const alias = {
    kind: "kms.services.k8s.aws/Alias",
    account: "111111111111",
    region: "us-east-1",
    identifier: "alias/ledger",
  };
  const owner = { kind: "Alias", namespace: "shop", name: "ledger", uid: "a-1" };
  writes.length = 0;
  await records.claim(owner, alias);
  assert.deepEqual(writes, [`POST /api/v1/namespaces/${ns}/configmaps`], "a new record: one create");
  // Right after it, before the cache may show it: this process's own record answers.
  assert.equal((await records.tagsOf(alias))["services.k8s.aws/owner-uid"], "a-1");
  const stored = await live(ownedRecordName(alias));
  assert.equal(stored?.metadata.labels?.["crossrole.dev/record"], "owned");

  // Another live resource's record is never overwritten.
  const other = { kind: "Alias", namespace: "web", name: "ledger", uid: "b-1" };
  await assert.rejects(records.claim(other, alias), /recorded as Alias\/shop\/ledger's \(uid a-1\)/);
  assert.equal(ownedEntryOf(await live(ownedRecordName(alias)))?.owner.uid, "a-1");

  // An earlier namesake's (its finalizer removed by hand: gone) is replaced by the new one.
  const again = { ...owner, uid: "a-2" };
  await records.claim(again, alias);
  assert.equal(ownedEntryOf(await live(ownedRecordName(alias)))?.owner.uid, "a-2");

  // Retained: the record stays, marked; then another resource may take the name (made anew).
  await waitFor(() => store.cached(ownedRecordName(alias)) !== undefined, { what: "the record cached" });
  await records.retain("a-2");
  const retained = ownedEntryOf(await live(ownedRecordName(alias)));
  assert.match(String(retained?.retained), /^\d{4}-/);
  await records.claim(other, alias);
  assert.equal(ownedEntryOf(await live(ownedRecordName(alias)))?.owner.uid, "b-1");

  // Forgotten with its resource, whether or not the cache shows it yet.
  await records.forget("b-1", alias);
  assert.equal(await live(ownedRecordName(alias)), undefined);
  assert.deepEqual(await records.tagsOf(alias), {}, "no one's");
});
