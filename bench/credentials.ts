// Benchmark of issue 4: 10,000 credential requests over 200 distinct chains from 2,000
// simulated resources, against the real AWS emulator. STS calls are counted at a proxy in
// front of the emulator (not inside the code under test). Targets: STS calls exactly 200
// (ratio to the ideal 1.00), cache-hit latency median <= 10 us, memory for the 200 cached
// chains <= 20 MB. Prints ONE JSON line of figures; exits 1 when a target is missed.
//   npm run bench:credentials
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Registry } from "prom-client";
import { createCredentialService } from "../src/credentials/service.ts";
import type { ResourceRef } from "../src/credentials/types.ts";
import { startEmulator } from "../src/local-stack/stack.ts";
import { startAwsProxy } from "../test/support/aws-proxy.ts";
import { controllerHop, roleHop, useDecision } from "../test/support/credential-decisions.ts";
import { useControllerEnvironment } from "../test/support/credentials-fixture.ts";

const chains = 200;
const resources = 2_000;
const requests = 10_000;
const rateLimit = { ratePerSecond: 500, burst: 100 };
const targets = { ratio: 1, hitLatencyMedianUs: 10, memoryMB: 20 };

const gc = (globalThis as { gc?: () => void }).gc;
function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

useControllerEnvironment();
const dir = await mkdtemp(join(tmpdir(), "crossrole-bench-credentials-"));
const emulator = await startEmulator({ dir });
const proxy = await startAwsProxy(emulator.endpoint);
const started = performance.now();
try {
  // 2,000 resources, each with its own Decision object (as the resolver would hand out);
  // resource r resolves to chain r % 200: controller -> a role in its own account.
  const simulated = Array.from({ length: resources }, (_, r) => {
    const c = r % chains;
    const decision = useDecision(
      [controllerHop, roleHop(`team-${c}`, `arn:aws:iam::${String(600000000000 + c)}:role/team-${c}`)],
      { endpoint: proxy.endpoint },
    );
    const resource: ResourceRef = { namespace: `ns-${c}`, kind: "Queue", name: `queue-${r}` };
    return { decision, resource };
  });

  const service = createCredentialService({
    logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true })),
    registry: new Registry(),
    systemNamespace: "crossrole-system",
    stsRateLimit: rateLimit,
  });
  const heapBefore = heapAfterGc();

  // Round 1: every resource asks at once (2,000 requests; single-flight per chain).
  await Promise.all(simulated.map((s) => service.credentialsFor(s.decision, s.resource)));
  const heapAfter = heapAfterGc();

  // Rounds 2..5: the remaining 8,000 requests, one at a time, each timed (all cache hits).
  const latenciesUs: number[] = [];
  for (let i = resources; i < requests; i++) {
    // A stride co-prime with 2,000 walks the resources in a scattered order.
    const s = simulated[(i * 7919) % resources]!;
    const t0 = process.hrtime.bigint();
    await service.credentialsFor(s.decision, s.resource);
    latenciesUs.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  latenciesUs.sort((a, b) => a - b);

  const stsCalls = proxy.calls("AssumeRole").length;
  const figures = {
    bench: "credentials",
    requests,
    resources,
    chains,
    stsCalls,
    idealStsCalls: chains,
    ratio: Number((stsCalls / chains).toFixed(2)),
    hitLatencyMedianUs: Number(median(latenciesUs).toFixed(2)),
    hitLatencyP99Us: Number(latenciesUs[Math.floor(latenciesUs.length * 0.99)]!.toFixed(2)),
    memoryMB: Number(((heapAfter - heapBefore) / 1024 / 1024).toFixed(2)),
    memoryMeasured: gc ? "heapUsed after gc" : "heapUsed without gc (run with --expose-gc)",
    cacheEntries: service.cache.size,
    stsRateLimit: rateLimit,
    durationMs: Math.round(performance.now() - started),
  };
  const pass =
    figures.ratio === targets.ratio &&
    figures.hitLatencyMedianUs <= targets.hitLatencyMedianUs &&
    figures.memoryMB <= targets.memoryMB;
  service.close();
  process.stdout.write(`${JSON.stringify({ ...figures, targets, pass })}\n`);
  process.exitCode = pass ? 0 : 1;
} finally {
  await proxy.close();
  await emulator.stop();
  await rm(dir, { recursive: true, force: true });
}
