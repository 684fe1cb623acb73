// Audit benchmark (issue 11, "Performance"): a benchmark, not a timed test.
// Run: npm run bench:audit   (Node 24)
//
// Builds a synthetic cluster — 10,000 namespaces, 2,000 IAMRoleSelectors, 500 identities (role
// identities with chains from AWSControllerIdentity default `{}`, some admitting every
// namespace `{}`, some lists, some label selectors, static and service-account identities), the
// CARM maps — and measures, in IAMRoleSelector mode (where the selectors count), the wall time
// of what `crossrole audit -o json` computes: buildSnapshot + computeAudit + JSON serialisation
// (target ≤ 2 s), and the process's peak RSS (target ≤ 300 MB), with --max-semi-space-size=2 as
// bin/crossrole.js runs every command. A CARM-mode pass over the same objects is reported, not
// judged.
// Progress goes to stderr; stdout gets exactly one JSON line with every figure; the exit code is
// 1 when a target is missed. Inputs come from the benches' seeded generator (seeded-random.ts), so every run audits
// the same cluster.

import { loadavg } from "node:os";
import { resourceKinds } from "../src/api/kinds.ts";
import { computeAudit } from "../src/audit/compute.ts";
import { reportJsonChunks } from "../src/audit/json.ts";
import type { AuditReport } from "../src/audit/model.ts";
import { defaultFeatureGates, defaultSettings } from "../src/resolver/settings.ts";
import { buildSnapshot } from "../src/resolver/snapshot.ts";
import type { ConfigObjects, Settings } from "../src/resolver/types.ts";
import { isServed } from "../src/services/served.ts";
import { seededRandom } from "./seeded-random.ts";

const targets = { wallMs: 2000, peakRssMB: 300 };
const namespaceCount = 10_000;
const selectorCount = 2_000;
const identityCount = 500;
const teamCount = 400;
const envs = ["dev", "stage", "prod"] as const;
const tiers = ["bronze", "silver", "gold", "platinum"] as const;
const kinds = resourceKinds.filter((k) => isServed(k.kind));

const random = seededRandom(20240611);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const below = (n: number) => Math.floor(random() * n);

const nsName = (i: number) => `ns-${String(i).padStart(5, "0")}`;
const teamName = (i: number) => `team-${String(i).padStart(3, "0")}`;
const account = (i: number) => String(100000000000 + i).padStart(12, "0");
const roleArn = (acct: number, name: string) => `arn:aws:iam::${account(acct)}:role/${name}`;

function names(count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) out.add(nsName(below(namespaceCount)));
  return [...out];
}

function namespaces(): unknown[] {
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
          env: pick(envs),
          tier: pick(tiers),
        },
        annotations: {
          "services.k8s.aws/owner-account-id": account(team),
          ...(i % 4 === 0 ? { "services.k8s.aws/team-id": teamName(team) } : {}),
          ...(i % 3 === 0 ? { "services.k8s.aws/default-region": "eu-central-1" } : {}),
        },
      },
    });
  }
  return out;
}

/** How administrators write selectors: by names, by team labels, by expressions, a few wide ones. */
function selectors(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < selectorCount; i++) {
    const spec: Record<string, unknown> = { arn: roleArn(i % 1000, `sel-${i}`) };
    const shape = random();
    if (i < 5) {
      // No namespace selector at all: the wide grants the audit must flag.
      const kind = kinds[i % kinds.length]!;
      spec["resourceTypeSelector"] = [{ apiVersion: `${kind.group}/${kind.version}`, kind: kind.kind }];
      if (i % 2 === 1) spec["resourceLabelSelector"] = { matchLabels: { app: `wide-${i}` } };
    } else if (shape < 0.4) {
      spec["namespaceSelector"] = { names: names(1 + below(5)) };
    } else if (shape < 0.7) {
      spec["namespaceSelector"] = {
        labelSelector: { matchLabels: { team: teamName(below(teamCount)), env: pick(envs) } },
      };
    } else if (shape < 0.9) {
      spec["namespaceSelector"] = {
        labelSelector: {
          matchLabels: { team: teamName(below(teamCount)) },
          matchExpressions: [
            { key: "env", operator: "In", values: ["dev", "stage"] },
            { key: "tier", operator: "NotIn", values: [pick(tiers)] },
          ],
        },
      };
    } else {
      spec["namespaceSelector"] = { labelSelector: { matchLabels: { team: teamName(below(teamCount)) } } };
      spec["resourceLabelSelector"] = { matchLabels: { app: `app-${below(50)}` } };
    }
    if (i >= 5 && random() < 0.5) {
      const kind = pick(kinds);
      spec["resourceTypeSelector"] =
        random() < 0.5
          ? [{ apiVersion: `${kind.group}/${kind.version}`, kind: kind.kind }]
          : [{ group: kind.group, version: "", kind: "" }];
    }
    out.push({
      apiVersion: "services.k8s.aws/v1alpha1",
      kind: "IAMRoleSelector",
      metadata: { name: `sel-${String(i).padStart(5, "0")}`, resourceVersion: String(1000 + i) },
      spec,
    });
  }
  return out;
}

/** The identity mix: wide and narrow role identities, chains across accounts, static and SA ones. */
function identities(): unknown[] {
  const group = "identity.crossrole.dev/v1alpha1";
  const out: unknown[] = [
    {
      apiVersion: group,
      kind: "AWSControllerIdentity",
      metadata: { name: "default" },
      // `{}`, as in ACK and Alice's story: every role identity's chain starts from it.
      spec: { allowedNamespaces: {} },
    },
  ];
  const allowed = (i: number): unknown =>
    i % 60 === 0
      ? {}
      : i % 2 === 0
        ? { list: names(1 + below(5)) }
        : { selector: { matchLabels: { team: teamName(below(teamCount)) } } };
  const roleIdentities = 300;
  for (let i = 0; i < roleIdentities; i++) {
    out.push({
      apiVersion: group,
      kind: "AWSRoleIdentity",
      metadata: { name: `role-${i}` },
      spec: {
        roleARN: roleArn(500 + (i % 200), `identity-${i}`),
        sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
        allowedNamespaces: allowed(i),
      },
    });
  }
  // Chains: each assumes a role from another role identity (often in another account).
  const chained = 100;
  for (let i = 0; i < chained; i++) {
    out.push({
      apiVersion: group,
      kind: "AWSRoleIdentity",
      metadata: { name: `chain-${i}` },
      spec: {
        roleARN: roleArn(700 + (i % 50), `chained-${i}`),
        sourceIdentityRef: { kind: "AWSRoleIdentity", name: `role-${below(roleIdentities)}` },
        allowedNamespaces: i % 3 === 0 ? {} : allowed(i + 1),
      },
    });
  }
  const statics = 10;
  for (let i = 0; i < statics; i++) {
    out.push({
      apiVersion: group,
      kind: "AWSStaticIdentity",
      metadata: { name: `static-${i}` },
      spec: { secretRef: `static-${i}`, allowedNamespaces: { list: names(2) } },
    });
  }
  for (let i = 0; out.length < identityCount; i++) {
    out.push({
      apiVersion: group,
      kind: "AWSServiceAccountIdentity",
      metadata: { name: `sa-${i}`, namespace: nsName(below(namespaceCount)) },
      spec: { roleARN: roleArn(800 + (i % 50), `sa-${i}`), serviceAccountName: "app" },
    });
  }
  return out;
}

function carmMaps(): unknown[] {
  const accountData: Record<string, string> = {};
  const teamData: Record<string, string> = {};
  for (let t = 0; t < teamCount; t++) {
    accountData[account(t)] = roleArn(t, "ack");
    teamData[teamName(t)] = roleArn(t, "team");
  }
  const map = (name: string, data: Record<string, string>) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "ack-system" },
    data,
  });
  return [map("ack-role-account-map", accountData), map("ack-role-team-map", teamData)];
}

// ---- measurement ----

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const peakRssMB = () => round(process.resourceUsage().maxRSS / 1024);

interface Figures {
  mode: string;
  wallMs: number;
  /**
   * User + system CPU time of the same span, every thread (V8's GC helpers too, so it can exceed
   * the wall time): less sensitive than the wall time to other processes on the machine.
   */
  cpuMs: number;
  snapshotMs: number;
  auditMs: number;
  jsonMs: number;
  jsonMB: number;
  peakRssMB: number;
  totals: AuditReport["totals"];
  actualReaches: number;
  findingsByCode: Record<string, number>;
}

function measure(objects: ConfigObjects, settings: Settings): Figures {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const snapshot = buildSnapshot(objects, settings);
  const t1 = performance.now();
  const report = computeAudit({ snapshot, settings, kinds, source: { from: "files", detail: "bench" } });
  const t2 = performance.now();
  // What `-o json` writes, chunk by chunk (the CLI hands each chunk to stdout).
  let jsonBytes = 0;
  for (const chunk of reportJsonChunks(report)) jsonBytes += chunk.length;
  const t3 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  if (snapshot.problems.length > 0)
    throw new Error(`fixtures have problems: ${snapshot.problems[0]!.message}`);
  const findingsByCode: Record<string, number> = {};
  for (const f of report.findings) findingsByCode[f.code] = (findingsByCode[f.code] ?? 0) + 1;
  const figures: Figures = {
    mode: report.mode,
    wallMs: round(t3 - t0),
    cpuMs: round((cpu.user + cpu.system) / 1000),
    snapshotMs: round(t1 - t0),
    auditMs: round(t2 - t1),
    jsonMs: round(t3 - t2),
    jsonMB: round(jsonBytes / 1024 / 1024),
    peakRssMB: peakRssMB(),
    totals: report.totals,
    actualReaches: report.reaches.filter((r) => r.actual).length,
    findingsByCode,
  };
  process.stderr.write(`${report.mode} mode: ${JSON.stringify(figures)}\n`);
  return figures;
}

const objects: ConfigObjects = {
  namespaces: namespaces(),
  configMaps: carmMaps(),
  iamRoleSelectors: selectors(),
  identities: identities(),
};
const base = { ...defaultSettings, defaultRegion: "eu-west-1", controllerAccount: "999999999999" };
const selectorMode: Settings = {
  ...base,
  featureGates: { ...defaultFeatureGates, IAMRoleSelector: true },
  enableCARM: false,
};
const carmMode: Settings = { ...base, featureGates: { ...defaultFeatureGates, TeamLevelCARM: true } };

const selectorRun = measure(objects, selectorMode);
const met = selectorRun.wallMs <= targets.wallMs && selectorRun.peakRssMB <= targets.peakRssMB;
const carmRun = measure(objects, carmMode);

process.stdout.write(
  `${JSON.stringify({
    bench: "audit",
    node: process.version,
    namespaces: namespaceCount,
    selectors: selectorCount,
    identities: identityCount,
    kinds: kinds.length,
    targets,
    /** The machine's 1-minute load average when done: wall times grow with it. */
    loadAverage: round(loadavg()[0] ?? 0, 2),
    iamRoleSelector: selectorRun,
    carm: { ...carmRun, peakRssMB: peakRssMB() },
    targetsMet: met,
  })}\n`,
);
if (!met) process.exitCode = 1;
