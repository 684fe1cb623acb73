// Taking over from ACK on the local stack, with objects in the exact state ACK's controllers
// leave them: in AWS, tagged with ACK's default resourceTags (services.k8s.aws/controller-version
// `<service>-<version>`, services.k8s.aws/namespace); in Kubernetes, ACK's finalizer
// `finalizers.<group>/<Kind>`, status.ackResourceMetadata and ACK.ResourceSynced True; ACK's
// Deployment still there. Then crossrole's controller starts beside them and `crossrole takeover
// --from-ack` runs as a process (the AWS SDK reads its environment), as an administrator would:
//   - before approval the controller touches nothing (Terminal TakeoverNotApproved);
//   - the proof lists ready and refused objects with reasons, and refuses to approve anything
//     while ACK's controller still runs;
//   - once ACK is scaled to zero, --apply approves the ready objects; the controller takes each
//     over (its tags added, the same AWS object, never a second one), and leaves the refused ones
//     as they were.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateBucketCommand,
  GetBucketTaggingCommand,
  PutBucketTaggingCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { CreateQueueCommand, GetQueueUrlCommand, ListQueueTagsCommand, SQSClient } from "@aws-sdk/client-sqs";
import { takeoverConfigMapName } from "../../src/controller/ack-takeover.ts";
import { accountsHoldingResource, clientAs } from "../../src/local-stack/accounts.ts";
import { region } from "../../src/local-stack/controller-process.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { ackObject as ackLeftover, ackTags, runTakeover } from "../support/ack-leftovers.ts";
import {
  condition,
  configMap,
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
const accounts = [controllerAccount, X, "222222222222"];
let e2e: E2E;
let endpoint: string;

/** A Bucket or Queue as ACK leaves it in namespace `ns`, placed in account X. */
function ackObject(
  kind: "Bucket" | "Queue",
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  arn: string,
) {
  const own =
    kind === "Bucket"
      ? { location: `/${spec["name"]}` }
      : { queueURL: `${endpoint}/${X}/${spec["queueName"]}` };
  return ackLeftover(e2e.kube, kind, { namespace: ns, name, account: X, region }, spec, { arn, ...own });
}

const s3 = () => clientAs(S3Client, endpoint, X);
const sqs = () => clientAs(SQSClient, endpoint, X);
async function bucketTags(name: string): Promise<Record<string, string>> {
  const out = await (await s3()).send(new GetBucketTaggingCommand({ Bucket: name }));
  return Object.fromEntries((out.TagSet ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
}
async function queueTags(name: string): Promise<Record<string, string>> {
  const client = await sqs();
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: name }));
  return (await client.send(new ListQueueTagsCommand({ QueueUrl }))).Tags ?? {};
}

const ackDeployment = (replicas: number): KubeObject =>
  ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "ack-s3-controller", namespace: "ack-system" },
    spec: {
      replicas,
      selector: { matchLabels: { app: "ack-s3-controller" } },
      template: {
        metadata: { labels: { app: "ack-s3-controller" } },
        spec: {
          containers: [
            { name: "controller", image: "public.ecr.aws/aws-controllers-k8s/s3-controller:1.10.0" },
          ],
        },
      },
    },
  }) as KubeObject;

function takeover(...args: string[]) {
  return runTakeover(e2e.stack, endpoint, region, args);
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("shop", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/shop` }),
    ackDeployment(1),
  ]);
  // In AWS, as ACK made them in account X.
  await (await s3()).send(new CreateBucketCommand({ Bucket: "ack-assets" }));
  await (await s3()).send(
    new PutBucketTaggingCommand({
      Bucket: "ack-assets",
      Tagging: {
        TagSet: Object.entries({ ...ackTags("s3", "shop"), team: "shop" }).map(([Key, Value]) => ({
          Key,
          Value,
        })),
      },
    }),
  );
  await (await sqs()).send(new CreateQueueCommand({ QueueName: "ack-orders", tags: ackTags("sqs", "shop") }));
  // Made by ACK for another namespace, and a bucket ACK never made.
  await (await s3()).send(new CreateBucketCommand({ Bucket: "ack-billing" }));
  await (await s3()).send(
    new PutBucketTaggingCommand({
      Bucket: "ack-billing",
      Tagging: { TagSet: Object.entries(ackTags("s3", "billing")).map(([Key, Value]) => ({ Key, Value })) },
    }),
  );
  await (await s3()).send(new CreateBucketCommand({ Bucket: "not-ack" }));
  // In Kubernetes, as ACK left them.
  await ackObject(
    "Bucket",
    "shop",
    "assets",
    { name: "ack-assets", tagging: { tagSet: [{ key: "team", value: "shop" }] } },
    "arn:aws:s3:::ack-assets",
  );
  await ackObject(
    "Queue",
    "shop",
    "orders",
    { queueName: "ack-orders" },
    `arn:aws:sqs:${region}:${X}:ack-orders`,
  );
  await ackObject("Bucket", "shop", "billing", { name: "ack-billing" }, "arn:aws:s3:::ack-billing");
  await ackObject("Bucket", "shop", "stray", { name: "not-ack" }, "arn:aws:s3:::not-ack");
  await e2e.startController();
});
after(() => e2e?.stop());

test("before any approval the controller takes nothing over: Terminal TakeoverNotApproved, AWS untouched", async () => {
  const b = await waitForResourceCondition(
    e2e.kube,
    "Bucket",
    "shop",
    "assets",
    "ACK.Terminal",
    "True",
    "TakeoverNotApproved",
  );
  assert.match(condition(b, "ACK.Terminal")?.message ?? "", /crossrole takeover --from-ack/);
  await waitForResourceCondition(
    e2e.kube,
    "Queue",
    "shop",
    "orders",
    "ACK.Terminal",
    "True",
    "TakeoverNotApproved",
  );
  const other = await waitForResourceCondition(
    e2e.kube,
    "Bucket",
    "shop",
    "billing",
    "ACK.Terminal",
    "True",
    "NameTaken",
  );
  assert.match(
    condition(other, "ACK.Terminal")?.message ?? "",
    /made it for namespace billing, not for shop/,
  );
  assert.deepEqual(await bucketTags("ack-assets"), { ...ackTags("s3", "shop"), team: "shop" });
  assert.deepEqual(await queueTags("ack-orders"), ackTags("sqs", "shop"));
});

test("the proof: ready and refused objects with reasons; nothing approved while ACK's controller runs", async () => {
  const dry = await takeover();
  assert.equal(dry.code, 3, dry.stderr + dry.stdout);
  assert.match(
    dry.stdout,
    /problem: ACK's controller ack-system\/ack-s3-controller still runs .*fix: kubectl scale deployment -n ack-system ack-s3-controller --replicas=0/,
  );
  assert.match(
    dry.stdout,
    /ready {3}Bucket shop\/assets: "ack-assets" in account 111111111111 \(us-east-1\) exists, carries ACK's tags \(s3-v1\.10\.0, namespace shop\)/,
  );
  assert.match(dry.stdout, /ready {3}Queue shop\/orders: /);
  assert.match(dry.stdout, /refused Bucket shop\/billing: .*made it for namespace billing, not for shop/);
  assert.match(dry.stdout, /refused Bucket shop\/stray: .*does not carry ACK's tags/);
  assert.match(dry.stdout, /Summary: 2 ready, 2 refused/);

  const blocked = await takeover("--apply");
  assert.equal(blocked.code, 3);
  assert.match(blocked.stdout, /Nothing approved: fix the preflight problems first/);
  assert.equal(await getConfigMap(), undefined, "no approval written while ACK runs");
});

test("with ACK scaled to zero, --apply approves the ready objects and the controller takes each over in place", async () => {
  await e2e.kube.request({
    method: "PATCH",
    path: "/apis/apps/v1/namespaces/ack-system/deployments/ack-s3-controller",
    contentType: "application/merge-patch+json",
    body: { spec: { replicas: 0 } },
  });
  const applied = await takeover("--apply", "-o", "json");
  assert.equal(applied.code, 3, "the refused objects still need attention");
  const report = JSON.parse(applied.stdout) as { preflight: unknown[]; approved: string[] };
  assert.deepEqual(report.preflight, []);
  assert.deepEqual(report.approved.sort(), ["Bucket.shop.assets", "Queue.shop.orders"]);
  const uid = (await getResource(e2e.kube, "Bucket", "shop", "assets"))?.metadata.uid;
  assert.equal((await getConfigMap())?.["Bucket.shop.assets"], uid);

  await waitForEvent(
    e2e.kube,
    "shop",
    "Bucket",
    "assets",
    "TakenOver",
    /from ACK: ACK \(s3-v1\.10\.0\) made it for namespace shop/,
  );
  await waitForResourceCondition(e2e.kube, "Bucket", "shop", "assets", "ACK.ResourceSynced", "True");
  await waitForResourceCondition(e2e.kube, "Queue", "shop", "orders", "ACK.ResourceSynced", "True");
  const tags = await bucketTags("ack-assets");
  assert.equal(tags["services.k8s.aws/owner-uid"], uid, "crossrole's ownership tags added");
  assert.equal(tags["services.k8s.aws/owner"], "Bucket/shop/assets");
  assert.equal(tags["team"], "shop", "the user's tags kept");
  assert.equal((await queueTags("ack-orders"))["services.k8s.aws/owner"], "Queue/shop/orders");
  assert.deepEqual(
    await accountsHoldingResource(endpoint, "Bucket", "ack-assets", region, accounts),
    [X],
    "the same object, in place",
  );
  assert.deepEqual(await accountsHoldingResource(endpoint, "Queue", "ack-orders", region, accounts), [X]);

  // The refused ones are left as they were.
  assert.deepEqual(await bucketTags("ack-billing"), ackTags("s3", "billing"));
  const stray = await getResource(e2e.kube, "Bucket", "shop", "stray");
  assert.equal(condition(stray, "ACK.Terminal")?.reason, "AlreadyExists");

  // Running again: the taken-over objects are done.
  const again = await takeover();
  assert.match(again.stdout, /done {4}Bucket shop\/assets: .*already tagged as this object's/);
});

async function getConfigMap(): Promise<Record<string, string> | undefined> {
  return waitFor(
    async () => {
      try {
        const cm = await e2e.kube.request<{ data?: Record<string, string> }>({
          method: "GET",
          path: `/api/v1/namespaces/ack-system/configmaps/${takeoverConfigMapName}`,
        });
        return { value: cm.data ?? {} };
      } catch (err) {
        if ((err as { status?: number }).status === 404) return { value: undefined };
        throw err;
      }
    },
    { what: "read the takeover ConfigMap", timeoutMs: 5_000 },
  ).then((r) => r.value);
}
