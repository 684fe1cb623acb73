// SQS Queues end to end with the real controller process: a Queue in a namespace whose CARM
// owner-account-id maps to 111111111111 lands in that account (checked in the emulator with
// that account's own credentials), with ARN, account, queueURL and queueARN in status;
// out-of-band drift is corrected at the Queue resync; a spec change is applied; deletion policy
// delete and retain; adoption of an untagged existing queue; an invalid spec is ACK.Terminal
// naming the field; an immutable change is rejected by the apiserver; and spec.identityRef to
// an AWSRoleIdentity places a queue in a second account.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
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
const finalizer = "finalizers.sqs.services.k8s.aws/Queue";
const resyncSeconds = 3;
const centralRole = `arn:aws:iam::${Y}:role/central-it`;

let e2e: E2E;
let endpoint: string;

function queue(
  ns: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "sqs.services.k8s.aws/v1alpha1",
    kind: "Queue",
    metadata: { name, namespace: ns, ...metadata },
    spec: { queueName: `${ns}-${name}`, ...spec },
  } as KubeObject;
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  const mine = ["sqs-x", "sqs-adopt", "sqs-ref"];
  await e2e.apply([
    namespace("ack-system"),
    namespace("sqs-x", { [ownerAccount]: X }),
    namespace("sqs-adopt", { [ownerAccount]: X }),
    namespace("sqs-ref"),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/sqs-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: mine } }),
    identity("AWSRoleIdentity", "central-it", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: centralRole,
      allowedNamespaces: { list: ["sqs-ref"] },
    }),
  ]);
  await e2e.startController([`--reconcile-resource-resync-seconds=Queue=${resyncSeconds}`]);
});
after(() => e2e?.stop());

/** A client acting as `account` itself (an inspector, or an out-of-band change). */
const sqsAs = (account: string) => clientAs(SQSClient, endpoint, account);

const arnIn = (account: string, name: string) => `arn:aws:sqs:${region}:${account}:${name}`;

/** The queue's URL as `account` finds it by name; undefined when it has no such queue. */
async function urlIn(account: string, name: string): Promise<string | undefined> {
  try {
    return (await (await sqsAs(account)).send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  } catch (err) {
    if ((err as { name?: string }).name === "QueueDoesNotExist") return undefined;
    throw err;
  }
}

/** The queue's attributes as `account` reads them; undefined when it has no such queue. */
async function attributesIn(account: string, name: string): Promise<Record<string, string> | undefined> {
  const url = await urlIn(account, name);
  if (url === undefined) return undefined;
  const out = await (await sqsAs(account)).send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }),
  );
  return out.Attributes ?? {};
}

async function tagsIn(
  account: string,
  name: string,
): Promise<{ user: Record<string, string>; ownerUid?: string }> {
  const url = await urlIn(account, name);
  assert.ok(url, `${name} in ${account}`);
  const all = (await (await sqsAs(account)).send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags ?? {};
  const user = Object.fromEntries(Object.entries(all).filter(([k]) => !isReservedTagKey(k)));
  const ownerUid = all["services.k8s.aws/owner-uid"];
  return ownerUid === undefined ? { user } : { user, ownerUid };
}

const synced = (ns: string, name: string) =>
  waitForResourceCondition(e2e.kube, "Queue", ns, name, "ACK.ResourceSynced", "True");

const patchSpec = (ns: string, name: string, spec: Record<string, unknown>) =>
  patchResource(e2e.kube, "Queue", ns, name, { spec });

const deleteQueueObject = (ns: string, name: string) => deleteResourceAndWait(e2e.kube, "Queue", ns, name);

test("CARM: a Queue in a namespace mapped to 111111111111 lands there, tagged, with ARN, account, queueURL and queueARN in status", async () => {
  await e2e.apply([queue("sqs-x", "orders", { visibilityTimeout: "45", tags: { team: "shop" } })]);
  const q = await synced("sqs-x", "orders");
  const name = "sqs-x-orders";
  const status = q.status as Record<string, unknown> | undefined;
  assert.equal(q.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(q.status?.ackResourceMetadata?.region, region);
  assert.equal(q.status?.ackResourceMetadata?.arn, arnIn(X, name));
  assert.equal(status?.["queueARN"], arnIn(X, name));
  assert.equal(status?.["queueURL"], await urlIn(X, name));
  assert.match(String(status?.["queueURL"]), new RegExp(`/${X}/${name}$`));
  assert.equal(condition(q, "Ready")?.status, "True");
  assert.ok(q.metadata.finalizers?.includes(finalizer));

  const attributes = await attributesIn(X, name);
  assert.equal(attributes?.["VisibilityTimeout"], "45");
  assert.deepEqual(await tagsIn(X, name), { user: { team: "shop" }, ownerUid: q.metadata.uid });
  assert.equal(await attributesIn(controllerAccount, name), undefined, "nothing in the controller's account");
  assert.equal(await attributesIn(Y, name), undefined);
  // SQS's defaults are late-initialised into the spec (as ACK does).
  const settled = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "Queue", "sqs-x", "orders");
      return r?.spec?.["messageRetentionPeriod"] !== undefined ? r : undefined;
    },
    { what: "spec.messageRetentionPeriod late-initialised", timeoutMs: 20_000 },
  );
  assert.equal(settled.spec?.["messageRetentionPeriod"], "345600");
  assert.equal(settled.spec?.["delaySeconds"], "0");
  assert.equal(settled.spec?.["visibilityTimeout"], "45", "what the user set is kept");
});

test("drift: a visibilityTimeout changed out of band is corrected at the Queue resync", async () => {
  const name = "sqs-x-orders";
  await synced("sqs-x", "orders");
  const url = await urlIn(X, name);
  await (await sqsAs(X)).send(
    new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: "5" } }),
  );
  assert.equal((await attributesIn(X, name))?.["VisibilityTimeout"], "5");
  await waitFor(async () => (await attributesIn(X, name))?.["VisibilityTimeout"] === "45", {
    what: "VisibilityTimeout back to 45",
    timeoutMs: resyncSeconds * 1000 + 15_000,
  });
});

test("a spec change is applied: attributes and tags, ownership tags kept", async () => {
  const name = "sqs-x-orders";
  await patchSpec("sqs-x", "orders", {
    visibilityTimeout: "90",
    delaySeconds: "7",
    tags: { team: null, owner: "platform", tier: "gold" },
  });
  await waitFor(
    async () => {
      const a = await attributesIn(X, name);
      return a?.["VisibilityTimeout"] === "90" && a["DelaySeconds"] === "7";
    },
    { what: "VisibilityTimeout 90, DelaySeconds 7", timeoutMs: 20_000 },
  );
  const q = await getResource(e2e.kube, "Queue", "sqs-x", "orders");
  await waitFor(
    async () => {
      const tags = await tagsIn(X, name);
      return tags.user["owner"] === "platform" && !("team" in tags.user) ? tags : undefined;
    },
    { what: "tags applied", timeoutMs: 20_000 },
  );
  assert.deepEqual(await tagsIn(X, name), {
    user: { owner: "platform", tier: "gold" },
    ownerUid: q?.metadata.uid,
  });
});

test("an immutable change is rejected by the apiserver: spec.queueName and spec.fifoQueue", async () => {
  for (const [spec, message] of [
    [{ queueName: "sqs-x-renamed" }, /queueName is immutable/],
    [{ fifoQueue: "true", queueName: "sqs-x-orders.fifo" }, /queueName is immutable/],
  ] as const) {
    await assert.rejects(
      () => patchSpec("sqs-x", "orders", spec),
      (err: unknown) => {
        assert.ok(err instanceof KubeApiError, String(err));
        assert.equal(err.status, 422);
        assert.match(err.message, message);
        return true;
      },
    );
  }
  const q = await getResource(e2e.kube, "Queue", "sqs-x", "orders");
  assert.equal(q?.spec?.["queueName"], "sqs-x-orders");
});

test("an invalid spec the apiserver cannot judge (policy not JSON) is ACK.Terminal naming the field; nothing in AWS", async () => {
  await e2e.apply([queue("sqs-x", "bad-policy", { policy: "{not json" })]);
  const q = await waitForResourceCondition(e2e.kube, "Queue", "sqs-x", "bad-policy", "ACK.Terminal", "True");
  assert.match(condition(q, "ACK.Terminal")?.message ?? "", /spec\.policy: policy must be a JSON document/);
  assert.equal(await attributesIn(X, "sqs-x-bad-policy"), undefined);
  // Fixing the spec proceeds.
  await patchSpec("sqs-x", "bad-policy", { policy: null });
  await synced("sqs-x", "bad-policy");
  assert.ok(await attributesIn(X, "sqs-x-bad-policy"));
  await deleteQueueObject("sqs-x", "bad-policy");
});

test("ACK's FIFO manifest applies unchanged (deduplicationScope, fifoThroughputLimit) and its update reaches SQS", async () => {
  const name = "sqs-x-fifo-tp.fifo";
  await e2e.apply([
    queue("sqs-x", "fifo-tp", {
      queueName: name,
      fifoQueue: "true",
      deduplicationScope: "queue",
      fifoThroughputLimit: "perQueue",
    }),
  ]);
  await synced("sqs-x", "fifo-tp");
  const attributes = await attributesIn(X, name);
  assert.equal(attributes?.["DeduplicationScope"], "queue");
  assert.equal(attributes?.["FifoThroughputLimit"], "perQueue");
  await patchSpec("sqs-x", "fifo-tp", {
    deduplicationScope: "messageGroup",
    fifoThroughputLimit: "perMessageGroupId",
  });
  await waitFor(
    async () => {
      const a = await attributesIn(X, name);
      return a?.["DeduplicationScope"] === "messageGroup" && a["FifoThroughputLimit"] === "perMessageGroupId";
    },
    { what: "the high-throughput FIFO settings in SQS", timeoutMs: 20_000 },
  );
  await deleteQueueObject("sqs-x", "fifo-tp");
});

test("a kmsMasterKeyRef to a Key that does not exist waits for it, naming it; nothing in AWS (test/e2e/kms-key.test.ts fills one)", async () => {
  await e2e.apply([queue("sqs-x", "kms-ref", { kmsMasterKeyRef: { from: { name: "orders-key" } } })]);
  const q = await waitForResourceCondition(
    e2e.kube,
    "Queue",
    "sqs-x",
    "kms-ref",
    "ACK.Recoverable",
    "True",
    "ReferenceNotFound",
  );
  assert.match(
    condition(q, "ACK.Recoverable")?.message ?? "",
    /spec\.kmsMasterKeyRef names Key sqs-x\/orders-key, which does not exist yet: waiting for it/,
  );
  assert.equal(await attributesIn(X, "sqs-x-kms-ref"), undefined);
  await patchSpec("sqs-x", "kms-ref", { kmsMasterKeyRef: null });
  await synced("sqs-x", "kms-ref");
  await deleteQueueObject("sqs-x", "kms-ref");
});

test("deletion policy delete (the default) deletes the queue in its account", async () => {
  await e2e.apply([queue("sqs-x", "doomed")]);
  await synced("sqs-x", "doomed");
  assert.ok(await attributesIn(X, "sqs-x-doomed"));
  await deleteQueueObject("sqs-x", "doomed");
  assert.equal(await attributesIn(X, "sqs-x-doomed"), undefined);
  await waitForEvent(e2e.kube, "sqs-x", "Queue", "doomed", "Deleted", new RegExp(`in account ${X}`));
});

test("deletion policy retain leaves the queue in AWS", async () => {
  await e2e.apply([
    queue("sqs-x", "kept", {}, { annotations: { "services.k8s.aws/deletion-policy": "retain" } }),
  ]);
  await synced("sqs-x", "kept");
  await deleteQueueObject("sqs-x", "kept");
  assert.ok(await attributesIn(X, "sqs-x-kept"), "sqs-x-kept still in account X");
  await waitForEvent(e2e.kube, "sqs-x", "Queue", "kept", "Retained", /deletion policy is retain/);
});

test("adoption: an untagged existing queue is adopted with adoption-policy adopt — spec from AWS, tagged as ours, not recreated", async () => {
  const name = "sqs-adopt-legacy";
  await (await sqsAs(X)).send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { VisibilityTimeout: "77" },
      tags: { legacy: "yes" },
    }),
  );
  await e2e.apply([
    queue(
      "sqs-adopt",
      "legacy",
      { visibilityTimeout: "10" },
      { annotations: { "services.k8s.aws/adoption-policy": "adopt" } },
    ),
  ]);
  const q = await synced("sqs-adopt", "legacy");
  assert.equal(q.status?.ackResourceMetadata?.arn, arnIn(X, name));
  assert.equal(q.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal((q.status as Record<string, unknown> | undefined)?.["queueARN"], arnIn(X, name));
  await waitForEvent(e2e.kube, "sqs-adopt", "Queue", "legacy", "Adopted", new RegExp(`${name}.*${X}`));
  const adopted = await waitFor(
    async () => {
      const r = await getResource(e2e.kube, "Queue", "sqs-adopt", "legacy");
      return r?.spec?.["visibilityTimeout"] === "77" ? r : undefined;
    },
    { what: "spec.visibilityTimeout taken from AWS (strict adopt)", timeoutMs: 20_000 },
  );
  assert.deepEqual(adopted.spec?.["tags"], { legacy: "yes" });
  assert.equal((await attributesIn(X, name))?.["VisibilityTimeout"], "77", "AWS is not changed by adopting");
  assert.deepEqual(await tagsIn(X, name), { user: { legacy: "yes" }, ownerUid: adopted.metadata.uid });
  const reasons = (await eventsAbout(e2e.kube, "sqs-adopt", "Queue", "legacy")).map((e) => e.reason);
  assert.ok(!reasons.includes("Created"), reasons.join(","));
});

test("an existing untagged queue without an adoption policy is AlreadyExists, and is left alone", async () => {
  const name = "sqs-adopt-taken";
  await (await sqsAs(X)).send(
    new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: "33" } }),
  );
  // Same (default) attributes as the spec: SQS's CreateQueue would just return the URL.
  await e2e.apply([queue("sqs-adopt", "taken", { visibilityTimeout: "33" })]);
  const q = await waitForResourceCondition(
    e2e.kube,
    "Queue",
    "sqs-adopt",
    "taken",
    "ACK.Terminal",
    "True",
    "AlreadyExists",
  );
  assert.match(condition(q, "ACK.Terminal")?.message ?? "", /sqs-adopt-taken/);
  assert.equal((await attributesIn(X, name))?.["VisibilityTimeout"], "33");
  assert.deepEqual(await tagsIn(X, name), { user: {} });
});

test("spec.identityRef to an AWSRoleIdentity places the queue in that role's account", async () => {
  await e2e.apply([
    queue("sqs-ref", "billing", { identityRef: { kind: "AWSRoleIdentity", name: "central-it" } }),
  ]);
  const q = await synced("sqs-ref", "billing");
  assert.equal(q.status?.ackResourceMetadata?.ownerAccountID, Y);
  assert.equal(q.status?.ackResourceMetadata?.arn, arnIn(Y, "sqs-ref-billing"));
  assert.equal((q.status as Record<string, unknown> | undefined)?.["queueARN"], arnIn(Y, "sqs-ref-billing"));
  assert.equal(q.status?.ackResourceMetadata?.identity?.["source"], "identityRef");
  assert.equal(q.status?.ackResourceMetadata?.identity?.["roleARN"], centralRole);
  assert.ok(await attributesIn(Y, "sqs-ref-billing"));
  assert.equal(await attributesIn(X, "sqs-ref-billing"), undefined);
  assert.equal(await attributesIn(controllerAccount, "sqs-ref-billing"), undefined);
});
