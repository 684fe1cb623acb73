// Issue 4, against the real AWS emulator: 1,000 concurrent requests over 50 distinct chains
// make exactly 50 AssumeRole calls, and near expiry each key is refreshed exactly once —
// counted at a proxy in front of the emulator and in the emulator's own recorder, never
// inside the code under test.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Registry } from "prom-client";
import { createCredentialService } from "../../src/credentials/service.ts";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { FakeClock } from "../../src/toolkit/fake-clock.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { controllerHop, roleHop, useDecision } from "../support/credential-decisions.ts";
import { captureLog, issued, metricValue, useControllerEnvironment } from "../support/credentials-fixture.ts";
import { readMotoRecording } from "../support/moto-recording.ts";

const minute = 60_000;
let dir: string;
let emulator: Emulator;
let proxy: AwsProxy;
const clock = new FakeClock(Date.now());
before(async () => {
  useControllerEnvironment();
  dir = await mkdtemp(join(tmpdir(), "crossrole-credentials-concurrency-"));
  emulator = await startEmulator({ dir, recording: true });
  // The emulator stamps expiry in real time; shift it onto the test's clock.
  proxy = await startAwsProxy(emulator.endpoint, { expirationShiftMs: () => clock.now() - Date.now() });
});
after(async () => {
  await proxy?.close();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

function chains(endpoint: string) {
  return Array.from({ length: 50 }, (_, i) => {
    const account = String(400000000000 + i);
    return useDecision([controllerHop, roleHop(`r${i}`, `arn:aws:iam::${account}:role/app-${i}`)], {
      endpoint,
    });
  });
}

describe("concurrency and refresh", () => {
  test("1,000 concurrent requests over 50 chains make exactly 50 AssumeRole calls; near expiry, exactly one refresh per key", async () => {
    const log = captureLog();
    const registry = new Registry();
    const service = createCredentialService({
      logger: log.logger,
      registry,
      systemNamespace: "crossrole-system",
      clock,
      cache: { idleMs: 24 * 60 * minute },
      stsRateLimit: { ratePerSecond: 10_000, burst: 10_000 },
    });
    try {
      const decisions = chains(proxy.endpoint);
      const requests = Array.from({ length: 1000 }, (_, i) => decisions[i % 50]!);
      const got = await Promise.all(requests.map((d) => service.credentialsFor(d)));

      assert.equal(proxy.calls("AssumeRole").length, 50, "AssumeRole calls at the proxy");
      const recorded = (await readMotoRecording(emulator.recordingPath!)).filter(
        (r) => r.params["Action"] === "AssumeRole",
      );
      assert.equal(recorded.length, 50, "AssumeRole calls in the emulator's recorder");
      assert.equal(
        new Set(proxy.calls("AssumeRole").map((c) => c.params["RoleArn"])).size,
        50,
        "one per chain",
      );
      // Requests for one chain all got the same credentials; different chains, different ones.
      for (let i = 0; i < 1000; i++) assert.equal(got[i]?.accessKeyId, got[i % 50]?.accessKeyId);
      assert.equal(new Set(got.map((c) => c.accessKeyId)).size, 50);
      assert.equal(
        await metricValue(registry, "crossrole_credential_cache_misses_total"),
        51,
        "50 roles + 1 controller",
      );
      assert.equal(await metricValue(registry, "crossrole_credential_cache_entries"), 51);
      assert.equal(
        issued(log).filter((l) => l["operation"] === "AssumeRole").length,
        50,
        "one audit line each",
      );

      // Still fresh 54 minutes later: no STS call.
      clock.advance(54 * minute);
      await Promise.all(requests.map((d) => service.credentialsFor(d)));
      assert.equal(proxy.calls("AssumeRole").length, 50);

      // Within 5 minutes of expiry: 1,000 concurrent requests refresh each key exactly once.
      clock.advance(2 * minute);
      const refreshed = await Promise.all(requests.map((d) => service.credentialsFor(d)));
      const calls = proxy.calls("AssumeRole");
      assert.equal(calls.length, 100);
      assert.equal(new Set(calls.slice(50).map((c) => c.params["RoleArn"])).size, 50, "one refresh per key");
      for (let i = 0; i < 50; i++) assert.notEqual(refreshed[i]?.accessKeyId, got[i]?.accessKeyId);
    } finally {
      service.close();
    }
  });
});
