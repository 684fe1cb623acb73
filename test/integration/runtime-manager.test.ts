// The manager's probe and metrics endpoints against a real kube-apiserver: /healthz, /readyz
// (caches synced plus the caller's checks) and /metrics with controller-runtime's names; and
// what happens when another process takes the lease away.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { ResourceType } from "../../src/runtime/kube-object.ts";
import type { Lease } from "../../src/runtime/leader-election.ts";
import { LeadershipLostError, Manager } from "../../src/runtime/manager.ts";
import { Gate } from "../../src/runtime/sync-gate.ts";

const configMaps: ResourceType = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};
const timings = { leaseDurationMs: 2_000, renewDeadlineMs: 1_400, retryPeriodMs: 250 };

let stack: Stack;
let client: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  client = createKubeClient(stack.kubeConfig);
  for (const name of ["mgr", "mgr-other"]) {
    await client.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name } } });
  }
  await client.request({
    method: "POST",
    path: "/api/v1/namespaces/mgr/configmaps",
    body: { metadata: { name: "one" }, data: { v: "1" } },
  });
});
after(() => stack?.stop());

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

describe("manager endpoints", () => {
  test("/healthz, /readyz (caches + added checks) and /metrics with the controller-runtime metric names", async () => {
    const snapshotReady = new Gate("resolver-snapshot");
    const m = new Manager({
      kubeConfig: stack.kubeConfig,
      metricsAddr: "127.0.0.1:0",
      healthAddr: "127.0.0.1:0",
      watchNamespaces: ["mgr"],
      leaderElection: { namespace: "mgr", name: "endpoints", ...timings },
    });
    const informer = m.informer({ resource: configMaps });
    assert.equal(m.informer({ resource: configMaps }), informer, "informers are shared");
    assert.equal(informer.name, "configmaps in mgr", "the manager's watch namespaces apply by default");
    m.addReadyCheck({
      name: snapshotReady.name,
      check: () => snapshotReady.hasSynced() || "waiting for the first complete snapshot",
    });
    const reconciled: string[] = [];
    m.controller({
      name: "cm",
      primary: informer,
      waitFor: [snapshotReady],
      reconcile: async (req) => {
        reconciled.push(req.key);
        return {};
      },
    });
    await m.start();
    after(() => m.stop());
    assert.ok(m.metricsUrl);
    assert.equal(m.healthUrl, m.metricsUrl, "one address, one server for all three endpoints");

    assert.deepEqual(await get(`${m.healthUrl}/healthz`), { status: 200, body: "ok" });
    await informer.waitForSync();
    const notReady = await get(`${m.healthUrl}/readyz`);
    assert.equal(notReady.status, 503, "not ready: Service Unavailable");
    assert.match(notReady.body, /\[\+\]informers ok/);
    assert.match(notReady.body, /\[-\]resolver-snapshot failed: waiting for the first complete snapshot/);
    assert.equal(reconciled.length, 0, "nothing is reconciled before the extra gate opens");

    snapshotReady.open();
    assert.deepEqual(await get(`${m.healthUrl}/readyz`), { status: 200, body: "ok" });
    assert.match((await get(`${m.healthUrl}/readyz?verbose`)).body, /\[\+\]resolver-snapshot ok/);
    await waitFor(() => reconciled.includes("mgr/one"), { what: "the reconcile of mgr/one" });
    await waitFor(() => m.isLeader(), { what: "leadership" });

    const metrics = await get(`${m.metricsUrl}/metrics`);
    assert.equal(metrics.status, 200);
    for (const name of [
      'controller_runtime_reconcile_total{controller="cm",result="success"} 1',
      'controller_runtime_reconcile_errors_total{controller="cm"} 0',
      'controller_runtime_reconcile_time_seconds_count{controller="cm"} 1',
      'controller_runtime_max_concurrent_reconciles{controller="cm"} 1',
      'workqueue_depth{controller="cm",name="cm"} 0',
      'workqueue_adds_total{controller="cm",name="cm"} 1',
      'workqueue_queue_duration_seconds_count{controller="cm",name="cm"} 1',
      'workqueue_work_duration_seconds_count{controller="cm",name="cm"} 1',
      'workqueue_retries_total{controller="cm",name="cm"} 0',
      'leader_election_master_status{name="endpoints"} 1',
      "process_resident_memory_bytes",
    ]) {
      assert.ok(metrics.body.includes(name), `/metrics has ${name}`);
    }
    assert.match(
      metrics.body,
      /rest_client_requests_total\{code="200",method="GET",host="127\.0\.0\.1:\d+"\} \d+/,
    );
  });

  test("separate metrics and health addresses get separate servers", async () => {
    const m = new Manager({ client, metricsAddr: "127.0.0.1:0", healthAddr: "localhost:0" });
    await m.start();
    after(() => m.stop());
    assert.ok(m.metricsUrl && m.healthUrl);
    assert.notEqual(m.metricsUrl, m.healthUrl);
    assert.equal((await get(`${m.metricsUrl}/metrics`)).status, 200);
    assert.equal((await get(`${m.metricsUrl}/healthz`)).status, 404, "probes are on the health address only");
    assert.equal((await get(`${m.healthUrl}/healthz`)).status, 200);
    assert.equal((await get(`${m.healthUrl}/metrics`)).status, 404);
    // Without informers or checks it is ready at once.
    assert.equal((await get(`${m.healthUrl}/readyz`)).status, 200);
  });
});

describe("manager: losing the lease", () => {
  test("stops reconciling and rejects `done` with LeadershipLostError when another holder takes the lease", async () => {
    const m = new Manager({ client, leaderElection: { namespace: "mgr-other", name: "stolen", ...timings } });
    const informer = m.informer({ resource: configMaps, namespaces: ["mgr-other"] });
    m.controller({ name: "noop", primary: informer, reconcile: async () => ({}) });
    await m.start();
    await waitFor(() => m.isLeader(), { what: "leadership" });
    const path = "/apis/coordination.k8s.io/v1/namespaces/mgr-other/leases/stolen";
    // Another process overwrites the lease and keeps renewing it.
    const intruder = setInterval(async () => {
      const lease = await client.request<Lease>({ method: "GET", path }).catch(() => undefined);
      if (!lease) return;
      await client
        .request({
          method: "PUT",
          path,
          body: {
            ...lease,
            spec: {
              ...lease.spec,
              holderIdentity: "intruder",
              renewTime: new Date().toISOString().replace("Z", "000Z"),
            },
          },
        })
        .catch(() => undefined);
    }, 100);
    after(() => clearInterval(intruder));
    await assert.rejects(m.done, (err) => err instanceof LeadershipLostError);
    assert.equal(m.isLeader(), false);
    assert.equal(m.stopping, true);
  });
});
