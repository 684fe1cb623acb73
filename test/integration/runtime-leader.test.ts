// Lease-based leader election and the manager's graceful shutdown against a real
// kube-apiserver: one leader among candidates, failover within the lease duration when the
// leader dies, and a fast hand-over when it stops gracefully (SIGTERM) and releases the lease.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { ResourceType } from "../../src/runtime/kube-object.ts";
import { LeaderElector, type Lease } from "../../src/runtime/leader-election.ts";
import { Manager } from "../../src/runtime/manager.ts";
import { createRuntimeMetrics } from "../../src/runtime/metrics.ts";

const configMaps: ResourceType = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};

// Short timings so the tests run in seconds; same ratios as client-go's 15 s / 10 s / 2 s.
const leaseDurationMs = 2_000;
const renewDeadlineMs = 1_400;
const retryPeriodMs = 250;
const timings = { leaseDurationMs, renewDeadlineMs, retryPeriodMs };

let stack: Stack;
let client: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  client = createKubeClient(stack.kubeConfig);
  await client.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name: "le" } } });
});
after(() => stack?.stop());

function readLease(name: string): Promise<Lease> {
  return client.request<Lease>({
    method: "GET",
    path: `/apis/coordination.k8s.io/v1/namespaces/le/leases/${name}`,
  });
}

describe("leader election on a Lease", () => {
  test("of two candidates exactly one leads; when it dies the other takes over within the lease duration", async () => {
    const started: string[] = [];
    const stoppedLeading: string[] = [];
    const make = (identity: string) =>
      new LeaderElector({
        client,
        namespace: "le",
        name: "failover",
        identity,
        ...timings,
        onStartedLeading: () => started.push(identity),
        onStoppedLeading: () => stoppedLeading.push(identity),
      });
    const a = make("replica-a");
    const b = make("replica-b");
    void a.run();
    void b.run();
    after(() => Promise.all([a.stop(), b.stop()]));

    await waitFor(() => started.length >= 1, { what: "a leader", timeoutMs: 10_000 });
    const leader = started[0] === "replica-a" ? a : b;
    const standby = leader === a ? b : a;
    // For several renewals, the standby never leads alongside it.
    const firstRenew = (await readLease("failover")).spec?.renewTime;
    await waitFor(async () => (await readLease("failover")).spec?.renewTime !== firstRenew, {
      what: "the leader to renew",
    });
    await waitFor(() => standby.leader() === leader.identity, { what: "the standby to see who leads" });
    assert.deepEqual(started, [leader.identity]);
    assert.equal(standby.isLeader(), false);
    const lease = await readLease("failover");
    assert.equal(lease.spec?.holderIdentity, leader.identity);
    assert.equal(lease.spec?.leaseDurationSeconds, 2);

    // The leader dies without releasing the lease.
    const died = Date.now();
    await leader.stop({ release: false });
    await waitFor(() => standby.isLeader(), { what: "the standby to take over", timeoutMs: 10_000 });
    const failoverMs = Date.now() - died;
    // The standby must wait out the lease (measured from when it last saw it renewed), and then
    // takes it at one of its next retries.
    assert.ok(
      failoverMs >= leaseDurationMs - retryPeriodMs * 2.2,
      `failover after ${failoverMs} ms is too early`,
    );
    assert.ok(failoverMs <= leaseDurationMs + 5 * retryPeriodMs, `failover took ${failoverMs} ms`);
    const taken = await readLease("failover");
    assert.equal(taken.spec?.holderIdentity, standby.identity);
    assert.equal(taken.spec?.leaseTransitions, 1);
  });

  test("a graceful stop releases the lease, so the standby takes over at its next retry", async () => {
    const a = new LeaderElector({ client, namespace: "le", name: "release", identity: "first", ...timings });
    void a.run();
    await waitFor(() => a.isLeader(), { what: "first to lead" });
    const b = new LeaderElector({ client, namespace: "le", name: "release", identity: "second", ...timings });
    void b.run();
    after(() => b.stop());
    await waitFor(() => b.leader() === "first", { what: "second to see first leading" });
    const stopping = Date.now();
    await a.stop();
    assert.equal((await readLease("release")).spec?.holderIdentity === "first", false, "released");
    await waitFor(() => b.isLeader(), { what: "second to lead" });
    const handoverMs = Date.now() - stopping;
    assert.ok(
      handoverMs < leaseDurationMs,
      `hand-over took ${handoverMs} ms, not less than the lease duration`,
    );
  });
});

describe("manager: leader election and graceful shutdown", () => {
  test("two managers: one reconciles; on SIGTERM it finishes its in-flight reconcile, releases the lease, and the other takes over", async () => {
    await client.request({
      method: "POST",
      path: "/api/v1/namespaces/le/configmaps",
      body: { metadata: { name: "work" }, data: { v: "1" } },
    });
    const reconciled: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inFlight = 0;
    let finished = 0;
    const make = (identity: string) => {
      const m = new Manager({
        client,
        metrics: createRuntimeMetrics(),
        leaderElection: { namespace: "le", name: "manager", identity, ...timings },
        shutdownTimeoutMs: 20_000,
      });
      const informer = m.informer({ resource: configMaps, namespaces: ["le"] });
      m.controller({
        name: "work",
        primary: informer,
        reconcile: async (req) => {
          if (req.name !== "work") return {};
          reconciled.push(identity);
          if (reconciled.length === 1) {
            inFlight++;
            await held;
            inFlight--;
            finished++;
          }
          return {};
        },
      });
      return m;
    };
    const one = make("manager-one");
    const two = make("manager-two");
    await one.start();
    await waitFor(() => one.isLeader(), { what: "manager-one to lead" });
    await two.start();
    after(() => Promise.all([one.stop(), two.stop()]));

    await waitFor(() => inFlight === 1, { what: "manager-one's reconcile to start" });
    await waitFor(async () => (await readLease("manager")).spec?.holderIdentity === "manager-one", {
      what: "the lease to name manager-one",
    });
    assert.equal(two.isLeader(), false);
    assert.deepEqual(reconciled, ["manager-one"]);

    const unhook = one.handleSignals(["SIGTERM"]);
    after(unhook);
    process.emit("SIGTERM");
    await waitFor(() => one.stopping, { what: "manager-one to start shutting down" });
    // It keeps the lease while its reconcile is still running: nobody else may start.
    assert.equal((await readLease("manager")).spec?.holderIdentity, "manager-one");
    assert.equal(two.isLeader(), false, "no take-over while the old leader finishes its work");
    assert.equal(finished, 0);
    release();
    await one.done;
    const stoppedAt = Date.now();
    assert.equal(finished, 1, "the in-flight reconcile finished");
    assert.notEqual(
      (await readLease("manager")).spec?.holderIdentity,
      "manager-one",
      "the lease was released",
    );
    await waitFor(() => two.isLeader(), { what: "manager-two to take over" });
    const handoverMs = Date.now() - stoppedAt;
    assert.ok(
      handoverMs < leaseDurationMs,
      `hand-over took ${handoverMs} ms, not less than the lease duration`,
    );
    await waitFor(() => reconciled.includes("manager-two"), { what: "manager-two to reconcile" });
  });
});
