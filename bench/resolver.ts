// Resolver benchmark (issue 3, "Performance"): a benchmark, not a timed test.
// Run: npm run bench:resolver   (Node 24 with --expose-gc, set in package.json)
//
// Builds a synthetic cluster — 10,000 namespaces, 2,000 IAMRoleSelectors (namespace names,
// label selectors, resource types, resource labels, mixed), 100,000 resources — and measures:
//   - snapshot build time (target ≤ 1 s),
//   - per-decision time with process.hrtime.bigint around each resolve() call in
//     IAMRoleSelector mode: median (≤ 20 µs) and p99 (≤ 100 µs),
//   - memory held by the snapshot: heap and RSS growth across buildSnapshot after a full GC
//     (≤ 200 MB),
// then the same with 20,000 selectors (to show how cost grows), and a CARM-mode pass.
// Progress goes to stderr; stdout gets exactly one JSON line with every figure. The exit code is
// 1 when the 2,000-selector run misses a target (the other runs are reported, not judged).
// Inputs come from a seeded generator, so every run decides the same cases.

import { resolve } from "../src/resolver/resolve.ts";
import { defaultFeatureGates, defaultSettings } from "../src/resolver/settings.ts";
import { buildSnapshot } from "../src/resolver/snapshot.ts";
import type { ConfigObjects, Decision, ResourceObject, Settings } from "../src/resolver/types.ts";
import { seededRandom } from "./seeded-random.ts";

const targets = { snapshotBuildMs: 1000, decisionMedianUs: 20, decisionP99Us: 100, snapshotMemoryMB: 200 };
const namespaceCount = 10_000;
const resourceCount = 100_000;
const teamCount = 400;
const envs = ["dev", "stage", "prod"] as const;
const tiers = ["bronze", "silver", "gold", "platinum"] as const;
const kinds: readonly [string, string][] = [
  ["s3.services.k8s.aws/v1alpha1", "Bucket"],
  ["sqs.services.k8s.aws/v1alpha1", "Queue"],
  ["sns.services.k8s.aws/v1alpha1", "Topic"],
  ["dynamodb.services.k8s.aws/v1alpha1", "Table"],
  ["rds.services.k8s.aws/v1alpha1", "DBInstance"],
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

const nsName = (i: number) => `ns-${String(i).padStart(5, "0")}`;
const teamName = (i: number) => `team-${String(i).padStart(3, "0")}`;
const account = (i: number) => String(100000000000 + i).padStart(12, "0");

function namespaces(random: () => number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < namespaceCount; i++) {
    const team = i % teamCount;
    out.push({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: nsName(i),
        labels: {
          "kubernetes.io/metadata.name": nsName(i),
          team: teamName(team),
          env: pick(random, envs),
          tier: pick(random, tiers),
        },
        annotations: {
          "services.k8s.aws/owner-account-id": account(team),
          "services.k8s.aws/team-id": teamName(team),
          ...(i % 3 === 0 ? { "services.k8s.aws/default-region": "eu-central-1" } : {}),
        },
      },
    });
  }
  return out;
}

/** The selector mix: how administrators write them (names, team labels, expressions, types). */
function selectors(random: () => number, count: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const spec: Record<string, unknown> = { arn: `arn:aws:iam::${account(i % 1000)}:role/sel-${i}` };
    const shape = random();
    if (shape < 0.4) {
      const names = new Set<string>();
      const n = 1 + Math.floor(random() * 5);
      while (names.size < n) names.add(nsName(Math.floor(random() * namespaceCount)));
      spec["namespaceSelector"] = { names: [...names] };
    } else if (shape < 0.7) {
      spec["namespaceSelector"] = {
        labelSelector: {
          matchLabels: { team: teamName(Math.floor(random() * teamCount)), env: pick(random, envs) },
        },
      };
    } else if (shape < 0.9) {
      spec["namespaceSelector"] = {
        labelSelector: {
          matchLabels: { team: teamName(Math.floor(random() * teamCount)) },
          matchExpressions: [
            { key: "env", operator: "In", values: ["dev", "stage"] },
            { key: "tier", operator: "NotIn", values: [pick(random, tiers)] },
          ],
        },
      };
    } else {
      // No indexable namespace part: only NotIn / Exists, narrowed by resource type.
      spec["namespaceSelector"] = {
        labelSelector: {
          matchExpressions: [{ key: "tier", operator: "NotIn", values: ["bronze", "silver", "gold"] }],
        },
      };
      spec["resourceLabelSelector"] = { matchLabels: { app: `app-${Math.floor(random() * 50)}` } };
    }
    if (random() < 0.5) {
      const [apiVersion, kind] = pick(random, kinds);
      spec["resourceTypeSelector"] =
        random() < 0.5
          ? [{ apiVersion, kind }]
          : [{ group: apiVersion.split("/")[0], version: "", kind: "" }];
    }
    if (random() < 0.1)
      spec["resourceLabelSelector"] = { matchLabels: { app: `app-${Math.floor(random() * 50)}` } };
    out.push({
      apiVersion: "services.k8s.aws/v1alpha1",
      kind: "IAMRoleSelector",
      metadata: { name: `sel-${String(i).padStart(5, "0")}`, resourceVersion: String(1000 + i) },
      spec,
    });
  }
  return out;
}

function carmMaps(): unknown[] {
  const accountData: Record<string, string> = {};
  const teamData: Record<string, string> = {};
  for (let t = 0; t < teamCount; t++) {
    accountData[account(t)] = `arn:aws:iam::${account(t)}:role/ack`;
    teamData[teamName(t)] = `arn:aws:iam::${account(t)}:role/team`;
    teamData[`s3.${teamName(t)}`] = `arn:aws:iam::${account(t)}:role/team-s3`;
  }
  return [
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-account-map", namespace: "ack-system" },
      data: accountData,
    },
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-team-map", namespace: "ack-system" },
      data: teamData,
    },
  ];
}

function resources(random: () => number): { resource: ResourceObject; namespace: string }[] {
  const out: { resource: ResourceObject; namespace: string }[] = [];
  for (let i = 0; i < resourceCount; i++) {
    const namespace = nsName(Math.floor(random() * namespaceCount));
    const [apiVersion, kind] = pick(random, kinds);
    const resource = {
      apiVersion,
      kind,
      metadata: {
        name: `r-${i}`,
        namespace,
        labels: { app: `app-${Math.floor(random() * 50)}` },
        annotations: random() < 0.05 ? { "services.k8s.aws/region": "us-east-1" } : {},
      },
      spec: {},
    };
    out.push({ resource: resource as unknown as ResourceObject, namespace });
  }
  return out;
}

// ---- measurement ----

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error("run with --expose-gc (npm run bench:resolver does)");
  collect();
  collect();
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

interface RunFigures {
  selectors: number;
  snapshotBuildMs: number;
  snapshotBuildColdMs: number;
  snapshotHeapMB: number;
  snapshotRssMB: number;
  decisions: number;
  decisionMedianUs: number;
  decisionP99Us: number;
  decisionMaxUs: number;
  /** Selectors that matched per decision, on average: what decision cost should follow. */
  avgMatchingSelectors: number;
  outcomes: Record<string, number>;
}

/** How many selectors matched, read back from the decision (a conflict lists them all). */
function matchingCount(d: Decision): number {
  if (d.outcome === "conflict" && d.source === "iamRoleSelector") {
    return (d.message.slice(d.message.lastIndexOf("[")).match(/,/g)?.length ?? 0) + 1;
  }
  return d.selector === null ? 0 : 1;
}

function measure(
  label: string,
  objects: ConfigObjects,
  settings: Settings,
  cases: ReturnType<typeof resources>,
): RunFigures {
  // Memory: everything but the snapshot exists before the first reading.
  gc();
  const before = process.memoryUsage();
  let start = process.hrtime.bigint();
  const snapshot = buildSnapshot(objects, settings);
  const coldMs = Number(process.hrtime.bigint() - start) / 1e6;
  gc();
  const after = process.memoryUsage();
  if (snapshot.problems.length > 0)
    throw new Error(`${label}: fixtures have problems: ${snapshot.problems[0]!.message}`);

  // Build time once warm: the median of three more builds.
  const builds: number[] = [];
  for (let i = 0; i < 3; i++) {
    start = process.hrtime.bigint();
    buildSnapshot(objects, settings);
    builds.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  builds.sort((a, b) => a - b);

  // Warm the decision path, then time every decision on its own.
  for (let i = 0; i < 5_000; i++) resolve(cases[i]!.resource, cases[i]!.namespace, snapshot, settings);
  gc();
  const times = new Float64Array(cases.length);
  const outcomes: Record<string, number> = {};
  let matching = 0;
  let d: Decision;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    const t0 = process.hrtime.bigint();
    d = resolve(c.resource, c.namespace, snapshot, settings);
    times[i] = Number(process.hrtime.bigint() - t0) / 1e3;
    const key = `${d.outcome}/${d.source}`;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
    matching += matchingCount(d);
  }
  times.sort();
  const figures: RunFigures = {
    selectors: (objects.iamRoleSelectors ?? []).length,
    snapshotBuildMs: round(builds[1]!, 1),
    snapshotBuildColdMs: round(coldMs, 1),
    snapshotHeapMB: mb(after.heapUsed - before.heapUsed),
    snapshotRssMB: mb(after.rss - before.rss),
    decisions: cases.length,
    decisionMedianUs: round(percentile(times, 50)),
    decisionP99Us: round(percentile(times, 99)),
    decisionMaxUs: round(times[times.length - 1]!),
    avgMatchingSelectors: round(matching / cases.length),
    outcomes,
  };
  process.stderr.write(`${label}: ${JSON.stringify(figures)}\n`);
  // Keep the snapshot alive until after the memory reading and the decisions.
  if (snapshot.namespaces.size !== namespaceCount) throw new Error("lost namespaces");
  return figures;
}

function met(f: RunFigures): boolean {
  return (
    f.snapshotBuildColdMs <= targets.snapshotBuildMs &&
    f.decisionMedianUs <= targets.decisionMedianUs &&
    f.decisionP99Us <= targets.decisionP99Us &&
    Math.max(f.snapshotHeapMB, f.snapshotRssMB) <= targets.snapshotMemoryMB
  );
}

const random = seededRandom(20240601);
const nsObjects = namespaces(random);
const cases = resources(random);
const selectorMode: Settings = {
  ...defaultSettings,
  featureGates: { ...defaultFeatureGates, IAMRoleSelector: true },
  enableCARM: false,
  defaultRegion: "eu-west-1",
  controllerAccount: "999999999999",
};
const carmMode: Settings = {
  ...defaultSettings,
  featureGates: { ...defaultFeatureGates, TeamLevelCARM: true, ServiceLevelCARM: true },
  defaultRegion: "eu-west-1",
  controllerAccount: "999999999999",
};

const selectors2k = selectors(random, 2_000);
const selectors20k = selectors(random, 20_000);
const run2k = measure(
  "IAMRoleSelector mode, 2,000 selectors",
  { namespaces: nsObjects, iamRoleSelectors: selectors2k },
  selectorMode,
  cases,
);
const run20k = measure(
  "IAMRoleSelector mode, 20,000 selectors",
  { namespaces: nsObjects, iamRoleSelectors: selectors20k },
  selectorMode,
  cases,
);
const carm = measure(
  "CARM mode (team + service level), 2,000 selectors present",
  { namespaces: nsObjects, configMaps: carmMaps(), iamRoleSelectors: selectors2k },
  carmMode,
  cases,
);

process.stdout.write(
  `${JSON.stringify({
    bench: "resolver",
    node: process.version,
    namespaces: namespaceCount,
    resources: resourceCount,
    targets,
    iamRoleSelector2k: { ...run2k, targetsMet: met(run2k) },
    iamRoleSelector20k: { ...run20k, targetsMet: met(run20k) },
    carm: { ...carm, targetsMet: met(carm) },
    targetsMet: met(run2k),
  })}\n`,
);
// The targets are for the 2,000-selector run; the others are reported to show how cost grows.
if (!met(run2k)) process.exitCode = 1;
