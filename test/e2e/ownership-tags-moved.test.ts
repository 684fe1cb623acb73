// Objects tagged by an earlier crossrole, whose ownership tags were crossrole.dev/owner and
// crossrole.dev/owner-uid (DESIGN §3.5): with the real controller process, each is still judged
// this object's own (Synced, never NameTaken or AlreadyExists), and on its next reconcile its
// tags move under services.k8s.aws/ — the old keys gone, the user's tags kept, one Event. For a
// Bucket (S3 replaces the whole tag set), a Queue (tag, then untag by key) and a Topic (by ARN).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PutBucketTaggingCommand, S3Client } from "@aws-sdk/client-s3";
import {
  ListTagsForResourceCommand,
  SNSClient,
  TagResourceCommand,
  UntagResourceCommand,
} from "@aws-sdk/client-sns";
import {
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  SQSClient,
  TagQueueCommand,
  UntagQueueCommand,
} from "@aws-sdk/client-sqs";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  clientAs,
  controllerAccount,
  type E2E,
  eventsAbout,
  namespace,
  patchResource,
  region,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "tags-moved";
const legacyKeys = ["crossrole.dev/owner", "crossrole.dev/owner-uid"];
const currentKeys = ["services.k8s.aws/owner", "services.k8s.aws/owner-uid"];

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([namespace("ack-system"), namespace(ns)]);
  await e2e.startController();
});
after(() => e2e?.stop());

/** How one kind's object is made, read and tagged the old way, out of band. */
interface Kind {
  readonly kind: string;
  readonly object: (name: string) => Record<string, unknown>;
  readonly tagsIn: (name: string) => Promise<Record<string, string>>;
  /** Rewrites the object's tags as an earlier crossrole left them: the old keys, not the new. */
  readonly tagTheOldWay: (name: string, tags: Record<string, string>) => Promise<void>;
}

const meta = (name: string) => ({ name, namespace: ns });
const sqs = () => clientAs(SQSClient, endpoint, controllerAccount);
const sns = () => clientAs(SNSClient, endpoint, controllerAccount);
const s3 = () => clientAs(S3Client, endpoint, controllerAccount);
const queueUrl = async (name: string) =>
  (await (await sqs()).send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl ?? "";
const topicArn = (name: string) => `arn:aws:sns:${region}:${controllerAccount}:${name}`;
const pairs = (tags: Record<string, string>) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

const kinds: Kind[] = [
  {
    kind: "Bucket",
    object: (name) => ({
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: meta(name),
      spec: { name, tagging: { tagSet: [{ key: "team", value: "shop" }] } },
    }),
    tagsIn: async (name) => {
      const { GetBucketTaggingCommand } = await import("@aws-sdk/client-s3");
      const out = await (await s3()).send(new GetBucketTaggingCommand({ Bucket: name }));
      return Object.fromEntries((out.TagSet ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
    },
    tagTheOldWay: async (name, tags) => {
      await (await s3()).send(
        new PutBucketTaggingCommand({ Bucket: name, Tagging: { TagSet: pairs(tags) } }),
      );
    },
  },
  {
    kind: "Queue",
    object: (name) => ({
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: meta(name),
      spec: { queueName: name, tags: { team: "shop" } },
    }),
    tagsIn: async (name) =>
      (await (await sqs()).send(new ListQueueTagsCommand({ QueueUrl: await queueUrl(name) }))).Tags ?? {},
    tagTheOldWay: async (name, tags) => {
      const QueueUrl = await queueUrl(name);
      await (await sqs()).send(new TagQueueCommand({ QueueUrl, Tags: tags }));
      await (await sqs()).send(new UntagQueueCommand({ QueueUrl, TagKeys: currentKeys }));
    },
  },
  {
    kind: "Topic",
    object: (name) => ({
      apiVersion: "sns.services.k8s.aws/v1alpha1",
      kind: "Topic",
      metadata: meta(name),
      spec: { name, tags: [{ key: "team", value: "shop" }] },
    }),
    tagsIn: async (name) => {
      const out = await (await sns()).send(new ListTagsForResourceCommand({ ResourceArn: topicArn(name) }));
      return Object.fromEntries((out.Tags ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
    },
    tagTheOldWay: async (name, tags) => {
      await (await sns()).send(new TagResourceCommand({ ResourceArn: topicArn(name), Tags: pairs(tags) }));
      await (await sns()).send(
        new UntagResourceCommand({ ResourceArn: topicArn(name), TagKeys: currentKeys }),
      );
    },
  },
];

for (const k of kinds) {
  test(`${k.kind} tagged by an earlier crossrole: still its own, and its tags move under services.k8s.aws/`, async () => {
    const name = `moved-${k.kind.toLowerCase()}`;
    await e2e.apply([k.object(name) as never]);
    const made = await waitForResourceCondition(e2e.kube, k.kind, ns, name, "ACK.ResourceSynced", "True");
    const uid = String(made.metadata?.uid);
    const now = await k.tagsIn(name);
    assert.equal(now["services.k8s.aws/owner-uid"], uid, "crossrole tags under services.k8s.aws/ now");
    assert.equal(now["crossrole.dev/owner-uid"], undefined);

    // As an earlier crossrole left it: the same owner and UID under the old keys.
    await k.tagTheOldWay(name, {
      "crossrole.dev/owner": now["services.k8s.aws/owner"] ?? "",
      "crossrole.dev/owner-uid": uid,
    });
    const old = await k.tagsIn(name);
    assert.deepEqual(
      currentKeys.filter((key) => old[key] !== undefined),
      [],
      "the object carries only the old keys",
    );

    // Its next reconcile (a spec change asks for one): judged its own, re-tagged.
    await patchResource(e2e.kube, k.kind, ns, name, { metadata: { annotations: { "test/nudge": "1" } } });
    await waitForEvent(e2e.kube, ns, k.kind, name, "OwnershipTagsMoved", /crossrole\.dev\/owner-uid/);
    const moved = await waitFor(
      async () => {
        const tags = await k.tagsIn(name);
        return legacyKeys.every((key) => tags[key] === undefined) ? tags : undefined;
      },
      { what: `${k.kind} ${name} without the old keys`, timeoutMs: 15_000 },
    );
    assert.equal(moved["services.k8s.aws/owner-uid"], uid);
    assert.equal(moved["services.k8s.aws/owner"], now["services.k8s.aws/owner"]);
    assert.equal(moved["team"], "shop", "the user's tag is kept");
    const after = await waitForResourceCondition(e2e.kube, k.kind, ns, name, "ACK.ResourceSynced", "True");
    assert.equal(after.metadata?.uid, uid);
    const reasons = (await eventsAbout(e2e.kube, ns, k.kind, name)).map((e) => e.reason);
    assert.ok(!reasons.includes("NameTaken") && !reasons.includes("AlreadyExists"), reasons.join(", "));
  });
}
