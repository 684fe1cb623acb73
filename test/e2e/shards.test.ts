// Sharding across replica processes (crossrole run --enable-sharding), end to end: three
// replicas share Buckets in 24 namespaces; one is killed (-9) mid-batch, three more join, three
// leave gracefully, then a rolling restart — while more Buckets keep coming. Then:
//   - every Bucket is Ready and exists in S3, created once (moto's own recording);
//   - each resource's AWS writes came from one replica at a time (never A, B, then A again);
//   - a Bucket applied right after the kill, in a namespace the dead replica held, is Ready
//     within about one lease duration (the Lease expires, the namespace moves).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ControllerProcess } from "../../src/local-stack/controller-process.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { Assignment, ownerOf } from "../../src/runtime/shards/rendezvous.ts";
import { s3Operation } from "../support/aws-proxy.ts";
import { minimalResource } from "../support/minimal-resources.ts";
import { readMotoRecording } from "../support/moto-recording.ts";
import { runCrossrole } from "../support/run-crossrole.ts";
import { condition, controllerAccount, type E2E, getBucket, namespace, region, startE2E } from "./fixture.ts";

const leaseSeconds = 4;
const namespaces = Array.from({ length: 24 }, (_, i) => `shard-${i}`);
let e2e: E2E;
const replicas = new Map<string, ControllerProcess>();
const everyone: { name: string; proc: ControllerProcess }[] = [];
const applied: { ns: string; name: string; awsName: string }[] = [];

async function start(name: string): Promise<void> {
  const proc = await e2e.startController(
    [
      "--enable-sharding",
      `--shard-member=${name}`,
      `--shard-lease-duration-seconds=${leaseSeconds}`,
      "--enable-leader-election=true",
      "--create-intent-window-seconds=20",
      "--reconcile-default-max-concurrent-syncs=4",
    ],
    { name },
  );
  replicas.set(name, proc);
  everyone.push({ name, proc });
}

async function applyBuckets(round: string, perNamespace: number): Promise<void> {
  const items = namespaces.flatMap((ns) =>
    Array.from({ length: perNamespace }, (_, i) => {
      const item = { ns, name: `${round}-${i}`, awsName: `${ns}-${round}-${i}` };
      applied.push(item);
      return minimalResource("Bucket", ns, item.name, item.awsName);
    }),
  );
  await Promise.all(items.map((item) => e2e.apply([item])));
}

const ready = async (ns: string, name: string) =>
  condition(await getBucket(e2e.kube, ns, name), "Ready")?.status === "True";

async function readyCount(): Promise<number> {
  let n = 0;
  for (const a of applied) if (await ready(a.ns, a.name)) n++;
  return n;
}

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  await e2e.apply([namespace("ack-system"), ...namespaces.map((n) => namespace(n))]);
  for (const name of ["r1", "r2", "r3"]) await start(name);
});
after(() => e2e?.stop());

test("replicas join, die and leave under load: every Bucket Ready, created once, written by one replica at a time", async () => {
  await applyBuckets("a", 4);
  await waitFor(async () => (await readyCount()) >= 30 || undefined, {
    what: "a third Ready",
    timeoutMs: 60_000,
  });

  // kill -9 r2 mid-batch; a Bucket in a namespace it held must be Ready about one lease later.
  const r2Namespaces = namespaces.filter((ns) => ownerOf(ns, ["r1", "r2", "r3"]) === "r2");
  assert.ok(r2Namespaces.length > 0);
  await replicas.get("r2")?.stop("SIGKILL");
  replicas.delete("r2");
  const killedAt = performance.now();
  const probe = { ns: r2Namespaces[0] ?? "", name: "after-kill", awsName: `${r2Namespaces[0]}-after-kill` };
  applied.push(probe);
  await e2e.apply([minimalResource("Bucket", probe.ns, probe.name, probe.awsName)]);
  try {
    await waitFor(() => ready(probe.ns, probe.name), { what: "the probe Bucket Ready", timeoutMs: 30_000 });
  } catch (err) {
    for (const { name, proc } of everyone) {
      for (const l of proc.logs())
        if (String(l["event"] ?? "").startsWith("shard") || /shard|lease/i.test(String(l["msg"])))
          process.stderr.write(`${name}: ${JSON.stringify(l)}\n`);
    }
    process.stderr.write(`probe ${JSON.stringify(await getBucket(e2e.kube, probe.ns, probe.name))}\n`);
    throw err;
  }
  const recoverySeconds = (performance.now() - killedAt) / 1000;
  process.stderr.write(`recovery after kill -9: ${recoverySeconds.toFixed(1)} s\n`);
  assert.ok(recoverySeconds <= leaseSeconds * 2 + 6, `recovered after ${recoverySeconds} s`);

  // 2 → 5 replicas, more Buckets, then 5 → 2, then a rolling restart of those two.
  for (const name of ["r4", "r5", "r6"]) await start(name);
  await applyBuckets("b", 2);
  for (const name of ["r1", "r3", "r4"]) {
    await replicas.get(name)?.stop("SIGTERM");
    replicas.delete(name);
  }
  await applyBuckets("c", 1);
  await replicas.get("r5")?.stop("SIGTERM");
  replicas.delete("r5");
  await start("r7");
  await replicas.get("r6")?.stop("SIGTERM");
  replicas.delete("r6");
  await start("r8");

  await waitFor(async () => (await readyCount()) === applied.length || undefined, {
    what: `all ${applied.length} Buckets Ready`,
    timeoutMs: 180_000,
    intervalMs: 500,
  });

  // Created once each: moto's own recording of CreateBucket per bucket name.
  const creates = new Map<string, number>();
  for (const r of await readMotoRecording(e2e.stack.emulator?.recordingPath ?? "")) {
    const url = new URL(r.url, "http://emulator");
    if (s3Operation({ method: r.method, path: `${url.pathname}${url.search}` }) !== "CreateBucket") continue;
    const bucket = url.pathname.split("/")[1] ?? "";
    creates.set(bucket, (creates.get(bucket) ?? 0) + 1);
  }
  for (const a of applied) assert.equal(creates.get(a.awsName), 1, `CreateBucket calls for ${a.awsName}`);

  // One replica at a time per resource: its writes, in time order, never go back to a replica.
  const writes = new Map<string, { at: number; replica: string }[]>();
  for (const { name, proc } of everyone) {
    for (const line of proc.logs()) {
      if (line["event"] !== "aws.write" || typeof line["resource"] !== "string") continue;
      const list = writes.get(line["resource"]) ?? [];
      list.push({ at: Date.parse(String(line["time"])), replica: name });
      writes.set(line["resource"], list);
    }
  }
  assert.ok(writes.size >= applied.length, `writes logged for ${writes.size} resources`);
  const moved: string[] = [];
  for (const [resource, list] of writes) {
    list.sort((x, y) => x.at - y.at);
    const order = list.map((w) => w.replica).filter((r, i, all) => i === 0 || all[i - 1] !== r);
    assert.equal(new Set(order).size, order.length, `${resource} was written by ${order.join(" → ")}`);
    if (order.length > 1) moved.push(resource);
  }
  process.stderr.write(`resources written by more than one replica over the run: ${moved.length}\n`);

  // Each live replica's metrics say how many members it sees and how many namespaces it holds.
  let held = 0;
  for (const name of ["r7", "r8"]) {
    const text = await (await fetch(`${replicas.get(name)?.metricsURL}/metrics`)).text();
    assert.match(text, new RegExp(`crossrole_shard_members\\{member="${name}"\\} 2\\n`));
    held += Number(
      new RegExp(`crossrole_shard_namespaces\\{member="${name}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
    );
  }
  assert.equal(held, namespaces.length, "the two hold every namespace between them");

  // Each caches only its shard: the Buckets of the namespaces it owns, nothing of the other's.
  const view = new Assignment(["r7", "r8"]);
  const cached = async (name: string) =>
    Number(
      /crossrole_informer_objects\{resource="buckets\.s3\.services\.k8s\.aws \(this replica's shard\)"\} (\d+)/.exec(
        await (await fetch(`${replicas.get(name)?.metricsURL}/metrics`)).text(),
      )?.[1] ?? -1,
    );
  for (const name of ["r7", "r8"]) {
    const share = applied.filter((a) => view.ownerOf(a.ns) === name).length;
    assert.ok(share > 0 && share < applied.length, `${name}'s share: ${share} of ${applied.length}`);
    await waitFor(async () => (await cached(name)) === share || undefined, {
      what: `${name} caching its ${share} Buckets only (has ${await cached(name)})`,
      timeoutMs: 10_000,
    });
  }

  // explain names the replica that reconciles the resource now: one of the two live members.
  const probeNs = probe.ns;
  // The CLI online, as the user would run it against this cluster and emulator.
  const cli = (args: string[]) =>
    runCrossrole(
      [
        ...args,
        "--kubeconfig",
        e2e.stack.kubeconfigPath,
        "--aws-endpoint-url",
        e2e.stack.awsEndpoint ?? "",
        "--controller-account",
        controllerAccount,
      ],
      { AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_REGION: region },
    );
  const run = await cli(["explain", `bucket/${probe.name}`, "-n", probeNs]);
  const owner = ownerOf(probeNs, ["r7", "r8"]);
  assert.match(
    run.stdout,
    new RegExp(`Sharded across 2 replicas \\(r7, r8\\): namespace ${probeNs} is reconciled by ${owner}`),
    run.stdout + run.stderr,
  );

  // audit names it too, for each namespace (-o json: reconciledBy; the members in shards).
  const audit = await cli(["audit", "--namespace", probeNs, "-o", "json"]);
  const report = JSON.parse(audit.stdout) as {
    shards?: { members: string[] };
    namespaces: { name: string; reconciledBy?: string }[];
  };
  assert.deepEqual(report.shards, { members: ["r7", "r8"] }, audit.stderr);
  assert.deepEqual(
    report.namespaces.map((n) => [n.name, n.reconciledBy]),
    [[probeNs, owner]],
  );
});
