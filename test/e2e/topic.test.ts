// SNS Topics end to end with the real controller process: a Topic in a namespace whose CARM
// owner-account-id maps to 111111111111 lands in that account (checked in the emulator with
// that account's own credentials), with ARN, account and owner in status; out-of-band drift is
// corrected at the Topic resync; a spec change is applied; deletion policy delete and retain;
// adoption of an untagged existing topic; an invalid spec is ACK.Terminal naming the field; an
// immutable change is rejected by the apiserver; and spec.identityRef to an AWSRoleIdentity
// places a topic in a second account.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateTopicCommand,
  GetTopicAttributesCommand,
  ListTagsForResourceCommand,
  SetTopicAttributesCommand,
  SNSClient,
} from "@aws-sdk/client-sns";
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
const finalizer = "finalizers.sns.services.k8s.aws/Topic";
const resyncSeconds = 3;
const centralRole = `arn:aws:iam::${Y}:role/central-it`;

let e2e: E2E;
let endpoint: string;

function topic(
  ns: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "sns.services.k8s.aws/v1alpha1",
    kind: "Topic",
    metadata: { name, namespace: ns, ...metadata },
    spec: { name: `${ns}-${name}`, ...spec },
  } as KubeObject;
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  const mine = ["sns-x", "sns-adopt", "sns-ref"];
  await e2e.apply([
    namespace("ack-system"),
    namespace("sns-x", { [ownerAccount]: X }),
    namespace("sns-adopt", { [ownerAccount]: X }),
    namespace("sns-ref"),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/sns-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: mine } }),
    identity("AWSRoleIdentity", "central-it", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: centralRole,
      allowedNamespaces: { list: ["sns-ref"] },
    }),
  ]);
  await e2e.startController([`--reconcile-resource-resync-seconds=Topic=${resyncSeconds}`]);
});
after(() => e2e?.stop());

/** A client acting as `account` itself (an inspector, or an out-of-band change). */
const snsAs = (account: string) => clientAs(SNSClient, endpoint, account);

const arnIn = (account: string, name: string) => `arn:aws:sns:${region}:${account}:${name}`;

/** The topic's attributes as `account` reads them; undefined when it has no such topic. */
async function attributesIn(account: string, name: string): Promise<Record<string, string> | undefined> {
  try {
    const out = await (await snsAs(account)).send(
      new GetTopicAttributesCommand({ TopicArn: arnIn(account, name) }),
    );
    return out.Attributes ?? {};
  } catch (err) {
    if ((err as { name?: string }).name === "NotFoundException") return undefined;
    throw err;
  }
}

async function tagsIn(
  account: string,
  name: string,
): Promise<{ user: Record<string, string>; ownerUid?: string }> {
  const out = await (await snsAs(account)).send(
    new ListTagsForResourceCommand({ ResourceArn: arnIn(account, name) }),
  );
  const all = Object.fromEntries((out.Tags ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
  const user = Object.fromEntries(Object.entries(all).filter(([k]) => !isReservedTagKey(k)));
  const ownerUid = all["services.k8s.aws/owner-uid"];
  return ownerUid === undefined ? { user } : { user, ownerUid };
}

const synced = (ns: string, name: string) =>
  waitForResourceCondition(e2e.kube, "Topic", ns, name, "ACK.ResourceSynced", "True");

const patchSpec = (ns: string, name: string, spec: Record<string, unknown>) =>
  patchResource(e2e.kube, "Topic", ns, name, { spec });

const deleteTopicObject = (ns: string, name: string) => deleteResourceAndWait(e2e.kube, "Topic", ns, name);

test("CARM: a Topic in a namespace mapped to 111111111111 lands there, tagged, with ARN, account, owner and topicARN in status", async () => {
  await e2e.apply([
    topic("sns-x", "orders", { displayName: "Orders", tags: [{ key: "team", value: "shop" }] }),
  ]);
  const t = await synced("sns-x", "orders");
  const name = "sns-x-orders";
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(t.status?.ackResourceMetadata?.region, region);
  assert.equal(t.status?.ackResourceMetadata?.arn, arnIn(X, name));
  assert.equal((t.status as Record<string, unknown> | undefined)?.["owner"], X);
  assert.equal(
    (t.status as Record<string, unknown> | undefined)?.["topicARN"],
    arnIn(X, name),
    "ACK's status.topicARN",
  );
  assert.equal(condition(t, "Ready")?.status, "True");
  assert.ok(t.metadata.finalizers?.includes(finalizer));

  const attributes = await attributesIn(X, name);
  assert.equal(attributes?.["DisplayName"], "Orders");
  assert.deepEqual(await tagsIn(X, name), { user: { team: "shop" }, ownerUid: t.metadata.uid });
  assert.equal(await attributesIn(controllerAccount, name), undefined, "nothing in the controller's account");
  assert.equal(await attributesIn(Y, name), undefined);
  // SNS's default access policy is late-initialised into the spec (as ACK does).
  const settled = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "Topic", "sns-x", "orders");
      return typeof r?.spec?.["policy"] === "string" ? r : undefined;
    },
    { what: "spec.policy late-initialised", timeoutMs: 20_000 },
  );
  assert.match(String(settled.spec?.["policy"]), /Statement/);
});

test("drift: a displayName changed out of band is corrected at the Topic resync", async () => {
  const name = "sns-x-orders";
  await synced("sns-x", "orders");
  await (await snsAs(X)).send(
    new SetTopicAttributesCommand({
      TopicArn: arnIn(X, name),
      AttributeName: "DisplayName",
      AttributeValue: "oob",
    }),
  );
  assert.equal((await attributesIn(X, name))?.["DisplayName"], "oob");
  await waitFor(async () => (await attributesIn(X, name))?.["DisplayName"] === "Orders", {
    what: "DisplayName back to Orders",
    timeoutMs: resyncSeconds * 1000 + 15_000,
  });
});

test("a spec change is applied: displayName and tags, ownership tags kept", async () => {
  const name = "sns-x-orders";
  await patchSpec("sns-x", "orders", {
    displayName: "Orders v2",
    tags: [
      { key: "team", value: "platform" },
      { key: "tier", value: "gold" },
    ],
  });
  await waitFor(async () => (await attributesIn(X, name))?.["DisplayName"] === "Orders v2", {
    what: "DisplayName Orders v2",
    timeoutMs: 20_000,
  });
  const t = await getResource(e2e.kube, "Topic", "sns-x", "orders");
  await waitFor(
    async () => {
      const tags = await tagsIn(X, name);
      return tags.user["team"] === "platform" && tags.user["tier"] === "gold" ? tags : undefined;
    },
    { what: "tags applied", timeoutMs: 20_000 },
  );
  assert.deepEqual(await tagsIn(X, name), {
    user: { team: "platform", tier: "gold" },
    ownerUid: t?.metadata.uid,
  });
});

test("an immutable change is rejected by the apiserver: spec.name and spec.fifoTopic", async () => {
  for (const spec of [{ name: "sns-x-renamed" }, { fifoTopic: "true", name: "sns-x-orders.fifo" }]) {
    await assert.rejects(
      () => patchSpec("sns-x", "orders", spec),
      (err: unknown) => {
        assert.ok(err instanceof KubeApiError, String(err));
        assert.equal(err.status, 422);
        assert.match(err.message, /name is immutable/);
        return true;
      },
    );
  }
  const t = await getResource(e2e.kube, "Topic", "sns-x", "orders");
  assert.equal(t?.spec?.["name"], "sns-x-orders");
});

test("an invalid spec the apiserver cannot judge (policy not JSON) is ACK.Terminal naming the field; nothing in AWS", async () => {
  await e2e.apply([topic("sns-x", "bad-policy", { policy: "{not json" })]);
  const t = await waitForResourceCondition(e2e.kube, "Topic", "sns-x", "bad-policy", "ACK.Terminal", "True");
  assert.match(condition(t, "ACK.Terminal")?.message ?? "", /spec\.policy: policy must be a JSON document/);
  assert.equal(await attributesIn(X, "sns-x-bad-policy"), undefined);
  // Fixing the spec proceeds.
  await patchSpec("sns-x", "bad-policy", { policy: null });
  await synced("sns-x", "bad-policy");
  assert.ok(await attributesIn(X, "sns-x-bad-policy"));
  await deleteTopicObject("sns-x", "bad-policy");
});

test("deletion policy delete (the default) deletes the topic in its account", async () => {
  await e2e.apply([topic("sns-x", "doomed")]);
  await synced("sns-x", "doomed");
  assert.ok(await attributesIn(X, "sns-x-doomed"));
  await deleteTopicObject("sns-x", "doomed");
  assert.equal(await attributesIn(X, "sns-x-doomed"), undefined);
  await waitForEvent(e2e.kube, "sns-x", "Topic", "doomed", "Deleted", new RegExp(`in account ${X}`));
});

test("deletion policy retain leaves the topic in AWS", async () => {
  await e2e.apply([
    topic("sns-x", "kept", {}, { annotations: { "services.k8s.aws/deletion-policy": "retain" } }),
  ]);
  await synced("sns-x", "kept");
  await deleteTopicObject("sns-x", "kept");
  assert.ok(await attributesIn(X, "sns-x-kept"), "sns-x-kept still in account X");
  await waitForEvent(e2e.kube, "sns-x", "Topic", "kept", "Retained", /deletion policy is retain/);
});

test("adoption: an untagged existing topic is adopted with adoption-policy adopt — spec from AWS, tagged as ours, not recreated", async () => {
  const name = "sns-adopt-legacy";
  const created = await (await snsAs(X)).send(
    new CreateTopicCommand({ Name: name, Attributes: { DisplayName: "Legacy" } }),
  );
  assert.equal(created.TopicArn, arnIn(X, name));
  await e2e.apply([
    topic(
      "sns-adopt",
      "legacy",
      { displayName: "Wish" },
      { annotations: { "services.k8s.aws/adoption-policy": "adopt" } },
    ),
  ]);
  const t = await synced("sns-adopt", "legacy");
  assert.equal(t.status?.ackResourceMetadata?.arn, arnIn(X, name));
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, X);
  await waitForEvent(e2e.kube, "sns-adopt", "Topic", "legacy", "Adopted", new RegExp(`${name}.*${X}`));
  const adopted = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "Topic", "sns-adopt", "legacy");
      return r?.spec?.["displayName"] === "Legacy" ? r : undefined;
    },
    { what: "spec.displayName taken from AWS (strict adopt)", timeoutMs: 20_000 },
  );
  assert.equal((await attributesIn(X, name))?.["DisplayName"], "Legacy", "AWS is not changed by adopting");
  assert.equal((await tagsIn(X, name)).ownerUid, adopted.metadata.uid, "adopting tags it as this object's");
  const reasons = (await eventsAbout(e2e.kube, "sns-adopt", "Topic", "legacy")).map((e) => e.reason);
  assert.ok(!reasons.includes("Created"), reasons.join(","));
});

test("an existing untagged topic without an adoption policy is AlreadyExists, and is left alone", async () => {
  const name = "sns-adopt-taken";
  await (await snsAs(X)).send(new CreateTopicCommand({ Name: name, Attributes: { DisplayName: "Theirs" } }));
  await e2e.apply([topic("sns-adopt", "taken", { displayName: "Mine" })]);
  const t = await waitForResourceCondition(
    e2e.kube,
    "Topic",
    "sns-adopt",
    "taken",
    "ACK.Terminal",
    "True",
    "AlreadyExists",
  );
  assert.match(condition(t, "ACK.Terminal")?.message ?? "", /sns-adopt-taken/);
  assert.equal((await attributesIn(X, name))?.["DisplayName"], "Theirs");
  assert.deepEqual(await tagsIn(X, name), { user: {} });
});

test("spec.identityRef to an AWSRoleIdentity places the topic in that role's account", async () => {
  await e2e.apply([
    topic("sns-ref", "billing", { identityRef: { kind: "AWSRoleIdentity", name: "central-it" } }),
  ]);
  const t = await synced("sns-ref", "billing");
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, Y);
  assert.equal(t.status?.ackResourceMetadata?.arn, arnIn(Y, "sns-ref-billing"));
  assert.equal(t.status?.ackResourceMetadata?.identity?.["source"], "identityRef");
  assert.equal(t.status?.ackResourceMetadata?.identity?.["roleARN"], centralRole);
  assert.ok(await attributesIn(Y, "sns-ref-billing"));
  assert.equal(await attributesIn(X, "sns-ref-billing"), undefined);
  assert.equal(await attributesIn(controllerAccount, "sns-ref-billing"), undefined);
});
