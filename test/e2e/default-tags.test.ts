// Default tags (`crossrole run --resource-tags`, the chart's resourceTags, ACK's flag) with the
// real controller process and the emulator: a bucket created in a CARM account carries each
// default tag with ACK's and crossrole's variables expanded for it, except where its own spec
// sets the key (the spec wins), where the value expands to nothing (skipped), and where the key is
// one of crossrole's ownership tags (never taken from a default tag). The default tags are never
// drift and never written into the spec; one removed out of band is put back at the resync.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PutBucketTaggingCommand } from "@aws-sdk/client-s3";
import { bucketTagsIn, s3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
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
let controller: ControllerProcess;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/crossrole` }),
  ]);
  controller = await e2e.startController([
    "--reconcile-resource-resync-seconds=Bucket=3",
    "--resource-tags=cost-centre=7,landing=%MANAGED_ACCOUNT_ID%/%MANAGED_REGION%",
    "--resource-tags=made-for=%CONTROLLER_SERVICE%:%K8S_RESOURCE_KIND%:%K8S_NAMESPACE%/%K8S_RESOURCE_NAME%",
    "--resource-tags=team=platform,kro.run/kro-version=%KRO_VERSION%,services.k8s.aws/namespace=hijacked",
  ]);
  await e2e.apply([bucket(ns, "assets", { tagging: { tagSet: [{ key: "team", value: "web" }] } })]);
});
after(() => e2e?.stop());

test("the created bucket carries the default tags, expanded; the spec's own tag wins; ownership tags stay crossrole's", async () => {
  await waitForCondition(e2e.kube, ns, "assets", "ACK.ResourceSynced", "True");
  const tags = await bucketTagsIn(endpoint, X, bucketName);
  assert.deepEqual(tags.user, {
    "cost-centre": "7",
    landing: `${X}/${region}`,
    "made-for": `s3:Bucket:${ns}/assets`,
    team: "web",
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
  // The emulator's CreateBucket ignores tags, so the create's own reconcile tags the bucket (one
  // "Updated"). Then two resyncs: had the default tags been drift, each would update again.
  const before = await waitFor(
    async () => {
      const n = await updates();
      return n > 0 ? n : undefined;
    },
    { what: "the create's tagging" },
  );
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
