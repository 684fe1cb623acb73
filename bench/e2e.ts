// `npm run bench:e2e`: 500 resources across 10 accounts, applied at once to the local stack, with
// the real controller process on default settings, until every one is Ready. Three scenarios
// (CARM and IAMRoleSelector mode exclude each other, DESIGN §3.1):
//   carm:      500 Buckets; 5 accounts through the account map, 3 through the team map
//              (TeamLevelCARM), 2 through spec.identityRef to AWSRoleIdentities granted by
//              namespace label selectors;
//   selectors: 500 Buckets; 10 IAMRoleSelectors (namespace names, label selectors, resource types);
//   mixed:     500 resources split evenly over every served kind, one process, service-level
//              roles (`<service>.<account>` in the account map, ServiceLevelCARM): one role per
//              account and service. Reports when each kind was all Ready.
// Figures: wall time, reconciles/s, AssumeRole calls counted AT THE EMULATOR (must equal the
// number of distinct roles), Kubernetes API requests per resource (the controller's
// rest_client_requests_total), and the controller's peak RSS (VmHWM). Ends with one JSON line.
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
import { kindMakers, minimalResource, namespaceObjectsFor } from "../test/support/minimal-resources.ts";
import { readMotoRecording } from "../test/support/moto-recording.ts";
import { perOperation } from "./aws-operations.ts";
import { metricByLabel, metricSum, readyCount, waitForIdle } from "./cluster-figures.ts";
import { s3Capacity } from "./emulator-capacity.ts";
import { peakRssMB, readPhases, steadyRssMB, summarisePhases } from "./memory.ts";

// BENCH_FLAGS: extra `crossrole run` flags for every scenario (to compare settings; the
// targets are for the defaults).
const extraFlags = (process.env["BENCH_FLAGS"] ?? "").split(" ").filter((f) => f !== "");
const total = 500;
const namespacesPerAccount = 2;
const accounts = Array.from({ length: 10 }, (_, i) =>
  String(100000000000 + (i + 1) * 11111111111).slice(0, 12),
);
const roleOf = (account: string) => `arn:aws:iam::${account}:role/bench`;
// peakRssMB and steadyRssMB: for the Bucket-only scenarios (carm, selectors).
const targets = { wallSeconds: 60, peakRssMB: 110, steadyRssMB: 90 };

/** How the bench writes one resource of each kind it knows (a served kind missing here is an error). */
interface Scenario {
  readonly name: string;
  readonly flags: readonly string[];
  /** The kinds its resources are split over (default Bucket). */
  readonly kinds?: readonly string[];
  /** Configuration objects and, for each namespace, extra resource spec (identityRef). */
  config(): {
    objects: KubeObject[];
    namespaces: { name: string; account: string; spec: Record<string, unknown> }[];
  };
}

const ns = (
  name: string,
  annotations: Record<string, string> = {},
  labels: Record<string, string> = {},
): KubeObject =>
  ({ apiVersion: "v1", kind: "Namespace", metadata: { name, annotations, labels } }) as KubeObject;

const carm: Scenario = {
  name: "carm",
  flags: ["--feature-gates=TeamLevelCARM=true"],
  config() {
    const objects: KubeObject[] = [ns("ack-system")];
    const namespaces: { name: string; account: string; spec: Record<string, unknown> }[] = [];
    const accountMap: Record<string, string> = {};
    const teamMap: Record<string, string> = {};
    accounts.forEach((account, i) => {
      for (let n = 0; n < namespacesPerAccount; n++) {
        const name = `bench-${i}-${n}`;
        if (i < 5) {
          accountMap[account] = roleOf(account);
          objects.push(ns(name, { "services.k8s.aws/owner-account-id": account }));
          namespaces.push({ name, account, spec: {} });
        } else if (i < 8) {
          teamMap[`team-${i}`] = roleOf(account);
          objects.push(ns(name, { "services.k8s.aws/team-id": `team-${i}` }));
          namespaces.push({ name, account, spec: {} });
        } else {
          objects.push(ns(name, {}, { "bench-identity": `id-${i}` }));
          namespaces.push({
            name,
            account,
            spec: { identityRef: { kind: "AWSRoleIdentity", name: `id-${i}` } },
          });
        }
      }
      if (i >= 8) {
        objects.push({
          apiVersion: "identity.crossrole.dev/v1alpha1",
          kind: "AWSRoleIdentity",
          metadata: { name: `id-${i}` },
          spec: {
            sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
            roleARN: roleOf(account),
            allowedNamespaces: { selector: { matchLabels: { "bench-identity": `id-${i}` } } },
          },
        } as KubeObject);
      }
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
    return { objects, namespaces };
  },
};

const selectors: Scenario = {
  name: "selectors",
  flags: ["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"],
  config() {
    const objects: KubeObject[] = [ns("ack-system")];
    const namespaces: { name: string; account: string; spec: Record<string, unknown> }[] = [];
    accounts.forEach((account, i) => {
      const names = Array.from({ length: namespacesPerAccount }, (_, n) => `bench-${i}-${n}`);
      for (const name of names) {
        objects.push(ns(name, {}, { "bench-account": `a${i}` }));
        namespaces.push({ name, account, spec: {} });
      }
      // Alternate the ways a selector picks its namespaces: by name, or by label.
      const namespaceSelector =
        i % 2 === 0 ? { names } : { labelSelector: { matchLabels: { "bench-account": `a${i}` } } };
      objects.push({
        apiVersion: "services.k8s.aws/v1alpha1",
        kind: "IAMRoleSelector",
        metadata: { name: `bench-${i}` },
        spec: {
          arn: roleOf(account),
          namespaceSelector,
          resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }],
        },
      } as KubeObject);
    });
    return { objects, namespaces };
  },
};

// Every served kind: a DB subnet group's subnets come from the account its namespace lands in.
const unknownKinds = servedKindNames.filter((k) => !(k in kindMakers));
if (unknownKinds.length > 0) {
  throw new Error(
    `add ${unknownKinds.join(", ")} to test/support/minimal-resources.ts so the mixed scenario covers every served kind`,
  );
}
const mixedKinds = servedKindNames;

const mixed: Scenario = {
  name: "mixed",
  flags: ["--feature-gates=ServiceLevelCARM=true"],
  kinds: mixedKinds,
  config() {
    const objects: KubeObject[] = [ns("ack-system")];
    const namespaces: { name: string; account: string; spec: Record<string, unknown> }[] = [];
    const accountMap: Record<string, string> = {};
    accounts.forEach((account, i) => {
      for (const kind of mixedKinds) {
        const service = lookupKind(kind)?.service ?? "";
        accountMap[`${service}.${account}`] = `arn:aws:iam::${account}:role/bench-${service}`;
      }
      for (let n = 0; n < namespacesPerAccount; n++) {
        const name = `bench-${i}-${n}`;
        objects.push(ns(name, { "services.k8s.aws/owner-account-id": account }));
        namespaces.push({ name, account, spec: {} });
      }
    });
    objects.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-account-map", namespace: "ack-system" },
      data: accountMap,
    } as KubeObject);
    return { objects, namespaces };
  },
};

async function run(scenario: Scenario) {
  const stack = await startStack({ awsRecording: true });
  try {
    const kube = createKubeClient(stack.kubeConfig);
    await installCrds(kube);
    const { objects, namespaces } = scenario.config();
    await applyObjects(kube, objects);
    const controller = await startControllerProcess(stack, [...scenario.flags, ...extraFlags], {
      logLevel: "warn",
      name: scenario.name,
      // process.memoryUsage() at each phase, on stderr (src/cli/memory-phases.ts).
      env: { CROSSROLE_MEMORY_PHASES: "1" },
    });
    const kinds = scenario.kinds ?? ["Bucket"];
    await applyObjects(
      kube,
      namespaces.flatMap((n) => namespaceObjectsFor(kinds, n.name)),
    );
    const perNamespace = total / namespaces.length;
    // Kinds take turns within each namespace, so each kind gets about total / kinds.length resources.
    // A DB subnet group's subnets are its account's (placeholders filled from the emulator).
    const items = await fillExamplePlaceholders(
      namespaces.flatMap((n) =>
        Array.from({ length: perNamespace }, (_, k) => {
          const kind = kinds[k % kinds.length] ?? "Bucket";
          return minimalResource(kind, n.name, `r${k}`, `${n.name}-r${k}`, n.spec, n.account);
        }),
      ),
      stack.awsEndpoint ?? "",
    );
    const perKind = Object.fromEntries(
      kinds.map((kind) => [kind, items.filter((item) => item.kind === kind).length]),
    );
    const t0 = performance.now();
    // "At once": every create is in flight together (bounded to keep the client sane).
    for (let i = 0; i < items.length; i += 100) {
      await Promise.all(items.slice(i, i + 100).map((item) => applyObjects(kube, [item])));
    }
    const appliedSeconds = (performance.now() - t0) / 1000;
    const kindSeconds: Record<string, number> = {};
    await waitFor(
      async () => {
        for (const kind of kinds) {
          if (kind in kindSeconds) continue;
          if ((await readyCount(kube, kind)) === perKind[kind]) {
            kindSeconds[kind] = Number(((performance.now() - t0) / 1000).toFixed(2));
          }
        }
        return Object.keys(kindSeconds).length === kinds.length || undefined;
      },
      { what: `${total} resources Ready`, timeoutMs: 300_000, intervalMs: 100 },
    );
    const wallSeconds = (performance.now() - t0) / 1000;
    const metrics = await (await fetch(`${controller.metricsURL}/metrics`)).text();
    const rss = await peakRssMB(controller.pid);
    const recording = await readMotoRecording(stack.emulator?.recordingPath ?? "");
    // The controller's: the bench's own inspector (a subnet lookup) assumes role/e2e-inspector.
    const assumeRoleCalls = recording.filter(
      (r) => r.params["Action"] === "AssumeRole" && String(r.params["RoleArn"]).includes(":role/bench"),
    ).length;
    // One role per account, and per service when service-level roles are in use (DBInstance and
    // DBSubnetGroup share rds's).
    const services = new Set(kinds.map((k) => lookupKind(k)?.service));
    const distinctRoles =
      new Set(namespaces.map((n) => n.account)).size * (scenario.name === "mixed" ? services.size : 1);
    const reconciles = metricSum(metrics, "controller_runtime_reconcile_total");
    const apiRequests = metricSum(metrics, "rest_client_requests_total");
    // Then until idle: no reconcile for 3 s (a second pass after all-Ready costs reads and memory).
    const idle = await waitForIdle(controller.metricsURL, {
      quietMs: 3_000,
      intervalMs: 250,
      timeoutMs: 120_000,
    });
    const idleMetrics = idle.metrics;
    const idleSeconds = (idle.since - t0) / 1000;
    const reconcilesAtIdle = idle.reconciles;
    // Which controllers they are: a managed kind's own count is its reconciles per resource.
    const reconcilesAtIdleByController = metricByLabel(
      idleMetrics,
      "controller_runtime_reconcile_total",
      "controller",
    );
    // AWS calls the resources cost (STS excluded), counted at the emulator.
    const idleRecording = await readMotoRecording(stack.emulator?.recordingPath ?? "");
    const awsCalls = idleRecording.filter(
      (r) => !/^(AssumeRole|AssumeRoleWithWebIdentity|GetCallerIdentity)$/.test(r.params["Action"] ?? ""),
    ).length;
    // Which calls they are (STS included), so a regression names the operation it added.
    const awsCallsByOperation = perOperation(idleRecording, total);
    // Spot-check placement in the emulator: each namespace's first bucket is in its account only.
    let misplaced = 0;
    const firstBucket = kinds.indexOf("Bucket");
    for (const n of firstBucket < 0 ? [] : namespaces) {
      const holders = await accountsHolding(stack.awsEndpoint ?? "", `${n.name}-r${firstBucket}`, [
        ...accounts,
        "123456789012",
      ]);
      if (holders.length !== 1 || holders[0] !== n.account) misplaced++;
    }
    const rssAtIdle = await peakRssMB(controller.pid);
    // Steady state: idle, then until RSS stops falling (GC and the allocator return pages).
    const steady = await steadyRssMB(controller.pid);
    await controller.stop();
    // The emulator alone doing the same AWS work, on the same server (Bucket scenarios): how
    // close the controller runs to the emulator's own limit (emulator-capacity.ts).
    const emulator = kinds.every((k) => k === "Bucket")
      ? await s3Capacity({
          endpoint: stack.awsEndpoint ?? "",
          accounts: [...new Set(namespaces.map((n) => n.account))],
          buckets: total,
          perBucket: awsCallsByOperation,
          prefix: `capacity-${scenario.name}`,
        })
      : undefined;
    const { startupSeconds, phases } = summarisePhases(await readPhases(controller.logFile));
    // The memory targets are the 500-Bucket ones; the mixed scenario holds every service's AWS
    // SDK client, and its figures are reported against them without counting.
    const memoryTargets = kinds.every((k) => k === "Bucket");
    return {
      resources: total,
      perKind,
      ...(kinds.length > 1 ? { kindReadySeconds: kindSeconds } : {}),
      accounts: accounts.length,
      wallSeconds: Number(wallSeconds.toFixed(2)),
      applySeconds: Number(appliedSeconds.toFixed(2)),
      reconciles,
      reconcilesPerSecond: Number((reconciles / wallSeconds).toFixed(1)),
      assumeRoleCalls,
      distinctRoles,
      kubeApiRequests: apiRequests,
      kubeApiRequestsPerResource: Number((apiRequests / total).toFixed(2)),
      peakRssMB: rss,
      idleSeconds: Number(idleSeconds.toFixed(2)),
      reconcilesAtIdle,
      reconcilesPerResourceAtIdle: Number((reconcilesAtIdle / total).toFixed(2)),
      reconcilesAtIdleByController,
      awsCallsPerResourceAtIdle: Number((awsCalls / total).toFixed(2)),
      awsCallsPerResourceByOperation: awsCallsByOperation,
      peakRssAtIdleMB: rssAtIdle,
      steadyRssMB: steady.rssMB,
      steadySettleSeconds: steady.settledSeconds,
      // Process start → every informer synced.
      startupSeconds,
      // process.memoryUsage() (MB) after the imports, at sync, at the run's RSS peak, at idle.
      memoryPhases: phases,
      // Where the memory is at the end (not the peak): V8 heap in use / reserved, and outside it.
      heapUsedMB: Math.round(metricSum(metrics, "nodejs_heap_size_used_bytes") / 2 ** 20),
      heapTotalMB: Math.round(metricSum(metrics, "nodejs_heap_size_total_bytes") / 2 ** 20),
      externalMB: Math.round(metricSum(metrics, "nodejs_external_memory_bytes") / 2 ** 20),
      misplacedNamespaces: misplaced,
      // The emulator's own time for the same calls, and the controller's wall time over it.
      ...(emulator
        ? {
            emulatorSeconds: emulator.seconds,
            emulatorCallsPerSecond: emulator.callsPerSecond,
            wallToEmulatorRatio: Number((wallSeconds / emulator.seconds).toFixed(2)),
          }
        : {}),
      targetsMet:
        wallSeconds <= targets.wallSeconds &&
        (!memoryTargets || (rss <= targets.peakRssMB && steady.rssMB <= targets.steadyRssMB)) &&
        assumeRoleCalls === distinctRoles &&
        misplaced === 0,
    };
  } finally {
    await stack.stop();
  }
}

const results: Record<string, unknown> = {};
let ok = true;
// BENCH_SCENARIOS=carm,mixed runs only those (a quick look while tuning); the default is all.
const only = (process.env["BENCH_SCENARIOS"] ?? "").split(",").filter((x) => x !== "");
for (const scenario of [carm, selectors, mixed].filter((sc) => only.length === 0 || only.includes(sc.name))) {
  const r = await run(scenario);
  results[scenario.name] = r;
  ok &&= r.targetsMet;
  process.stderr.write(`${scenario.name}: ${JSON.stringify(r)}\n`);
}
process.stdout.write(
  `${JSON.stringify({ bench: "e2e", settings: "defaults", targets, ...results, targetsMet: ok })}\n`,
);
process.exitCode = ok ? 0 : 1;
