// `npm run bench:shards`: memory per replica as the replicas grow and shrink. 4,000 resources
// (Buckets and Queues) in 400 namespaces on the local stack, reconciled by replica processes
// with sharding on (`--enable-sharding`, leader election), in four phases:
//   1 replica → 3 → 5 → 2 (three of the five stopped gracefully)
// After each change, once every replica caches exactly its share (crossrole_informer_objects
// against the owners rendezvous gives) and has gone idle, each replica's objects, settled RSS
// and growth over the baseline (one replica's settled RSS with one resource of each kind), and
// its V8 heap in use; which one leads (it also holds a slim view of every shard's objects).
// The memory a replica holds for resources falls about as 1/N; what a Node process costs
// with no resource does not. BENCH_SHARDS_N (4000) and BENCH_SHARDS_NAMESPACES (400) shrink it.
// Ends with one JSON line; exits 1 when a replica caches more than its share or a resource is
// not Ready.
import { type ControllerProcess, startControllerProcess } from "../src/local-stack/controller-process.ts";
import { fillExamplePlaceholders } from "../src/local-stack/example-placeholders.ts";
import { installCrds } from "../src/local-stack/install-crds.ts";
import { applyObjects } from "../src/local-stack/manifests.ts";
import { startStack, waitFor } from "../src/local-stack/stack.ts";
import { createKubeClient } from "../src/runtime/kube-client.ts";
import type { KubeObject } from "../src/runtime/kube-object.ts";
import { Assignment } from "../src/runtime/shards/rendezvous.ts";
import { minimalResource } from "../test/support/minimal-resources.ts";
import { metricSamples, metricSum, readyCount, waitForIdle } from "./cluster-figures.ts";
import { steadyRssMB } from "./memory.ts";

const total = Number(process.env["BENCH_SHARDS_N"] ?? 4_000);
const namespaceCount = Number(process.env["BENCH_SHARDS_NAMESPACES"] ?? 400);
const kinds = ["Bucket", "Queue"] as const;
const log = (line: string) => process.stderr.write(`[bench:shards] ${line}\n`);
const ns = (name: string) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name } }) as KubeObject;
const shardInformer = /^(buckets\.s3|queues\.sqs)\.services\.k8s\.aws \(this replica's shard\)$/;

const stack = await startStack({});
const replicas = new Map<string, ControllerProcess>();
try {
  const kube = createKubeClient(stack.kubeConfig);
  await installCrds(kube);
  const namespaces = Array.from({ length: namespaceCount }, (_, i) => `shard-${i}`);
  await applyObjects(kube, [ns("ack-system"), ...namespaces.map(ns)]);
  const start = async (name: string) => {
    replicas.set(
      name,
      await startControllerProcess(
        stack,
        ["--enable-sharding", `--shard-member=${name}`, "--enable-leader-election=true"],
        { logLevel: "warn", name },
      ),
    );
  };
  const perNamespace = Math.ceil(total / namespaces.length);
  let k = 0;
  const items = await fillExamplePlaceholders(
    namespaces
      .flatMap((n) =>
        Array.from({ length: perNamespace }, (_, i) =>
          minimalResource(kinds[k++ % kinds.length] ?? "Bucket", n, `r${i}`, `${n}-r${i}`),
        ),
      )
      .slice(0, total),
    stack.awsEndpoint ?? "",
  );
  const objectsIn = new Map<string, number>();
  for (const item of items) {
    const n = item.metadata.namespace ?? "";
    objectsIn.set(n, (objectsIn.get(n) ?? 0) + 1);
  }

  /** Each live replica's cached objects of the two kinds. */
  const cached = async (name: string): Promise<number> => {
    const text = await (await fetch(`${replicas.get(name)?.metricsURL}/metrics`)).text();
    return metricSamples(text, "crossrole_informer_objects")
      .filter((s) => shardInformer.test(/resource="([^"]*)"/.exec(s.labels)?.[1] ?? ""))
      .reduce((sum, s) => sum + s.value, 0);
  };
  const shareOf = (name: string, view: Assignment) =>
    namespaces.reduce((sum, n) => sum + (view.ownerOf(n) === name ? (objectsIn.get(n) ?? 0) : 0), 0);

  interface Phase {
    readonly replicas: number;
    readonly perReplica: Record<
      string,
      { objects: number; share: number; rssMB: number; heapUsedMB: number; leader: boolean }
    >;
  }
  const phases: Phase[] = [];
  let baselineMB = 0;
  const measure = async (): Promise<Phase> => {
    const live = [...replicas.keys()].sort();
    const view = new Assignment(live);
    await waitFor(
      async () => {
        for (const name of live) if ((await cached(name)) !== shareOf(name, view)) return undefined;
        return true;
      },
      { what: `each of ${live.join(", ")} caching its share`, timeoutMs: 180_000, intervalMs: 1_000 },
    );
    await Promise.all(
      live.map((name) =>
        waitForIdle(replicas.get(name)?.metricsURL ?? "", {
          quietMs: 5_000,
          intervalMs: 1_000,
          timeoutMs: 600_000,
        }),
      ),
    );
    const perReplica: Phase["perReplica"] = {};
    await Promise.all(
      live.map(async (name) => {
        const { rssMB } = await steadyRssMB(replicas.get(name)?.pid, { timeoutMs: 120_000 });
        const text = await (await fetch(`${replicas.get(name)?.metricsURL}/metrics`)).text();
        perReplica[name] = {
          objects: await cached(name),
          share: shareOf(name, view),
          rssMB,
          heapUsedMB: Math.round(metricSum(text, "nodejs_heap_size_used_bytes") / 2 ** 20),
          // The leader also holds the slim view of every shard's objects.
          leader: metricSum(text, "leader_election_master_status") > 0,
        };
      }),
    );
    const phase = { replicas: live.length, perReplica };
    log(`${live.length} replica(s): ${JSON.stringify(perReplica)}`);
    phases.push(phase);
    return phase;
  };

  // 1 replica: the baseline (one resource of each kind), then all of them.
  await start("r1");
  await applyObjects(kube, items.slice(0, kinds.length));
  await waitFor(
    async () => {
      for (const kind of kinds) if ((await readyCount(kube, kind)) < 1) return undefined;
      return true;
    },
    { what: "one resource of each kind Ready", timeoutMs: 120_000 },
  );
  await waitForIdle(replicas.get("r1")?.metricsURL ?? "", {
    quietMs: 5_000,
    intervalMs: 1_000,
    timeoutMs: 60_000,
  });
  baselineMB = (await steadyRssMB(replicas.get("r1")?.pid, { timeoutMs: 120_000 })).rssMB;
  log(`baseline (one replica, one resource of each kind): ${baselineMB} MB`);
  const rest = items.slice(kinds.length);
  for (let i = 0; i < rest.length; i += 100) {
    await Promise.all(rest.slice(i, i + 100).map((item) => applyObjects(kube, [item])));
  }
  await waitFor(
    async () => {
      let ready = 0;
      for (const kind of kinds) ready += await readyCount(kube, kind);
      return ready === items.length || undefined;
    },
    { what: `${items.length} resources Ready`, timeoutMs: 1_800_000, intervalMs: 3_000 },
  );
  await measure();
  // 3, 5, then 2 (r1–r3 stop gracefully: their Leases are released, their shares move at once).
  await Promise.all(["r2", "r3"].map(start));
  await measure();
  await Promise.all(["r4", "r5"].map(start));
  await measure();
  for (const name of ["r1", "r2", "r3"]) {
    await replicas.get(name)?.stop("SIGTERM");
    replicas.delete(name);
  }
  await measure();
  let ready = 0;
  for (const kind of kinds) ready += await readyCount(kube, kind);

  const summary = phases.map((p) => {
    const values = Object.values(p.perReplica);
    const max = Math.max(...values.map((v) => v.rssMB));
    const aboveBaseline = values.map((v) => v.rssMB - baselineMB);
    return {
      replicas: p.replicas,
      objectsPerReplica: values.map((v) => v.objects),
      rssMBPerReplica: values.map((v) => v.rssMB),
      heapUsedMBPerReplica: values.map((v) => v.heapUsedMB),
      leaderIndex: values.findIndex((v) => v.leader),
      maxRssMB: max,
      meanAboveBaselineMB: Number((aboveBaseline.reduce((a, b) => a + b, 0) / values.length).toFixed(1)),
    };
  });
  const exact = phases.every((p) => Object.values(p.perReplica).every((v) => v.objects === v.share));
  const figures = {
    bench: "shards",
    resources: items.length,
    namespaces: namespaces.length,
    baselineRssMB: baselineMB,
    phases: summary,
    everyReplicaCachesExactlyItsShare: exact,
    ready,
  };
  process.stdout.write(`${JSON.stringify({ ...figures, targetsMet: exact && ready === items.length })}\n`);
  if (!exact || ready !== items.length) process.exitCode = 1;
} finally {
  await Promise.all([...replicas.values()].map((r) => r.stop("SIGTERM")));
  await stack.stop();
}
