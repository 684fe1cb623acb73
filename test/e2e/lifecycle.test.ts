// A Bucket's life with the real controller process: deletion lands in the account the bucket
// lives in (and nowhere else), the deletion policy (resource annotation > namespace annotation >
// --deletion-policy) can retain it, and a controller killed mid-way leaves no duplicate behind.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  bucketPath,
  bucketsIn,
  type ControllerProcess,
  type CoreEvent,
  configMap,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  type Resource,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const accounts = [X, Y, controllerAccount] as const;
const finalizer = "finalizers.s3.services.k8s.aws/Bucket";

let e2e: E2E;
let controller: ControllerProcess;
let endpoint: string;

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("life-x", { "services.k8s.aws/owner-account-id": X }),
    namespace("life-y", { "services.k8s.aws/owner-account-id": Y }),
    namespace("life-keep", {
      "services.k8s.aws/owner-account-id": X,
      "s3.services.k8s.aws/deletion-policy": "retain",
    }),
    namespace("life-restart", { "services.k8s.aws/owner-account-id": Y }),
    namespace("life-default", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", {
      [X]: `arn:aws:iam::${X}:role/life-x`,
      [Y]: `arn:aws:iam::${Y}:role/life-y`,
    }),
  ]);
  controller = await e2e.startController(["--reconcile-default-max-concurrent-syncs=4"]);
});
after(() => e2e?.stop());

const synced = (ns: string, name: string) =>
  waitForCondition(e2e.kube, ns, name, "ACK.ResourceSynced", "True", undefined, 30_000);

async function deleteBucketObject(ns: string, name: string): Promise<void> {
  await e2e.kube.request({ method: "DELETE", path: bucketPath(ns, name) });
  await waitFor(async () => (await getBucket(e2e.kube, ns, name)) === undefined, {
    what: `Bucket ${ns}/${name} to disappear from Kubernetes`,
    timeoutMs: 20_000,
  });
}

async function events(ns: string): Promise<CoreEvent[]> {
  const list = await e2e.kube.request<{ items: CoreEvent[] }>({
    method: "GET",
    path: `/api/v1/namespaces/${ns}/events`,
  });
  return list.items;
}

/** Waits for the Event `reason` on Bucket `name`; returns its message. */
const eventFor = async (ns: string, name: string, reason: string): Promise<string> =>
  (await waitForEvent(e2e.kube, ns, "Bucket", name, reason)).message;

async function holdings(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const a of accounts) out[a] = await bucketsIn(endpoint, a);
  return out;
}

test("deleting a Bucket deletes it in the account it lives in, and nowhere else", async () => {
  await e2e.apply([bucket("life-x", "doomed"), bucket("life-x", "stays"), bucket("life-y", "neighbour")]);
  const doomed = await synced("life-x", "doomed");
  await synced("life-x", "stays");
  await synced("life-y", "neighbour");
  assert.equal(doomed.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.ok(doomed.metadata.finalizers?.includes(finalizer), `finalizer ${finalizer} on the bucket`);
  const before = await holdings();
  assert.ok(before[X]?.includes("life-x-doomed"));

  await deleteBucketObject("life-x", "doomed");

  const now = await holdings();
  assert.deepEqual(
    now[X],
    before[X]?.filter((n) => n !== "life-x-doomed"),
    "only life-x-doomed left account X",
  );
  assert.deepEqual(now[Y], before[Y], "account Y untouched");
  assert.deepEqual(now[controllerAccount], before[controllerAccount], "controller account untouched");
  assert.ok(now[Y]?.includes("life-y-neighbour"));
  assert.match(await eventFor("life-x", "doomed", "Deleted"), new RegExp(`in account ${X}`));
});

test("services.k8s.aws/deletion-policy: retain on the resource leaves the bucket in AWS", async () => {
  await e2e.apply([
    bucket("life-x", "kept", {}, { annotations: { "services.k8s.aws/deletion-policy": "retain" } }),
  ]);
  const b = await synced("life-x", "kept");
  assert.ok(b.metadata.finalizers?.includes(finalizer));
  await deleteBucketObject("life-x", "kept");
  assert.ok((await bucketsIn(endpoint, X)).includes("life-x-kept"), "life-x-kept still in account X");
  assert.match(
    await eventFor("life-x", "kept", "Retained"),
    /deletion policy is retain \(annotation services\.k8s\.aws\/deletion-policy\)/,
  );
});

test("namespace s3.services.k8s.aws/deletion-policy: retain leaves the bucket; the resource annotation overrides it", async () => {
  await e2e.apply([
    bucket("life-keep", "by-namespace"),
    bucket("life-keep", "overridden", {}, { annotations: { "services.k8s.aws/deletion-policy": "delete" } }),
  ]);
  await synced("life-keep", "by-namespace");
  await synced("life-keep", "overridden");
  assert.ok((await bucketsIn(endpoint, X)).includes("life-keep-overridden"));

  await deleteBucketObject("life-keep", "by-namespace");
  await deleteBucketObject("life-keep", "overridden");

  const inX = await bucketsIn(endpoint, X);
  assert.ok(inX.includes("life-keep-by-namespace"), "retained by the namespace annotation");
  assert.ok(!inX.includes("life-keep-overridden"), "deleted: the resource annotation wins");
  assert.match(
    await eventFor("life-keep", "by-namespace", "Retained"),
    /namespace annotation s3\.services\.k8s\.aws\/deletion-policy/,
  );
});

/** The bucket names moto was asked to create (CreateBucket = PUT on /<name> with no sub-resource). */
async function createBucketRequests(): Promise<string[]> {
  const path = e2e.stack.emulator?.recordingPath;
  assert.ok(path, "the emulator records requests");
  const out: string[] = [];
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { method?: string; url?: string };
    if (r.method !== "PUT" || typeof r.url !== "string") continue;
    const url = new URL(r.url);
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts.length === 1 && url.search === "") out.push(parts[0] ?? "");
  }
  return out;
}

test("a controller killed (SIGKILL) mid-way leaves no duplicate: its successor syncs every bucket exactly once", async (t) => {
  const n = 24;
  const names = Array.from({ length: n }, (_, i) => `r${String(i).padStart(2, "0")}`);
  const objects: KubeObject[] = names.map((name) => bucket("life-restart", name));
  await e2e.apply(objects);

  const syncedNames = async (): Promise<string[]> => {
    const list = await e2e.kube.request<{ items: Resource[] }>({
      method: "GET",
      path: "/apis/s3.services.k8s.aws/v1alpha1/namespaces/life-restart/buckets",
    });
    return list.items
      .filter((b) =>
        b.status?.conditions?.some((c) => c.type === "ACK.ResourceSynced" && c.status === "True"),
      )
      .map((b) => b.metadata.name);
  };
  await waitFor(async () => (await syncedNames()).length > 0, {
    what: "the first life-restart bucket to sync",
    timeoutMs: 30_000,
  });
  await controller.stop("SIGKILL");
  const atKill = await syncedNames();
  assert.ok(atKill.length < n, `killed while reconciles were pending (${atKill.length}/${n} synced)`);
  const inAwsAtKill = (await bucketsIn(endpoint, Y)).filter((b) => b.startsWith("life-restart-")).length;
  t.diagnostic(`at the kill: ${atKill.length}/${n} synced, ${inAwsAtKill}/${n} already in account ${Y}`);

  // A bucket killed between its intent and its CreateBucket is found nowhere: its create may
  // still land, so the successor waits out the intent window before creating it (create-intent.ts).
  // The default 2 minutes would outlast this test's wait; 15 s keeps that path inside it.
  controller = await e2e.startController(
    ["--reconcile-default-max-concurrent-syncs=4", "--create-intent-window-seconds=15"],
    { name: "controller-after-kill" },
  );
  await waitFor(async () => (await syncedNames()).length === n, {
    what: `all ${n} life-restart buckets to sync after the restart`,
    timeoutMs: 60_000,
  });

  const inY = (await bucketsIn(endpoint, Y)).filter((b) => b.startsWith("life-restart-"));
  assert.deepEqual(
    inY,
    names.map((name) => `life-restart-${name}`),
  );
  for (const a of [X, controllerAccount]) {
    assert.deepEqual(
      (await bucketsIn(endpoint, a)).filter((b) => b.startsWith("life-restart-")),
      [],
      `no life-restart bucket in ${a}`,
    );
  }
  for (const name of names) {
    const b = await getBucket(e2e.kube, "life-restart", name);
    assert.equal(b?.status?.ackResourceMetadata?.ownerAccountID, Y, name);
    assert.equal(
      b?.status?.conditions?.find((c) => c.type === "ACK.Recoverable" || c.type === "ACK.Terminal"),
      undefined,
      `${name} carries no error condition`,
    );
  }
  const creates = (await createBucketRequests()).filter((b) => b.startsWith("life-restart-"));
  const counts = new Map<string, number>();
  for (const c of creates) counts.set(c, (counts.get(c) ?? 0) + 1);
  assert.deepEqual(
    [...counts].filter(([, count]) => count !== 1),
    [],
    "every bucket was asked to be created exactly once",
  );
  assert.equal(counts.size, n);
  const warnings = (await events("life-restart")).filter((e) => e.type === "Warning");
  assert.deepEqual(
    warnings.map((e) => `${e.involvedObject.name}: ${e.reason} ${e.message}`),
    [],
  );
});

test("--deletion-policy retain is the default; a resource annotation delete overrides it", async () => {
  await controller.stop("SIGTERM");
  controller = await e2e.startController(["--deletion-policy=retain"], { name: "controller-retain" });
  await e2e.apply([
    bucket("life-default", "flag-kept"),
    bucket(
      "life-default",
      "flag-overridden",
      {},
      {
        annotations: { "services.k8s.aws/deletion-policy": "delete" },
      },
    ),
  ]);
  await synced("life-default", "flag-kept");
  await synced("life-default", "flag-overridden");
  await deleteBucketObject("life-default", "flag-kept");
  await deleteBucketObject("life-default", "flag-overridden");
  const inX = await bucketsIn(endpoint, X);
  assert.ok(inX.includes("life-default-flag-kept"), "retained by --deletion-policy retain");
  assert.ok(!inX.includes("life-default-flag-overridden"), "deleted: the resource annotation wins");
  assert.match(await eventFor("life-default", "flag-kept", "Retained"), /--deletion-policy/);
});
