// `npm run bench:scale`: 10,000 resources over every served kind, 1,000 namespaces and 50
// accounts, applied at once to the local stack, with one controller process on default settings,
// until every one is Ready — then until the controller is idle and its memory has settled.
// Placement is mixed, per account in turn: the CARM account map (namespace owner-account-id),
// the team map (team-id, TeamLevelCARM), and spec.identityRef to an AWSRoleIdentity whose
// allowedNamespaces selects the account's namespaces by label. One role per account: AssumeRole
// calls, counted at the emulator, must equal 50.
// Figures: wall time to all Ready, CPU seconds, peak / steady RSS and memory per resource (the
// steady RSS's growth from one resource of each kind to all of them), AWS and Kubernetes calls per resource,
// reconciles per resource (1.0: no second pass), where each kind's reconciles spend their time
// (ms per reconcile in Kubernetes requests, AWS calls and the controller's own work), AssumeRole
// calls, misplaced resources, and the process's memory phases. BENCH_SCALE_N (10000), BENCH_SCALE_NAMESPACES (1000) and
// BENCH_SCALE_ACCOUNTS (50) shrink the workload; CROSSROLE_V8_JIT=1 runs the controller with V8's
// compilers. Ends with one JSON line; exits 1 when a target is missed.
import { readFile } from "node:fs/promises";
import { lookupKind } from "../src/api/kinds.ts";
import { accountsHolding } from "../src/local-stack/accounts.ts";
import { startControllerProcess } from "../src/local-stack/controller-process.ts";
import { fillExamplePlaceholders } from "../src/local-stack/example-placeholders.ts";
import { installCrds } from "../src/local-stack/install-crds.ts";
import { applyObjects } from "../src/local-stack/manifests.ts";
import { startStack, waitFor } from "../src/local-stack/stack.ts";
import { createKubeClient } from "../src/runtime/kube-client.ts";
import type { KubeObject } from "../src/runtime/kube-object.ts";
import { servedKindNames } from "../src/services/served.ts";
import { minimalResource, namespaceObjectsFor } from "../test/support/minimal-resources.ts";
import { readMotoRecording } from "../test/support/moto-recording.ts";
import { metricByLabel, metricSum, readyCount, stepMsPerReconcile, waitForIdle } from "./cluster-figures.ts";
import { peakRssMB, readPhases, steadyRssMB, summarisePhases } from "./memory.ts";

const total = Number(process.env["BENCH_SCALE_N"] ?? 10_000);
const namespaceCount = Number(process.env["BENCH_SCALE_NAMESPACES"] ?? 1_000);
const accountCount = Number(process.env["BENCH_SCALE_ACCOUNTS"] ?? 50);
const jit = process.env["CROSSROLE_V8_JIT"] === "1";
const targets = { peakRssMB: 250, kibPerResource: 12, reconcilesPerResource: 1.05 };
const log = (line: string) => process.stderr.write(`[bench:scale] ${line}\n`);

const accounts = Array.from({ length: accountCount }, (_, i) => String(200000000000 + i * 1000003));
const roleOf = (account: string) => `arn:aws:iam::${account}:role/scale`;
const kinds = servedKindNames;
const ns = (name: string, annotations: Record<string, string>, labels: Record<string, string> = {}) =>
  ({ apiVersion: "v1", kind: "Namespace", metadata: { name, annotations, labels } }) as KubeObject;

interface Tenant {
  readonly name: string;
  readonly account: string;
  readonly spec: Record<string, unknown>;
}

/** The configuration (namespaces, maps, identities) and the tenants, placement mixed per account. */
function configuration(): { objects: KubeObject[]; tenants: Tenant[] } {
  const objects: KubeObject[] = [ns("ack-system", {})];
  const tenants: Tenant[] = [];
  const accountMap: Record<string, string> = {};
  const teamMap: Record<string, string> = {};
  for (let n = 0; n < namespaceCount; n++) {
    const a = n % accountCount;
    const account = accounts[a] ?? "";
    const name = `scale-${n}`;
    const way = a % 3;
    if (way === 0) {
      accountMap[account] = roleOf(account);
      objects.push(ns(name, { "services.k8s.aws/owner-account-id": account }));
      tenants.push({ name, account, spec: {} });
    } else if (way === 1) {
      teamMap[`team-${a}`] = roleOf(account);
      objects.push(ns(name, { "services.k8s.aws/team-id": `team-${a}` }));
      tenants.push({ name, account, spec: {} });
    } else {
      objects.push(ns(name, {}, { "scale-identity": `id-${a}` }));
      tenants.push({ name, account, spec: { identityRef: { kind: "AWSRoleIdentity", name: `id-${a}` } } });
    }
  }
  accounts.forEach((account, a) => {
    if (a % 3 !== 2) return;
    objects.push({
      apiVersion: "identity.crossrole.dev/v1alpha1",
      kind: "AWSRoleIdentity",
      metadata: { name: `id-${a}` },
      spec: {
        sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
        roleARN: roleOf(account),
        allowedNamespaces: { selector: { matchLabels: { "scale-identity": `id-${a}` } } },
      },
    } as KubeObject);
  });
  objects.push(
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-account-map", namespace: "ack-system" },
      data: accountMap,
    } as KubeObject,
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-team-map", namespace: "ack-system" },
      data: teamMap,
    } as KubeObject,
  );
  return { objects, tenants };
}

/** utime + stime of a process, in seconds (/proc/<pid>/stat, clock ticks of 100 Hz). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const stack = await startStack({ awsRecording: true });
try {
  const kube = createKubeClient(stack.kubeConfig);
  await installCrds(kube);
  const { objects, tenants } = configuration();
  await applyObjects(kube, objects);
  const controller = await startControllerProcess(stack, ["--feature-gates=TeamLevelCARM=true"], {
    logLevel: "warn",
    name: "scale",
    env: { CROSSROLE_MEMORY_PHASES: "1", ...(jit ? { CROSSROLE_V8_JIT: "1" } : {}) },
  });
  // Idle: no reconcile for 5 s; `metrics` is then the controller's last metrics text. Scraped
  // every 2 s (a Prometheus would every 15-30 s): each scrape counts every resource.
  let metrics = "";
  const idle = async () => {
    ({ metrics } = await waitForIdle(controller.metricsURL, {
      quietMs: 5_000,
      intervalMs: 2_000,
      timeoutMs: 600_000,
    }));
  };
  await applyObjects(
    kube,
    tenants.flatMap((t) => namespaceObjectsFor(kinds, t.name)),
  );
  const perNamespace = Math.ceil(total / tenants.length);
  // Kinds take turns across the whole workload, so each gets about total / kinds.length.
  let k = 0;
  const items = await fillExamplePlaceholders(
    tenants
      .flatMap((t) =>
        Array.from({ length: perNamespace }, (_, i) => {
          const kind = kinds[k++ % kinds.length] ?? "Bucket";
          return minimalResource(kind, t.name, `r${i}`, `${t.name}-r${i}`, t.spec, t.account);
        }),
      )
      .slice(0, total),
    stack.awsEndpoint ?? "",
  );
  const perKind = Object.fromEntries(
    kinds.map((kind) => [kind, items.filter((i) => i.kind === kind).length]),
  );
  // First one resource of each kind, so that every kind's module and AWS SDK client is loaded:
  // the memory per resource is the growth from there (what the process costs with no resource
  // but every kind in use is the steady RSS at this point, baselineRssMB).
  const warmup = items.slice(0, kinds.length);
  await applyObjects(kube, warmup);
  await waitFor(
    async () => {
      for (const kind of kinds) if ((await readyCount(kube, kind)) < 1) return undefined;
      return true;
    },
    { what: "one resource of each kind Ready", timeoutMs: 300_000, intervalMs: 500 },
  );
  await idle();
  const baseline = await steadyRssMB(controller.pid, { timeoutMs: 120_000 });
  log(`baseline (one resource of each kind, settled): ${baseline.rssMB} MB`);
  const rest = items.slice(warmup.length);
  const cpuBefore = await cpuSeconds(controller.pid);
  const t0 = performance.now();
  for (let i = 0; i < rest.length; i += 100) {
    await Promise.all(rest.slice(i, i + 100).map((item) => applyObjects(kube, [item])));
    if (i % 2000 === 0) log(`applied ${i + 100}`);
  }
  const applySeconds = (performance.now() - t0) / 1000;
  log(`applied ${rest.length} in ${applySeconds.toFixed(0)} s`);
  const kindSeconds: Record<string, number> = {};
  await waitFor(
    async () => {
      for (const kind of kinds) {
        if (kind in kindSeconds) continue;
        const ready = await readyCount(kube, kind);
        if (ready === perKind[kind]) {
          kindSeconds[kind] = Number(((performance.now() - t0) / 1000).toFixed(1));
          log(`${kind}: all ${ready} Ready at ${kindSeconds[kind]} s`);
        }
      }
      return Object.keys(kindSeconds).length === kinds.length || undefined;
    },
    { what: `${total} resources Ready`, timeoutMs: 3_600_000, intervalMs: 3_000 },
  );
  const wallSeconds = (performance.now() - t0) / 1000;
  const cpuAtReady = (await cpuSeconds(controller.pid)) - cpuBefore;
  const peakAtReady = await peakRssMB(controller.pid);
  await idle();
  const byController = metricByLabel(metrics, "controller_runtime_reconcile_total", "controller");
  const resourceReconciles = kinds.reduce((sum, kind) => sum + (byController[kind.toLowerCase()] ?? 0), 0);
  const kubeRequests = metricSum(metrics, "rest_client_requests_total");
  const cpuAtIdle = (await cpuSeconds(controller.pid)) - cpuBefore;
  const steady = await steadyRssMB(controller.pid, { timeoutMs: 180_000 });
  const peak = await peakRssMB(controller.pid);
  const recording = await readMotoRecording(stack.emulator?.recordingPath ?? "");
  const assumeRoleCalls = recording.filter(
    (r) => r.params["Action"] === "AssumeRole" && String(r.params["RoleArn"]).includes(":role/scale"),
  ).length;
  const awsCalls = recording.filter(
    (r) => !/^(AssumeRole|AssumeRoleWithWebIdentity|GetCallerIdentity)$/.test(r.params["Action"] ?? ""),
  ).length;
  // Spot-check placement: the first Bucket of every tenth namespace is in its account only.
  let misplaced = 0;
  let checked = 0;
  for (const item of items) {
    if (item.kind !== "Bucket" || checked >= 100) continue;
    const tenant = tenants.find((t) => t.name === item.metadata.namespace);
    if (tenant === undefined || Number(tenant.name.split("-")[1]) % 10 !== 0) continue;
    checked++;
    const awsName = String((item.spec as { name?: string } | undefined)?.name ?? "");
    const others = accounts.filter((a) => a !== tenant.account).slice(0, 3);
    const holders = await accountsHolding(stack.awsEndpoint ?? "", awsName, [tenant.account, ...others]);
    if (holders.length !== 1 || holders[0] !== tenant.account) misplaced++;
  }
  await controller.stop();
  const { startupSeconds, phases } = summarisePhases(await readPhases(controller.logFile));
  const kibPerResource = ((steady.rssMB - baseline.rssMB) * 1024) / rest.length;
  const figures = {
    bench: "scale",
    jit,
    resources: total,
    namespaces: tenants.length,
    accounts: accounts.length,
    perKind,
    kindReadySeconds: kindSeconds,
    applySeconds: Number(applySeconds.toFixed(1)),
    wallSeconds: Number(wallSeconds.toFixed(1)),
    cpuSecondsAtReady: Number(cpuAtReady.toFixed(1)),
    cpuSecondsAtIdle: Number(cpuAtIdle.toFixed(1)),
    cpuMsPerResource: Number(((cpuAtIdle * 1000) / rest.length).toFixed(2)),
    peakRssAtReadyMB: peakAtReady,
    peakRssMB: peak,
    steadyRssMB: steady.rssMB,
    baselineRssMB: baseline.rssMB,
    kibPerResource: Number(kibPerResource.toFixed(1)),
    reconcilesPerResource: Number((resourceReconciles / total).toFixed(3)),
    reconcilesByController: byController,
    stepMsPerReconcile: stepMsPerReconcile(metrics),
    kubeRequestsPerResource: Number((kubeRequests / total).toFixed(2)),
    awsCallsPerResource: Number((awsCalls / total).toFixed(2)),
    assumeRoleCalls,
    distinctRoles: accounts.length,
    misplaced,
    placementChecked: checked,
    startupSeconds,
    memoryPhases: phases,
    services: [...new Set(kinds.map((kind) => lookupKind(kind)?.service))],
    targets,
  };
  const met =
    peak <= targets.peakRssMB &&
    kibPerResource <= targets.kibPerResource &&
    figures.reconcilesPerResource <= targets.reconcilesPerResource &&
    assumeRoleCalls === accounts.length &&
    misplaced === 0;
  process.stdout.write(`${JSON.stringify({ ...figures, targetsMet: met })}\n`);
  if (!met) process.exitCode = 1;
} finally {
  await stack.stop();
}
