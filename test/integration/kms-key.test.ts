// The Key kind — a declaration served by the generic runtime (src/services/declared-kind/) — against
// the AWS emulator, calls checked on the wire through the recording proxy. A key is named by the ID
// KMS assigns (runtime.assigned): the create answers it, and every other call names the key by it
// (the spec given `withId`, never the user's); nothing is read without one; the tag search reads
// each key's tags and finds only the keys tagged so, in the client's own account. The description
// by UpdateKeyDescription (cleared when removed), the key policy by PutKeyPolicy (kept when left
// out), rotation on and off; tags by the key; deleted, the key is scheduled with the pending window
// and, pending deletion, is none. (KMS refuses to schedule a key pending deletion with
// KMSInvalidStateException, which the runtime then reads as gone; moto schedules it again.)
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DescribeKeyCommand, type KMSClient } from "@aws-sdk/client-kms";
import { kmsClientFactory } from "../../src/services/kms/client.ts";
import { pendingWindowAnnotation, keyService as service } from "../../src/services/kms/key.ts";
import { noSecrets } from "../../src/services/service-module.ts";
import { type AssignedKindHarness, assignedKindHarness } from "../support/assigned-kind.ts";
import { type AccountClient, type WireCalls, writesOnly } from "../support/two-accounts.ts";

const region = "us-east-1";
let counter = 0;
type Client = AccountClient<KMSClient>;
let h: AssignedKindHarness<KMSClient>;
let calls: WireCalls;
let mine: Client;
let other: Client;

before(async () => {
  // KMS's client as the pool builds it (client.ts): CreateKey sent at most once per call.
  h = await assignedKindHarness({
    label: "kms-key",
    region,
    kind: "Key",
    namespace: "shop",
    factory: kmsClientFactory,
    service,
  });
  ({ calls, mine, other } = h.accounts);
});

after(() => h?.accounts.close());

const assigned = () => h.assigned();
const ownerOf = (uid: string) => h.ownerOf(uid);
/** Creates a key as `uid`'s; the spec naming it. */
const made = (desired: Record<string, unknown>, uid = `uid-key-${process.pid}-${++counter}`) =>
  h.made(desired, uid);
const observed = (client: Client, s: Record<string, unknown>) => h.observed(client, s);

function spec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ description: "the shop's key", ...extra });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

describe("Key through the generic runtime", () => {
  test("create: one CreateKey with the description, the tags and the ownership tags, answering the ID; nothing is read before there is one", async () => {
    const desired = spec({ tags: [{ tagKey: "team", tagValue: "shop" }] });
    assert.equal(service.identifier(desired), "", "no ID in a spec");
    const none = await calls.during(async () =>
      assert.deepEqual(await service.read(mine, desired, {}), { found: false }),
    );
    assert.deepEqual(none, [], "nothing to name, nothing read");

    const sent = await calls.during(() => made(desired));
    assert.deepEqual(sent, ["CreateKey"]);
    const input = calls.input("CreateKey");
    assert.equal(input["Description"], "the shop's key");
    assert.equal(input["KeyId"], undefined, "KMS assigns the ID");
    const tags = JSON.stringify(input["Tags"]);
    assert.ok(tags.includes('"TagKey":"team"') && tags.includes("uid-key-"), tags);
  });

  test("read by the ID: ACK's status, the policy, rotation and tags; the ARN names the key in the account", async () => {
    const { named, id } = await made(spec({ tags: [{ tagKey: "team", tagValue: "shop" }] }));
    assert.equal(service.identifier(named), id);
    const read = await calls.during(() => observed(mine, named));
    assert.deepEqual(read.sort(), ["DescribeKey", "GetKeyRotationStatus", "ListResourceTags"].sort());
    assert.deepEqual(calls.input("DescribeKey"), { KeyId: id });
    const o = await observed(mine, named);
    assert.equal(o.fields["description"], "the shop's key");
    assert.equal(o.fields["enableKeyRotation"], false);
    assert.deepEqual(
      (o.fields["tags"] as { tagKey: string }[]).find((t) => t.tagKey === "team"),
      { tagKey: "team", tagValue: "shop" },
      "tags in ACK's shape",
    );
    assert.equal(o.tags["team"], "shop");
    assert.equal(o.arn, `arn:aws:kms:${region}:${mine.account}:key/${id}`);
    assert.equal(service.arn(named, region, mine.account), o.arn);
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(status["keyID"], id, "ACK's keyID");
    assert.equal(status["keyState"], "Enabled");
    assert.ok(service.parseStatus(status).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(named, o), [], "nothing differs right after the create");
    assert.equal(
      service.specFromObserved(o, named)["keyID"],
      undefined,
      "an adopted spec never holds the ID",
    );
  });

  test("description, policy and rotation updated by their own calls, naming the key by its ID", async () => {
    const { named, id } = await made(spec());
    const policy = JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { AWS: `arn:aws:iam::${mine.account}:root` },
          Action: "kms:*",
          Resource: "*",
        },
      ],
    });
    const desired = { ...named, description: "renamed", policy, enableKeyRotation: true };
    const o = await observed(mine, named);
    assert.deepEqual([...service.diff(desired, o)].sort(), [
      "spec.description",
      "spec.enableKeyRotation",
      "spec.policy",
    ]);
    const sent = await calls.during(() => service.update(mine, desired, o, ownerOf("x"), {}, noSecrets));
    assert.deepEqual(writesOnly(sent).sort(), ["EnableKeyRotation", "PutKeyPolicy", "UpdateKeyDescription"]);
    assert.deepEqual(calls.input("UpdateKeyDescription"), { KeyId: id, Description: "renamed" });
    const after1 = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, after1), [], "read back as set");

    // Left out: the description cleared, rotation off, the policy kept.
    const { description: _d, enableKeyRotation: _r, policy: _p, ...bare } = desired;
    const sent2 = await calls.during(() => service.update(mine, bare, after1, ownerOf("x"), {}, noSecrets));
    assert.deepEqual(writesOnly(sent2).sort(), ["DisableKeyRotation", "UpdateKeyDescription"]);
    assert.deepEqual(calls.input("UpdateKeyDescription"), { KeyId: id, Description: "" });
    const after2 = await observed(mine, bare);
    assert.deepEqual(service.diff(bare, after2), []);
    assert.equal(after2.fields["enableKeyRotation"], false);
  });

  test("tags: added, changed and removed by TagResource and UntagResource, the ownership tags kept", async () => {
    const { named, id } = await made(spec({ tags: [{ tagKey: "team", tagValue: "shop" }] }));
    const desired = {
      ...named,
      tags: [
        { tagKey: "team", tagValue: "orders" },
        { tagKey: "env", tagValue: "prod" },
      ],
    };
    const o = await observed(mine, named);
    assert.deepEqual(service.diff(desired, o), ["spec.tags"]);
    const sent = await calls.during(() => service.update(mine, desired, o, ownerOf("x"), {}, noSecrets));
    assert.deepEqual(writesOnly(sent), ["TagResource"]);
    assert.equal(calls.input("TagResource")["KeyId"], o.arn);
    const tagged = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, tagged), []);
    assert.equal(tagged.tags["env"], "prod");

    const { tags: _t, ...untagged } = desired;
    const sent2 = await calls.during(() =>
      service.update(mine, untagged, tagged, ownerOf("x"), {}, noSecrets),
    );
    assert.deepEqual(writesOnly(sent2), ["UntagResource"]);
    const left = await observed(mine, untagged);
    assert.deepEqual(service.diff(untagged, left), []);
    assert.equal(left.tags["team"], undefined);
    assert.ok(left.tags["services.k8s.aws/owner-uid"], "the ownership tags stay");
    assert.equal(id.length, 36);
  });

  test("a CreateKey whose answer is lost is not sent again by the SDK: the key KMS made is the only one, found by its tags", async () => {
    const uid = `uid-key-lost-${process.pid}`;
    const remove = h.accounts.proxy.addFault({
      name: "answer lost",
      match: (r) => r.action === "CreateKey" && r.body.includes(uid),
      respond: "forward-then-reset",
    });
    try {
      const sent = await calls.during(() =>
        assert.rejects(service.create(mine, spec(), region, ownerOf(uid), {}, noSecrets)),
      );
      assert.deepEqual(sent, ["CreateKey"], "one attempt, though the SDK retries a reset connection");
    } finally {
      remove();
    }
    const found = await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {});
    assert.equal(found.length, 1, "KMS made it once");
  });

  test("findTagged: only the keys tagged with that value, in the client's own account", async () => {
    const { id, uid } = await made(spec());
    await made(spec());
    const found = await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {});
    assert.deepEqual(found, [id]);
    assert.deepEqual(await assigned().findTagged(other, "services.k8s.aws/owner-uid", uid, {}), []);
    assert.deepEqual(await assigned().findTagged(mine, "services.k8s.aws/owner-uid", "nobody", {}), []);
  });

  test("another account's client finds nothing by the ID", async () => {
    const { named } = await made(spec());
    assert.deepEqual(await service.read(other, named, {}), { found: false });
  });

  test("delete: ScheduleKeyDeletion with the pending window (ACK's annotation); pending deletion, the key is none", async () => {
    const { named, id } = await made(spec());
    const sent = await calls.during(() => service.delete(mine, named, {}, {}));
    assert.deepEqual(writesOnly(sent), ["ScheduleKeyDeletion"]);
    assert.deepEqual(calls.input("ScheduleKeyDeletion"), { KeyId: id, PendingWindowInDays: 7 });
    const state = await mine.sdk.send(new DescribeKeyCommand({ KeyId: id }));
    assert.equal(state.KeyMetadata?.KeyState, "PendingDeletion");
    assert.deepEqual(await service.read(mine, named, {}), { found: false }, "pending deletion is none");

    const other2 = await made(spec());
    await calls.during(() => service.delete(mine, other2.named, {}, { [pendingWindowAnnotation]: "30" }));
    assert.equal(calls.input("ScheduleKeyDeletion")["PendingWindowInDays"], 30);
    await assert.rejects(
      service.delete(mine, (await made(spec())).named, {}, { [pendingWindowAnnotation]: "3" }),
      /pending-window-in-days: "3" is not a whole number of days from 7 to 30/,
    );
  });
});
