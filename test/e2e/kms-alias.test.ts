// Alias — KMS's, which AWS cannot tag — end to end with the real controller process. Whose an alias
// is, the controller's own record in the system namespace says (src/controller/records/
// owned-objects.ts), never the alias nor the tenant's status:
//   - an Alias whose targetKeyRef names a Key not made yet waits (ACK.ReferencesResolved False, as
//     ACK says it); then the alias lands in the namespace's account pointing at the key, the
//     record names the resource; another Key through targetKeyRef moves it (UpdateAlias);
//     deleted, the alias and the record go;
//   - an alias made outside crossrole is not taken (nothing written to it) until adoption-policy
//     adopt, which records it; retained on deletion, the alias and its record stay (marked
//     retained, as tags would stay): another resource naming it is NameTaken;
//   - an operator who deletes the record leaves an alias no one owns: the resource refuses to
//     touch it and says so, until adopted again;
//   - an Alias let go by hand (finalizer removed) leaves its record: a new Alias of its name finds
//     the alias an earlier object's (AlreadyExists) and adopts it only with an adoption policy;
//   - a CreateAlias whose answer is lost (AWS made it) is found again as the resource's own
//     interrupted create, by its sealed intent and KMS's CreationDate, and recorded.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CreateAliasCommand, CreateKeyCommand, KMSClient, ListAliasesCommand } from "@aws-sdk/client-kms";
import { clientAs } from "../../src/local-stack/accounts.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { kmsAliasCreationDates } from "../support/kms-alias-dates.ts";
import {
  applyAppsInAccount,
  deleteResourceAndWait,
  type E2E,
  getResource,
  patchResource,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let proxy: AwsProxy;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  proxy = await startAwsProxy(endpoint, kmsAliasCreationDates());
  await applyAppsInAccount(e2e, X);
  await e2e.startController([], { awsEndpoint: proxy.endpoint });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

const kms = async () => clientAs(KMSClient, endpoint, X);

async function aliasIn(name: string) {
  const listed = await (await kms()).send(new ListAliasesCommand({}));
  return listed.Aliases?.find((a) => a.AliasName === name);
}

interface RecordList {
  items: { metadata: { name: string }; data?: Record<string, string> }[];
}

/** The controller's records of owned aliases naming `identifier`. */
async function recordsOf(identifier: string) {
  const list = await e2e.kube.request<RecordList>({
    method: "GET",
    path: "/api/v1/namespaces/ack-system/configmaps",
    query: { labelSelector: "crossrole.dev/record=owned" },
  });
  return list.items
    .map((r) => ({ name: r.metadata.name, entry: JSON.parse(r.data?.["owner.json"] ?? "{}") }))
    .filter((r) => r.entry.object?.identifier === identifier);
}

const key = (name: string): KubeObject =>
  ({
    apiVersion: "kms.services.k8s.aws/v1alpha1",
    kind: "Key",
    metadata: { name, namespace: "apps" },
    spec: { description: `apps ${name}` },
  }) as KubeObject;

const alias = (name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}) =>
  ({
    apiVersion: "kms.services.k8s.aws/v1alpha1",
    kind: "Alias",
    metadata: { name, namespace: "apps", annotations },
    spec: { name: `apps-${name}`, ...spec },
  }) as KubeObject;

test("an Alias waits for its Key, lands pointing at it and is recorded as the resource's; another Key moves it; deleted, alias and record go", async () => {
  await e2e.apply([alias("ledger", { targetKeyRef: { from: { name: "ledger-key" } } })]);
  // ACK's condition for references says it too, as ACK's tests read it.
  await waitForResourceCondition(
    e2e.kube,
    "Alias",
    "apps",
    "ledger",
    "ACK.ReferencesResolved",
    "False",
    "ReferenceNotFound",
  );
  assert.equal(await aliasIn("alias/apps-ledger"), undefined, "nothing made while the key is missing");

  await e2e.apply([key("ledger-key"), key("ledger-key-2")]);
  const first = await waitForSynced(e2e.kube, "Key", "apps", "ledger-key");
  const r = await waitForSynced(e2e.kube, "Alias", "apps", "ledger");
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.conditions?.find((c) => c.type === "ACK.ReferencesResolved")?.status, "True");
  assert.equal(r.status?.ackResourceMetadata?.arn, `arn:aws:kms:us-east-1:${X}:alias/apps-ledger`);
  const made = await aliasIn("alias/apps-ledger");
  assert.equal(made?.TargetKeyId, (first.status as Record<string, unknown>)["keyID"]);
  const [record, ...more] = await recordsOf("alias/apps-ledger");
  assert.equal(more.length, 0, "one record per alias");
  assert.deepEqual(record?.entry.owner, {
    kind: "Alias",
    namespace: "apps",
    name: "ledger",
    uid: r.metadata.uid,
  });
  assert.deepEqual(record?.entry.object, {
    kind: "kms.services.k8s.aws/Alias",
    account: X,
    region: "us-east-1",
    identifier: "alias/apps-ledger",
  });

  const second = await waitForSynced(e2e.kube, "Key", "apps", "ledger-key-2");
  await patchResource(e2e.kube, "Alias", "apps", "ledger", {
    spec: { targetKeyRef: { from: { name: "ledger-key-2" } } },
  });
  const secondId = (second.status as Record<string, unknown>)["keyID"];
  await waitForSynced(e2e.kube, "Alias", "apps", "ledger", 2);
  assert.equal((await aliasIn("alias/apps-ledger"))?.TargetKeyId, secondId, "pointed at the other key");

  await deleteResourceAndWait(e2e.kube, "Alias", "apps", "ledger");
  assert.equal(await aliasIn("alias/apps-ledger"), undefined, "deleted in AWS");
  assert.deepEqual(await recordsOf("alias/apps-ledger"), [], "its record gone with it");
});

test("an alias made outside crossrole is not touched until adopted; adopted, it is recorded; retained on deletion, alias and record stay, and another resource naming it is NameTaken", async () => {
  const client = await kms();
  const theirs = (await client.send(new CreateKeyCommand({ Description: "made by hand" }))).KeyMetadata
    ?.KeyId;
  const ours = (await client.send(new CreateKeyCommand({ Description: "the resource's" }))).KeyMetadata
    ?.KeyId;
  await client.send(new CreateAliasCommand({ AliasName: "alias/apps-found", TargetKeyId: theirs }));

  await e2e.apply([alias("found", { targetKeyID: ours })]);
  const refused = await waitForResourceCondition(e2e.kube, "Alias", "apps", "found", "ACK.Terminal", "True");
  assert.match(
    String(refused.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message),
    /not recorded as crossrole's|adoption-policy/,
  );
  assert.equal((await aliasIn("alias/apps-found"))?.TargetKeyId, theirs, "nothing written to it");
  assert.deepEqual(await recordsOf("alias/apps-found"), []);

  await patchResource(e2e.kube, "Alias", "apps", "found", {
    metadata: {
      annotations: {
        "services.k8s.aws/adoption-policy": "adopt-or-create",
        "services.k8s.aws/deletion-policy": "retain",
      },
    },
  });
  const adopted = await waitForSynced(e2e.kube, "Alias", "apps", "found");
  await waitForEvent(e2e.kube, "apps", "Alias", "found", "Adopted", /not recorded as crossrole's/);
  assert.equal((await aliasIn("alias/apps-found"))?.TargetKeyId, ours, "brought to the spec once adopted");
  assert.equal((await recordsOf("alias/apps-found"))[0]?.entry.owner.uid, adopted.metadata.uid);

  await deleteResourceAndWait(e2e.kube, "Alias", "apps", "found");
  assert.ok(await aliasIn("alias/apps-found"), "retained in AWS");
  // The record stays, marked retained, as tags would stay on a retained object: only a resource
  // of the same kind, namespace and name may adopt it again.
  const [kept, ...more] = await recordsOf("alias/apps-found");
  assert.equal(more.length, 0);
  assert.equal(kept?.entry.owner.uid, adopted.metadata.uid);
  assert.match(String(kept?.entry.retained), /^\d{4}-\d\d-\d\dT/);
  await e2e.apply([alias("other-name", { name: "apps-found", targetKeyID: ours })]);
  const taken = await waitForResourceCondition(
    e2e.kube,
    "Alias",
    "apps",
    "other-name",
    "ACK.Terminal",
    "True",
    "NameTaken",
  );
  assert.match(
    String(taken.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message),
    /Alias\/apps\/found/,
  );
});

test("an operator deletes the record: the resource refuses to touch an alias no one owns, and says so", async () => {
  const client = await kms();
  const keyId = (await client.send(new CreateKeyCommand({ Description: "k" }))).KeyMetadata?.KeyId;
  const other = (await client.send(new CreateKeyCommand({ Description: "k2" }))).KeyMetadata?.KeyId;
  await e2e.apply([alias("lost", { targetKeyID: keyId })]);
  await waitForSynced(e2e.kube, "Alias", "apps", "lost");
  const [record] = await recordsOf("alias/apps-lost");
  assert.ok(record);
  await e2e.kube.request({
    method: "DELETE",
    path: `/api/v1/namespaces/ack-system/configmaps/${record.name}`,
  });

  // A change now would write to an alias crossrole can no longer say is this resource's.
  await patchResource(e2e.kube, "Alias", "apps", "lost", { spec: { targetKeyID: other } });
  const refused = await waitForResourceCondition(e2e.kube, "Alias", "apps", "lost", "ACK.Terminal", "True");
  assert.match(
    String(refused.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message),
    /apps-lost/,
  );
  assert.equal((await aliasIn("alias/apps-lost"))?.TargetKeyId, keyId, "nothing written");
  assert.deepEqual(await recordsOf("alias/apps-lost"), []);
});

test("an Alias let go by hand (its finalizer removed) leaves its record; a new Alias of its name finds it an earlier object's, and adopts it only when told to", async () => {
  const client = await kms();
  const keyId = (await client.send(new CreateKeyCommand({ Description: "k" }))).KeyMetadata?.KeyId;
  await e2e.apply([alias("handed", { targetKeyID: keyId })]);
  const first = await waitForSynced(e2e.kube, "Alias", "apps", "handed");
  await patchResource(e2e.kube, "Alias", "apps", "handed", { metadata: { finalizers: null } });
  await deleteResourceAndWait(e2e.kube, "Alias", "apps", "handed");
  assert.ok(await aliasIn("alias/apps-handed"), "nothing deleted in AWS: crossrole was not asked");
  assert.equal((await recordsOf("alias/apps-handed"))[0]?.entry.owner.uid, first.metadata.uid);

  await e2e.apply([alias("handed", { targetKeyID: keyId })]);
  const again = await waitForResourceCondition(
    e2e.kube,
    "Alias",
    "apps",
    "handed",
    "ACK.Terminal",
    "True",
    "AlreadyExists",
  );
  assert.match(
    String(again.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message),
    new RegExp(`created by an earlier object of the same name \\(uid ${first.metadata.uid}\\)`),
  );
  await patchResource(e2e.kube, "Alias", "apps", "handed", {
    metadata: { annotations: { "services.k8s.aws/adoption-policy": "adopt-or-create" } },
  });
  const adopted = await waitForSynced(e2e.kube, "Alias", "apps", "handed");
  assert.notEqual(adopted.metadata.uid, first.metadata.uid);
  assert.equal(
    (await recordsOf("alias/apps-handed"))[0]?.entry.owner.uid,
    adopted.metadata.uid,
    "the record now names it",
  );
});

test("a CreateAlias whose answer is lost is found again as the resource's interrupted create and recorded", async () => {
  const client = await kms();
  const keyId = (await client.send(new CreateKeyCommand({ Description: "k" }))).KeyMetadata?.KeyId;
  // AWS makes the alias; the answer never reaches the controller (the connection drops).
  const remove = proxy.addFault({
    name: "lose CreateAlias's answer",
    match: (r) => r.action === "CreateAlias" && r.body.includes("apps-dropped"),
    respond: "forward-then-reset",
    times: 1,
  });
  try {
    await e2e.apply([alias("dropped", { targetKeyID: keyId })]);
    const r = await waitForSynced(e2e.kube, "Alias", "apps", "dropped");
    await waitForEvent(
      e2e.kube,
      "apps",
      "Alias",
      "dropped",
      "Tagged",
      /^Recorded Alias "alias\/apps-dropped" .* as this object's: AWS made it after the create intent, and the create's answer was lost$/,
    );
    assert.equal((await recordsOf("alias/apps-dropped"))[0]?.entry.owner.uid, r.metadata.uid);
    assert.equal(proxy.calls("CreateAlias").filter((c) => c.body.includes("apps-dropped")).length >= 1, true);
  } finally {
    remove();
  }
  assert.equal(
    (await getResource(e2e.kube, "Alias", "apps", "dropped"))?.metadata.deletionTimestamp,
    undefined,
  );
});
