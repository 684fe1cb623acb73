// Each resource reconciles once to Synced: the controller's own writes (finalizer, create intent,
// late-initialised spec, status) come back through the watch as updates, and none of them is a
// reason for a second pass — while a change by anyone else still is, even one that arrives while
// the object's reconcile runs. Counted with the controller's own metric, per kind.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { bucketTagsIn } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  bucket,
  type ControllerProcess,
  configMap,
  type E2E,
  getBucket,
  namespace,
  patchResource,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const ns = "once";
let e2e: E2E;
let controller: ControllerProcess;

async function bucketReconciles(): Promise<number> {
  const text = await (await fetch(`${controller.metricsURL}/metrics`)).text();
  let sum = 0;
  for (const line of text.split("\n"))
    if (line.startsWith('controller_runtime_reconcile_total{controller="bucket"'))
      sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  return sum;
}

/** The count once it has not moved for 2 s (the controller is idle). */
async function settledReconciles(): Promise<number> {
  let last = await bucketReconciles();
  let since = performance.now();
  return waitFor(
    async () => {
      const now = await bucketReconciles();
      if (now !== last) {
        last = now;
        since = performance.now();
      }
      return performance.now() - since >= 2_000 ? last : undefined;
    },
    { what: "the bucket controller to go idle", timeoutMs: 30_000, intervalMs: 100 },
  );
}

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": "111111111111" }),
    configMap("ack-role-account-map", { "111111111111": "arn:aws:iam::111111111111:role/once" }),
  ]);
  controller = await e2e.startController();
});
after(() => e2e?.stop());

test("ten new buckets: ten reconciles, each straight to Synced, none after", async () => {
  await e2e.apply(Array.from({ length: 10 }, (_, i) => bucket(ns, `b${i}`)));
  for (let i = 0; i < 10; i++) await waitForCondition(e2e.kube, ns, `b${i}`, "ACK.ResourceSynced", "True");
  assert.equal(await settledReconciles(), 10);
});

test("a spec change by someone else is one more reconcile, and reaches AWS", async () => {
  const before = await settledReconciles();
  await patchResource(e2e.kube, "Bucket", ns, "b0", {
    spec: { tagging: { tagSet: [{ key: "team", value: "shop" }] } },
  });
  await waitFor(
    async () => {
      const b = await getBucket(e2e.kube, ns, "b0");
      const synced = b?.status?.conditions?.find((c) => c.type === "ACK.ResourceSynced");
      return synced?.status === "True" && synced.observedGeneration === b?.metadata.generation
        ? b
        : undefined;
    },
    { what: "b0 Synced at its new generation", timeoutMs: 20_000 },
  );
  assert.equal(await settledReconciles(), before + 1);
  const tags = await bucketTagsIn(e2e.stack.awsEndpoint ?? "", "111111111111", "once-b0");
  assert.deepEqual(tags.user, { team: "shop" });
});
