// Issue 4, against the real AWS emulator behind a fault-injecting proxy: throttling and 5xx
// are retried with backoff then succeed; AccessDenied is remembered with growing backoff and
// recovers once the fault is gone; a dead endpoint is reported as such; and the process-wide
// STS rate limit holds under a burst. All counts are taken at the proxy.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { Registry } from "prom-client";
import {
  AccessDeniedError,
  EndpointUnreachableError,
  InvalidParameterError,
  ThrottledError,
} from "../../src/credentials/errors.ts";
import { type CredentialServiceOptions, createCredentialService } from "../../src/credentials/service.ts";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { FakeClock } from "../../src/toolkit/fake-clock.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { controllerHop, roleHop, useDecision } from "../support/credential-decisions.ts";
import { captureLog, metricValue, useControllerEnvironment, whoAmI } from "../support/credentials-fixture.ts";

const roleA = "arn:aws:iam::222222222222:role/app";
let dir: string;
let emulator: Emulator;
let proxy: AwsProxy;
before(async () => {
  useControllerEnvironment();
  dir = await mkdtemp(join(tmpdir(), "crossrole-credentials-faults-"));
  emulator = await startEmulator({ dir });
  proxy = await startAwsProxy(emulator.endpoint);
});
after(async () => {
  await proxy?.close();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.clearFaults();
  proxy.clearRecording();
});

const assumeRole = (r: { action: string | undefined }) => r.action === "AssumeRole";

function service(extra: Partial<CredentialServiceOptions> = {}) {
  const registry = new Registry();
  const svc = createCredentialService({
    logger: captureLog().logger,
    registry,
    systemNamespace: "crossrole-system",
    // Short retry delays keep the test quick; the shape (full jitter, doubling) is the real one.
    stsRetry: { maxAttempts: 4, backoff: { baseMs: 20, maxMs: 200, jitter: 1 } },
    ...extra,
  });
  return { svc, registry };
}

function decision(role = roleA) {
  return useDecision([controllerHop, roleHop("app", role, { sessionName: "faults" })], {
    endpoint: proxy.endpoint,
  });
}

describe("STS faults", () => {
  test("throttling is retried with backoff, then succeeds", async () => {
    proxy.addFault({
      name: "throttle",
      match: assumeRole,
      times: 2,
      respond: { status: 400, code: "Throttling", message: "Rate exceeded" },
    });
    const { svc, registry } = service();
    try {
      const creds = await svc.credentialsFor(decision());
      assert.equal((await whoAmI(emulator.endpoint, creds)).Account, "222222222222");
      assert.deepEqual(
        proxy.calls("AssumeRole").map((c) => c.fault ?? "emulator"),
        ["throttle", "throttle", "emulator"],
      );
      const outcome = (o: string) =>
        metricValue(registry, "crossrole_sts_calls_total", { operation: "AssumeRole", outcome: o });
      assert.equal(await outcome("throttled"), 2);
      assert.equal(await outcome("success"), 1);
    } finally {
      svc.close();
    }
  });

  test("5xx answers are retried, then succeed", async () => {
    proxy.addFault({
      name: "500",
      match: assumeRole,
      times: 1,
      respond: { status: 500, code: "InternalFailure", message: "oops" },
    });
    proxy.addFault({
      name: "503",
      match: assumeRole,
      times: 1,
      respond: { status: 503, code: "ServiceUnavailable", message: "later" },
    });
    const { svc, registry } = service();
    try {
      await svc.credentialsFor(decision());
      assert.deepEqual(
        proxy.calls("AssumeRole").map((c) => c.fault ?? "emulator"),
        ["500", "503", "emulator"],
      );
      assert.equal(
        await metricValue(registry, "crossrole_sts_calls_total", {
          operation: "AssumeRole",
          outcome: "server_error",
        }),
        2,
      );
    } finally {
      svc.close();
    }
  });

  test("throttling that outlasts the retries is a ThrottledError naming the hop and the fix", async () => {
    proxy.addFault({
      name: "throttle",
      match: assumeRole,
      respond: { status: 400, code: "Throttling", message: "Rate exceeded" },
    });
    const { svc } = service();
    try {
      await assert.rejects(svc.credentialsFor(decision()), (err: unknown) => {
        assert.ok(err instanceof ThrottledError);
        assert.equal(err.identity, "AWSRoleIdentity/app");
        assert.equal(err.hop, 2);
        assert.match(err.message, /after 4 attempts/);
        assert.match(err.message, /Fix: .*--sts-qps/);
        return true;
      });
      assert.equal(proxy.calls("AssumeRole").length, 4);
    } finally {
      svc.close();
    }
  });

  test("AccessDenied is remembered with growing backoff and recovers once the fault is removed", async () => {
    const removeDenial = proxy.addFault({
      name: "deny",
      match: (r) => r.action === "AssumeRole" && r.params["RoleArn"] === roleA,
      respond: { status: 403, code: "AccessDenied", message: "not authorized to perform sts:AssumeRole" },
    });
    const clock = new FakeClock(Date.now());
    const { svc } = service({ clock, random: () => 0, stsRateLimit: { ratePerSecond: 1000, burst: 1000 } });
    try {
      const denied = (err: unknown) => {
        assert.ok(err instanceof AccessDeniedError);
        assert.equal(err.roleARN, roleA);
        assert.equal(err.hop, 2);
        assert.match(
          err.message,
          /^AWSRoleIdentity\/app \(hop 2 of 2\): AssumeRole of arn:aws:iam::222222222222:role\/app was denied/,
        );
        assert.match(err.fix, /trust policy of arn:aws:iam::222222222222:role\/app/);
        return true;
      };
      await assert.rejects(svc.credentialsFor(decision()), denied);
      assert.equal(proxy.calls("AssumeRole").length, 1, "AccessDenied is not retried on the spot");

      // Remembered: the same answer, without asking STS, until the backoff (1 s) has passed.
      await assert.rejects(svc.credentialsFor(decision()), denied);
      clock.advance(999);
      await assert.rejects(svc.credentialsFor(decision()), denied);
      assert.equal(proxy.calls("AssumeRole").length, 1);

      clock.advance(1);
      const second = await svc.credentialsFor(decision()).catch((e: AccessDeniedError) => e);
      assert.ok(second instanceof AccessDeniedError);
      assert.equal(proxy.calls("AssumeRole").length, 2);
      assert.equal(second.retryAt, clock.now() + 2000, "the backoff doubled");

      removeDenial();
      clock.advance(1999);
      await assert.rejects(svc.credentialsFor(decision()), AccessDeniedError);
      clock.advance(1);
      const creds = await svc.credentialsFor(decision());
      assert.equal((await whoAmI(emulator.endpoint, creds)).Account, "222222222222");
      assert.equal(proxy.calls("AssumeRole").length, 3);
    } finally {
      svc.close();
    }
  });

  test("a dropped connection, again and again, is an EndpointUnreachableError naming the endpoint", async () => {
    proxy.addFault({ name: "reset", match: assumeRole, respond: "reset" });
    const { svc } = service();
    try {
      await assert.rejects(svc.credentialsFor(decision()), (err: unknown) => {
        assert.ok(err instanceof EndpointUnreachableError);
        assert.equal(err.endpoint, proxy.endpoint);
        assert.match(err.message, new RegExp(`STS at ${proxy.endpoint} did not answer AssumeRole`));
        assert.match(err.fix, /endpoint-url/);
        return true;
      });
      assert.equal(proxy.calls("AssumeRole").length, 4, "retried up to maxAttempts");
    } finally {
      svc.close();
    }
  });

  test("a parameter STS rejects is an InvalidParameterError, not retried", async () => {
    proxy.addFault({
      name: "invalid",
      match: assumeRole,
      respond: {
        status: 400,
        code: "ValidationError",
        message: "1 validation error detected: DurationSeconds",
      },
    });
    const { svc } = service();
    try {
      await assert.rejects(svc.credentialsFor(decision()), (err: unknown) => {
        assert.ok(err instanceof InvalidParameterError);
        assert.match(err.message, /DurationSeconds/);
        return true;
      });
      assert.equal(proxy.calls("AssumeRole").length, 1);
    } finally {
      svc.close();
    }
  });

  test("the process-wide STS rate limit holds under a burst of 60 distinct chains", async () => {
    const rate = 20;
    const burst = 5;
    const { svc } = service({ stsRateLimit: { ratePerSecond: rate, burst } });
    try {
      const decisions = Array.from({ length: 60 }, (_, i) =>
        decision(`arn:aws:iam::${String(500000000000 + i)}:role/burst`),
      );
      // From the burst's start (the proxy's clock is this process's): the first arrivals may come
      // late (connections being opened), which would shorten a span measured between arrivals.
      const began = performance.now();
      await Promise.all(decisions.map((d) => svc.credentialsFor(d)));
      const arrivals = proxy.calls("AssumeRole").map((c) => c.at);
      assert.equal(arrivals.length, 60);
      // In any window of w ms, at most burst + rate * w calls arrived (+1 for network jitter).
      for (const start of arrivals) {
        for (const w of [250, 500, 1000]) {
          const n = arrivals.filter((a) => a >= start && a < start + w).length;
          assert.ok(n <= burst + (rate * w) / 1000 + 1, `${n} AssumeRole calls within ${w} ms`);
        }
      }
      const span = Math.max(...arrivals) - began;
      assert.ok(span >= ((60 - burst - 1) / rate) * 1000, `60 calls spread over ${span.toFixed(0)} ms`);
    } finally {
      svc.close();
    }
  });
});
