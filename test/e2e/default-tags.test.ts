// Default tags (`crossrole run --resource-tags`, the chart's resourceTags, ACK's flag) with the
// real controller process and the emulator: a bucket created in a CARM account carries each
// default tag with ACK's and crossrole's variables expanded for it, except where its own spec
// sets the key (the spec wins), where the value expands to nothing (skipped), and where the key is
// one of crossrole's ownership tags (never taken from a default tag). The default tags are never
// drift and never written into the spec; one removed out of band is put back at the resync. What
// goes over the wire (recorded at a proxy in front of the emulator, which does not enforce AWS's
// limits) fits AWS's tag limits, also for the longest object name.
import assert from "node:assert/strict";
import { hash } from "node:crypto";
import { after, before, test } from "node:test";
import { PutBucketTaggingCommand } from "@aws-sdk/client-s3";
import { bucketTagsIn, s3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { type AwsProxy, s3Bucket, s3Operation, startAwsProxy } from "../support/aws-proxy.ts";
import {
  bucket,
  type ControllerProcess,
  configMap,
  type E2E,
  eventsAbout,
  getBucket,
  namespace,
  region,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const X = "161616161616";
const ns = "tags-a";
const bucketName = `${ns}-assets`;
let e2e: E2E;
let endpoint: string;
let proxy: AwsProxy;
let controller: ControllerProcess;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  proxy = await startAwsProxy(endpoint);
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/crossrole` }),
  ]);
  controller = await e2e.startController(
    [
      "--reconcile-resource-resync-seconds=Bucket=3",
      "--resource-tags=cost-centre=7,landing=%MANAGED_ACCOUNT_ID%/%MANAGED_REGION%",
      "--resource-tags=made-for=%CONTROLLER_SERVICE%:%K8S_RESOURCE_KIND%:%K8S_NAMESPACE%/%K8S_RESOURCE_NAME%",
      "--resource-tags=team=platform,kro.run/kro-version=%KRO_VERSION%,services.k8s.aws/namespace=hijacked",
      "--resource-tags=twice=%K8S_RESOURCE_NAME%%K8S_RESOURCE_NAME%",
    ],
    { awsEndpoint: proxy.endpoint },
  );
  await e2e.apply([bucket(ns, "assets", { tagging: { tagSet: [{ key: "team", value: "web" }] } })]);
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

test("the created bucket carries the default tags, expanded; the spec's own tag wins; ownership tags stay crossrole's", async () => {
  await waitForCondition(e2e.kube, ns, "assets", "ACK.ResourceSynced", "True");
  const tags = await bucketTagsIn(endpoint, X, bucketName);
  assert.deepEqual(tags.user, {
    "cost-centre": "7",
    landing: `${X}/${region}`,
    "made-for": `s3:Bucket:${ns}/assets`,
    team: "web",
    twice: "assetsassets",
    // kro.run/kro-version expanded to nothing (no such label): skipped.
  });
  assert.equal(tags.ownership["services.k8s.aws/namespace"], ns);
  // Nothing of the default tags is written into the resource.
  const stored = await getBucket(e2e.kube, ns, "assets");
  assert.deepEqual(stored?.spec?.["tagging"], { tagSet: [{ key: "team", value: "web" }] });
});

/** The controller's successful Bucket reconciles so far (its /metrics). */
async function bucketReconciles(): Promise<number> {
  const text = await (await fetch(`${controller.metricsURL}/metrics`)).text();
  const m =
    /^controller_runtime_reconcile_total\{[^}]*controller="bucket"[^}]*result="success"[^}]*\} (\d+)$/m.exec(
      text,
    );
  return m ? Number(m[1]) : 0;
}

/** "Updated" Events about the bucket, repeats (Event counts) included. */
async function updates(): Promise<number> {
  return (await eventsAbout(e2e.kube, ns, "Bucket", "assets"))
    .filter((e) => e.reason === "Updated")
    .reduce((n, e) => n + ((e as { count?: number }).count ?? 1), 0);
}

test("default tags are never drift; one removed out of band is put back at the resync", async () => {
  await waitForCondition(e2e.kube, ns, "assets", "ACK.ResourceSynced", "True");
  // The emulator's CreateBucket ignores tags, so the create's own reconcile tags the bucket: part
  // of the creation, said by its Created Event, not as "Updated". Then two resyncs: had the
  // default tags been drift, each would update again.
  const before = await updates();
  assert.equal(before, 0, "finishing its own create is no update");
  const reconciles = await bucketReconciles();
  await waitFor(async () => (await bucketReconciles()) >= reconciles + 2, { what: "two Bucket resyncs" });
  assert.equal(await updates(), before, "a resync found drift");

  const s3 = await s3As(endpoint, X);
  const now = await bucketTagsIn(endpoint, X, bucketName);
  const { "cost-centre": _removed, ...rest } = { ...now.user, ...now.ownership };
  await s3.send(
    new PutBucketTaggingCommand({
      Bucket: bucketName,
      Tagging: { TagSet: Object.entries(rest).map(([Key, Value]) => ({ Key, Value })) },
    }),
  );
  await waitFor(async () => (await bucketTagsIn(endpoint, X, bucketName)).user["cost-centre"] === "7", {
    what: "cost-centre put back",
  });
  await waitForEvent(e2e.kube, ns, "Bucket", "assets", "Updated", /spec\.tagging/);
});

/** The tags in an S3 request's XML body (CreateBucket's configuration, PutBucketTagging's set). */
function tagsInBody(body: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const m of body.matchAll(/<Tag>\s*<Key>([^<]*)<\/Key>\s*<Value>([^<]*)<\/Value>\s*<\/Tag>/g))
    tags[m[1] ?? ""] = m[2] ?? "";
  return tags;
}

test("the longest object name: every tag sent fits AWS's 256 characters, cut the same way at every reconcile", async () => {
  const longName = `${"l".repeat(126)}.${"n".repeat(126)}`; // 253 characters, the most Kubernetes allows
  const awsName = `${ns}-long`;
  await e2e.apply([bucket(ns, longName, { name: awsName })]);
  await waitForCondition(e2e.kube, ns, longName, "ACK.ResourceSynced", "True");
  const fitted = (full: string) => `${full.slice(0, 247)}-${hash("sha256", full, "hex").slice(0, 8)}`;
  const expected = {
    twice: fitted(`${longName}${longName}`), // 506 characters expanded
    "made-for": fitted(`s3:Bucket:${ns}/${longName}`), // 270
  };
  const sent = proxy.requests.filter((r) => s3Bucket(r) === awsName && r.body.includes("<Tag>"));
  assert.ok(sent.length > 0, "no request carried the bucket's tags");
  const seen: Record<string, string[]> = {};
  for (const r of sent) {
    for (const [k, v] of Object.entries(tagsInBody(r.body))) {
      assert.ok(
        [...k].length <= 128 && [...v].length <= 256,
        `${s3Operation(r)} sent ${k}=${v} (${v.length})`,
      );
      seen[k] = [...(seen[k] ?? []), v];
    }
  }
  // Sent (the create, and the tagging the emulator's create needs), and only ever fitted.
  assert.deepEqual([...new Set(seen["twice"])], [expected.twice]);
  assert.deepEqual([...new Set(seen["made-for"])], [expected["made-for"]]);
  const inAws = await bucketTagsIn(endpoint, X, awsName);
  assert.equal(inAws.user["twice"], expected.twice);
  assert.equal(inAws.user["twice"]?.length, 256);

  // The fitted value is what the drift comparison expects: resyncs send no tags again.
  const tagWrites = () =>
    proxy.requests.filter((r) => s3Bucket(r) === awsName && s3Operation(r) === "PutBucketTagging").length;
  const writes = tagWrites();
  const reconciles = await bucketReconciles();
  await waitFor(async () => (await bucketReconciles()) >= reconciles + 4, {
    what: "two resyncs of both buckets",
  });
  assert.equal(tagWrites(), writes, "a resync re-tagged the bucket: the fitted value flaps");
});
