// Two (then three) real controller processes with --enable-leader-election: exactly one holds the
// Lease ack-system/crossrole-leader and reconciles; when the leader is SIGKILLed a standby takes
// over once the lease expires; when the leader is stopped gracefully (SIGTERM) it releases the
// lease and a standby takes over at its next retry.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  bucket,
  bucketsIn,
  type ControllerProcess,
  controllerAccount,
  type E2E,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

/** The runtime's defaults (client-go's): lease 15 s, retry 2 s with jitter factor 1.2. */
const leaseDurationMs = 15_000;
const retryPeriodMs = 2_000;
const maxRetryMs = retryPeriodMs * (1 + 1.2);
const leasePath = "/apis/coordination.k8s.io/v1/namespaces/ack-system/leases/crossrole-leader";

interface Lease {
  spec?: { holderIdentity?: string; leaseTransitions?: number; leaseDurationSeconds?: number };
}

let e2e: E2E;
const replicas: ControllerProcess[] = [];

before(async () => {
  e2e = await startE2E();
  await e2e.apply([namespace("ack-system"), namespace("le")]);
  for (const name of ["replica-a", "replica-b"]) {
    replicas.push(await e2e.startController(["--enable-leader-election"], { name }));
  }
});
after(() => e2e?.stop());

async function lease(): Promise<Lease | undefined> {
  try {
    return await e2e.kube.request<Lease>({ method: "GET", path: leasePath });
  } catch {
    return undefined;
  }
}

/** The identity a replica campaigns with, from its leader-election log lines. */
function identityOf(c: ControllerProcess): Promise<string> {
  return waitFor(
    () => {
      const line = c.logs().find((l) => typeof l["identity"] === "string" && l["lease"] !== undefined);
      return line?.["identity"] as string | undefined;
    },
    { what: `the leader-election identity of ${c.logFile}`, timeoutMs: 10_000 },
  );
}

async function metric(c: ControllerProcess, pattern: RegExp): Promise<number | undefined> {
  const text = await (await fetch(`${c.metricsURL}/metrics`)).text();
  const m = pattern.exec(text);
  return m ? Number(m[1]) : undefined;
}

const masterStatus = (c: ControllerProcess) =>
  metric(c, /^leader_election_master_status\{name="crossrole-leader"\} (\d+)$/m);
const bucketReconciles = (c: ControllerProcess) =>
  metric(
    c,
    /^controller_runtime_reconcile_total\{[^}]*controller="bucket"[^}]*result="success"[^}]*\} (\d+)$/m,
  );

/** Log lines of `c` about reconciling the Bucket `le/<name>`. */
function reconcileLines(c: ControllerProcess, name: string) {
  return c.logs().filter((l) => l["key"] === `le/${name}` || l["resource"] === `Bucket le/${name}`);
}

/** Waits until the lease names one of `candidates` as holder; returns that replica. */
async function leaderAmong(candidates: readonly ControllerProcess[]): Promise<ControllerProcess> {
  const ids = await Promise.all(candidates.map(identityOf));
  return waitFor(
    async () => {
      const holder = (await lease())?.spec?.holderIdentity;
      const i = holder ? ids.indexOf(holder) : -1;
      return i >= 0 ? candidates[i] : undefined;
    },
    { what: "a replica to hold the lease", timeoutMs: 30_000 },
  );
}

let leader: ControllerProcess;
let standby: ControllerProcess;

test("of two replicas exactly one leads, and only the leader reconciles", async () => {
  const [a, b] = replicas as [ControllerProcess, ControllerProcess];
  leader = await leaderAmong([a, b]);
  standby = leader === a ? b : a;
  assert.equal((await lease())?.spec?.leaseDurationSeconds, leaseDurationMs / 1000);
  await waitFor(async () => (await masterStatus(leader)) === 1, {
    what: "leader_election_master_status 1 on the leader",
    timeoutMs: 10_000,
  });
  assert.equal(await masterStatus(standby), 0, "the standby reports it does not lead");
  assert.ok(!standby.exited, "the standby keeps running");

  await e2e.apply([bucket("le", "first")]);
  const b1 = await waitForCondition(e2e.kube, "le", "first", "ACK.ResourceSynced", "True");
  assert.equal(b1.status?.ackResourceMetadata?.ownerAccountID, controllerAccount);
  assert.ok((await bucketsIn(e2e.stack.awsEndpoint ?? "", controllerAccount)).includes("le-first"));
  assert.ok(reconcileLines(leader, "first").length > 0, "the leader reconciled le/first");
  assert.deepEqual(reconcileLines(standby, "first"), [], "the standby did not touch le/first");
  assert.ok(((await bucketReconciles(leader)) ?? 0) > 0);
  assert.equal((await bucketReconciles(standby)) ?? 0, 0, "the standby reconciled nothing");
});

test("a SIGKILLed leader is replaced once its lease expires, and the new leader reconciles", async (t) => {
  const before = (await lease())?.spec?.leaseTransitions ?? 0;
  const standbyId = await identityOf(standby);
  const killedAt = Date.now();
  await leader.stop("SIGKILL");
  await waitFor(async () => (await lease())?.spec?.holderIdentity === standbyId, {
    what: "the standby to take the lease",
    timeoutMs: leaseDurationMs + 3 * maxRetryMs + 5_000,
  });
  const tookMs = Date.now() - killedAt;
  t.diagnostic(`standby took over ${tookMs} ms after the SIGKILL`);
  // The lease was renewed at most one retry period before the kill, and the standby only
  // takes it once it has looked unrenewed for the whole lease duration on its own clock.
  assert.ok(tookMs >= leaseDurationMs - retryPeriodMs - 1_000, `took over too early: ${tookMs} ms`);
  assert.ok(
    tookMs <= leaseDurationMs + 2 * maxRetryMs + 2_000,
    `took over in ${tookMs} ms; lease ${leaseDurationMs} ms + retries`,
  );
  assert.equal((await lease())?.spec?.leaseTransitions, before + 1);
  await waitFor(async () => (await masterStatus(standby)) === 1, {
    what: "leader_election_master_status 1 on the new leader",
    timeoutMs: 5_000,
  });

  await e2e.apply([bucket("le", "second")]);
  await waitForCondition(e2e.kube, "le", "second", "ACK.ResourceSynced", "True");
  assert.ok(reconcileLines(standby, "second").length > 0, "the new leader reconciled le/second");
  assert.deepEqual(reconcileLines(leader, "second"), [], "the dead leader did nothing");
  leader = standby;
});

test("a leader stopped with SIGTERM releases the lease: a standby takes over at its next retry", async (t) => {
  standby = await e2e.startController(["--enable-leader-election"], { name: "replica-c" });
  const standbyId = await identityOf(standby);
  // The new replica has looked at the lease (and found it held) before the leader goes.
  await waitFor(
    () => standby.logs().some((l) => l["msg"] === "new leader observed" && l["leader"] !== standbyId),
    { what: "replica-c to observe the current leader", timeoutMs: 10_000 },
  );
  assert.equal(await masterStatus(standby), 0);

  const stoppedAt = Date.now();
  const code = await leader.stop("SIGTERM");
  const exitedAt = Date.now();
  assert.equal(code, 0, "graceful exit");
  assert.ok(
    leader.logs().some((l) => l["msg"] === "released the leader lease"),
    "the old leader released the lease",
  );
  await waitFor(async () => (await lease())?.spec?.holderIdentity === standbyId, {
    what: "replica-c to take the released lease",
    timeoutMs: leaseDurationMs,
  });
  const tookMs = Date.now() - stoppedAt;
  const afterExitMs = Date.now() - exitedAt;
  t.diagnostic(`replica-c took over ${tookMs} ms after the SIGTERM (${afterExitMs} ms after the exit)`);
  // Without the release the standby could not take over before ~lease duration - retry period.
  assert.ok(tookMs < leaseDurationMs - retryPeriodMs, `took over in ${tookMs} ms`);
  assert.ok(afterExitMs <= maxRetryMs + 1_500, `took over ${afterExitMs} ms after the exit: one retry`);

  await e2e.apply([bucket("le", "third")]);
  await waitForCondition(e2e.kube, "le", "third", "ACK.ResourceSynced", "True");
  assert.ok(reconcileLines(standby, "third").length > 0, "replica-c reconciled le/third");
  assert.equal(await masterStatus(standby), 1);
});
