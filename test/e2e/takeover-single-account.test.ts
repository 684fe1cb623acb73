// Takeover as ACK is most often installed: one account, no CARM, every resource on the
// controller's own credentials. `crossrole takeover --from-ack` learns that account from STS as
// the controller does (it used to refuse every object: "not granted an account today"), proves
// each object in the account and region decided now, and refuses one that lives in another
// region than decided (it used to say ready, and the object went RegionDrift after --apply). A
// --controller-account that STS contradicts is a preflight problem: nothing is approved.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CreateBucketCommand, PutBucketTaggingCommand, S3Client } from "@aws-sdk/client-s3";
import { CreateQueueCommand, SQSClient } from "@aws-sdk/client-sqs";
import { clientAs } from "../../src/local-stack/accounts.ts";
import { region } from "../../src/local-stack/controller-process.ts";
import { ackObject, ackTags, runTakeover } from "../support/ack-leftovers.ts";
import {
  condition,
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "solo";
const elsewhere = "us-west-2";
let e2e: E2E;
let endpoint: string;

interface Row {
  readonly name: string;
  readonly verdict: string;
  readonly why: string;
  readonly account: string | null;
}
interface Report {
  readonly preflight: readonly { what: string; fix: string }[];
  readonly rows: readonly Row[];
  readonly approved: readonly string[];
}

const takeover = (...args: string[]) => runTakeover(e2e.stack, endpoint, region, args);
const report = (out: { stdout: string }) => JSON.parse(out.stdout) as Report;
const verdicts = (r: Report) => Object.fromEntries(r.rows.map((row) => [row.name, row.verdict]));

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  // No CARM at all: no account map, no namespace annotation.
  await e2e.apply([namespace("ack-system"), namespace(ns)]);
  const s3 = await clientAs(S3Client, endpoint, controllerAccount);
  const tag = (bucket: string) =>
    s3.send(
      new PutBucketTaggingCommand({
        Bucket: bucket,
        Tagging: { TagSet: Object.entries(ackTags("s3", ns)).map(([Key, Value]) => ({ Key, Value })) },
      }),
    );
  await s3.send(new CreateBucketCommand({ Bucket: "solo-assets" }));
  await tag("solo-assets");
  await s3.send(
    new CreateBucketCommand({
      Bucket: "solo-west",
      CreateBucketConfiguration: { LocationConstraint: elsewhere },
    }),
  );
  await tag("solo-west");
  const sqs = await clientAs(SQSClient, endpoint, controllerAccount);
  await sqs.send(new CreateQueueCommand({ QueueName: "solo-orders", tags: ackTags("sqs", ns) }));

  const at = (name: string, r = region) => ({ namespace: ns, name, account: controllerAccount, region: r });
  await ackObject(
    e2e.kube,
    "Bucket",
    at("assets"),
    { name: "solo-assets" },
    {
      arn: "arn:aws:s3:::solo-assets",
      location: "/solo-assets",
    },
  );
  // ACK's status says the default region, as it would after a region change ACK never acted on;
  // the bucket itself lives in us-west-2.
  await ackObject(
    e2e.kube,
    "Bucket",
    at("west"),
    { name: "solo-west" },
    {
      arn: "arn:aws:s3:::solo-west",
      location: `http://solo-west.s3.amazonaws.com/`,
    },
  );
  await ackObject(
    e2e.kube,
    "Queue",
    at("orders"),
    { queueName: "solo-orders" },
    {
      arn: `arn:aws:sqs:${region}:${controllerAccount}:solo-orders`,
      queueURL: `${endpoint}/${controllerAccount}/solo-orders`,
    },
  );
  await e2e.startController();
});
after(() => e2e?.stop());

test("single account: STS names the controller's account; the objects there are ready, the one in another region is refused", async () => {
  const dry = await takeover("-o", "json");
  assert.equal(dry.code, 3, `${dry.stdout}\n${dry.stderr}`);
  const r = report(dry);
  assert.deepEqual(r.preflight, []);
  assert.deepEqual(verdicts(r), { assets: "ready", west: "refused", orders: "ready" });
  for (const row of r.rows) assert.equal(row.account, controllerAccount, row.name);
  const west = r.rows.find((row) => row.name === "west");
  assert.match(
    west?.why ?? "",
    new RegExp(
      `"solo-west" in account ${controllerAccount} \\(${region}\\) lives in region ${elsewhere}: annotate it services.k8s.aws/region: ${elsewhere}`,
    ),
  );
});

test("a --controller-account STS contradicts is a preflight problem: nothing approved", async () => {
  const wrong = await takeover("--apply", "--controller-account=111111111111", "-o", "json");
  assert.equal(wrong.code, 3);
  const r = report(wrong);
  assert.deepEqual(
    r.preflight.map((p) => p.what),
    [
      `--controller-account 111111111111 contradicts sts:GetCallerIdentity, which names account ${controllerAccount} (${r.preflight[0]?.what.match(/\((arn:[^)]*)\)/)?.[1] ?? "?"})`,
    ],
  );
  assert.deepEqual(r.approved, []);
});

test("--apply approves the ready ones; the controller takes them over in place and leaves the other", async () => {
  const applied = await takeover("--apply", "-o", "json");
  assert.equal(applied.code, 3, "one refused");
  assert.equal(report(applied).approved.length, 2);
  await waitForEvent(e2e.kube, ns, "Bucket", "assets", "TakenOver");
  await waitForEvent(e2e.kube, ns, "Queue", "orders", "TakenOver");
  await waitForResourceCondition(e2e.kube, "Bucket", ns, "assets", "ACK.ResourceSynced", "True");
  const west = await getResource(e2e.kube, "Bucket", ns, "west");
  assert.equal(condition(west, "ACK.Terminal")?.reason, "TakeoverNotApproved");
});
