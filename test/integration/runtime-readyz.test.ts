// /readyz follows the informers' connection to a real kube-apiserver: the manager reaches the
// apiserver through a cuttable loopback TCP forwarder (test/support/tcp-forwarder.ts). Cut:
// after the grace period /readyz answers 503 naming the informer, while /healthz stays 200 and
// crossrole_informer_healthy drops to 0; restored: /readyz is 200 again and the cache catches up.
// A connection drop that reconnects at once never flips readiness.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { ResourceType } from "../../src/runtime/kube-object.ts";
import { Manager } from "../../src/runtime/manager.ts";
import { kubeConfigVia, startTcpForwarder, type TcpForwarder } from "../support/tcp-forwarder.ts";

const configMaps: ResourceType = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};

let stack: Stack;
let admin: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  admin = createKubeClient(stack.kubeConfig);
});
after(() => stack?.stop());

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

function putConfigMap(ns: string, name: string) {
  return admin.request({
    method: "POST",
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: { metadata: { name }, data: { v: "1" } },
  });
}

/** A pino logger that keeps the informer.* health lines it writes. */
function healthLog() {
  const events: string[] = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n")) {
          if (!line.trim()) continue;
          const event = (JSON.parse(line) as { event?: unknown }).event;
          if (typeof event === "string" && event.startsWith("informer.")) events.push(event);
        }
        done();
      },
    }),
  );
  return { logger, events };
}

/** A manager reaching the apiserver through a fresh forwarder, with one configmap informer in `ns`. */
async function managerBehindForwarder(ns: string) {
  await admin.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name: ns } } });
  await putConfigMap(ns, "before");
  const forwarder: TcpForwarder = await startTcpForwarder({
    port: Number(new URL(stack.controlPlane.serverURL).port),
  });
  after(() => forwarder.close());
  const log = healthLog();
  const m = new Manager({
    kubeConfig: kubeConfigVia(stack.kubeConfig, forwarder.port),
    logger: log.logger,
    healthAddr: "127.0.0.1:0",
    metricsAddr: "127.0.0.1:0",
    watchNamespaces: [ns],
    // The default grace period (5 s); short retry delays so recovery is quick after restore().
  });
  const informer = m.informer({ resource: configMaps, backoff: { baseMs: 100, maxMs: 1_000 } });
  const flips: boolean[] = [];
  informer.onHealthChange((h) => flips.push(h.healthy));
  await m.start();
  after(() => m.stop());
  const healthUrl = m.healthUrl;
  assert.ok(healthUrl);
  const gauge = async () => {
    const body = (await get(`${healthUrl}/metrics`)).body;
    const line = body
      .split("\n")
      .find((l) => l.startsWith(`crossrole_informer_healthy{resource="${informer.name}"}`));
    return line?.split(" ").at(-1);
  };
  return { m, informer, forwarder, flips, events: log.events, healthUrl, gauge };
}

describe("/readyz follows the informers' connection to the apiserver", () => {
  test("cut: 503 naming the informer after the grace period, /healthz stays 200; restored: 200 again", async () => {
    const { informer, forwarder, flips, events, healthUrl, gauge } =
      await managerBehindForwarder("readyz-cut");
    await waitFor(async () => (await get(`${healthUrl}/readyz`)).status === 200, {
      what: "/readyz 200 once the cache has synced",
      timeoutMs: 15_000,
    });
    assert.equal(await gauge(), "1");
    await putConfigMap("readyz-cut", "watched");
    await waitFor(() => informer.get("readyz-cut", "watched"), { what: "the watch through the forwarder" });
    assert.ok(forwarder.openConnections > 0, "the informer's connections go through the forwarder");

    const cutAt = Date.now();
    forwarder.cut();
    assert.equal((await get(`${healthUrl}/readyz`)).status, 200, "still ready within the grace period");

    const notReady = await waitFor(
      async () => {
        const r = await get(`${healthUrl}/readyz`);
        return r.status === 503 ? r : undefined;
      },
      { what: "/readyz 503 while the apiserver is unreachable", timeoutMs: 20_000 },
    );
    const tookMs = Date.now() - cutAt;
    assert.ok(tookMs >= 4_900, `not before the 5 s grace period (${tookMs} ms)`);
    assert.ok(tookMs < 10_000, `within a few seconds of it (${tookMs} ms)`);
    assert.match(
      notReady.body,
      /\[-\]informer-connections failed: configmaps in readyz-cut: cannot reach the apiserver since \d{4}-\d\d-\d\dT[\d:.]+Z \([\d.]+s\): \/api\/v1\/namespaces\/readyz-cut\/configmaps: \S.*/,
    );
    assert.match(notReady.body, /\[\+\]informers ok/, "the cache stays synced (and served) meanwhile");
    assert.deepEqual(
      await get(`${healthUrl}/healthz`),
      { status: 200, body: "ok" },
      "liveness is unaffected",
    );
    assert.equal(await gauge(), "0");
    assert.ok(forwarder.refusedConnections > 0, "the informer kept retrying");
    assert.deepEqual(events, ["informer.unhealthy"]);

    await putConfigMap("readyz-cut", "during-outage");
    // Still failing after more retries: still one log line, still 503.
    const errors = informer.stats().errors;
    await waitFor(() => informer.stats().errors >= errors + 2, {
      what: "more failed retries",
      timeoutMs: 10_000,
    });
    assert.equal((await get(`${healthUrl}/readyz`)).status, 503);
    assert.deepEqual(events, ["informer.unhealthy"], "one log line per flip, not per retry");

    forwarder.restore();
    await waitFor(async () => (await get(`${healthUrl}/readyz`)).status === 200, {
      what: "/readyz 200 once the apiserver is reachable again",
      timeoutMs: 15_000,
    });
    assert.equal(await gauge(), "1");
    assert.deepEqual(events, ["informer.unhealthy", "informer.recovered"]);
    assert.deepEqual(flips, [false, true]);
    await waitFor(() => informer.get("readyz-cut", "during-outage"), {
      what: "the change made during the outage",
    });
  });

  test("connections dropped again and again, each reconnecting at once, never flip readiness", async () => {
    const { informer, forwarder, flips, events, healthUrl } = await managerBehindForwarder("readyz-blip");
    await waitFor(async () => (await get(`${healthUrl}/readyz`)).status === 200, {
      what: "/readyz 200 once the cache has synced",
      timeoutMs: 15_000,
    });
    // Drops keep coming for longer than the grace period, but each is followed by a working watch.
    const started = Date.now();
    for (let i = 0; i < 3 || Date.now() - started < 7_000; i++) {
      const errors = informer.stats().errors;
      forwarder.cut();
      await waitFor(() => informer.stats().errors > errors, { what: `the watch noticing drop ${i}` });
      forwarder.restore();
      assert.equal((await get(`${healthUrl}/readyz`)).status, 200);
      await putConfigMap("readyz-blip", `after-${i}`);
      await waitFor(() => informer.get("readyz-blip", `after-${i}`), {
        what: `the watch back after drop ${i}`,
      });
      assert.deepEqual(informer.health(), { healthy: true });
      assert.equal((await get(`${healthUrl}/readyz`)).status, 200);
    }
    assert.deepEqual(flips, []);
    assert.deepEqual(events, []);
  });
});
