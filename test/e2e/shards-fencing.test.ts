// Fencing with replica processes (crossrole run --enable-sharding, 4 s Leases): a replica that
// loses its Lease while a reconcile is in flight writes nothing more, to AWS or Kubernetes.
//   r1 reconciles a Queue of its namespace; its AWS read is held (the fault proxy keeps it), and
//   r1 is paused (SIGSTOP). The Queue's spec changes; r1's Lease expires; r2 takes the namespace
//   and applies the new value (Synced). The held read is answered and r1 resumes (SIGCONT): its
//   Lease is stale by its own clock at its next write, so the old value is never sent; it reads
//   the Leases again before claiming anything (it would otherwise count r2 dead on its stale
//   cache), and the namespace comes back to it only once r2 has let it go.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ControllerProcess } from "../../src/local-stack/controller-process.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { ownerOf } from "../../src/runtime/shards/rendezvous.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { queueAttributesIn } from "../support/sqs-queues.ts";
import {
  condition,
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  patchResource,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const leaseSeconds = 4;
let e2e: E2E;
let proxy: AwsProxy;
const replicas = new Map<string, ControllerProcess>();
/** A namespace r1 owns while both replicas live. */
const ns =
  Array.from({ length: 64 }, (_, i) => `fence-${i}`).find((n) => ownerOf(n, ["r1", "r2"]) === "r1") ?? "";
const queueName = `${ns}-orders`;

async function start(name: string): Promise<void> {
  replicas.set(
    name,
    await e2e.startController(
      [
        "--enable-sharding",
        `--shard-member=${name}`,
        `--shard-lease-duration-seconds=${leaseSeconds}`,
        "--enable-leader-election=true",
      ],
      { name, awsEndpoint: proxy.endpoint },
    ),
  );
}

const metric = async (metricName: string, name: string) =>
  Number(
    new RegExp(`${metricName}\\{member="${name}"\\} (\\d+)`).exec(
      await (await fetch(`${replicas.get(name)?.metricsURL}/metrics`)).text(),
    )?.[1] ?? -1,
  );
/** How many members the replica sees. */
const members = (name: string) => metric("crossrole_shard_members", name);
/** How many namespaces the replica reconciles now. */
const acting = (name: string) => metric("crossrole_shard_namespaces", name);

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([namespace("ack-system"), namespace(ns)]);
  for (const name of ["r1", "r2"]) await start(name);
  await waitFor(async () => (await members("r1")) === 2 && (await members("r2")) === 2, {
    what: "both replicas seeing both",
    timeoutMs: 20_000,
  });
});
after(async () => {
  for (const r of replicas.values()) if (r.pid !== undefined && !r.exited) process.kill(r.pid, "SIGCONT");
  await e2e?.stop();
  await proxy?.close();
});

const attributes = () => queueAttributesIn(e2e.stack.awsEndpoint ?? "", controllerAccount, queueName);
const setDelay = (delaySeconds: string) =>
  patchResource(e2e.kube, "Queue", ns, "orders", { spec: { delaySeconds } });

test("a replica paused mid-reconcile past its Lease writes nothing when it wakes: the namespace's new owner's value stays", async () => {
  const r1 = replicas.get("r1");
  assert.ok(r1?.pid);
  await e2e.apply([
    {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "orders", namespace: ns },
      spec: { queueName, delaySeconds: "0" },
    },
  ]);
  await waitForResourceCondition(e2e.kube, "Queue", ns, "orders", "ACK.ResourceSynced", "True");

  // r1's next read of the queue is held; the spec change makes r1 (the namespace's owner) read it.
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  proxy.addFault({
    name: "r1's read held",
    times: 1,
    match: (r) => r.action === "GetQueueAttributes" && r.body.includes(queueName),
    respond: { holdUntil: answered },
  });
  await setDelay("5");
  await waitFor(() => proxy.requests.some((r) => r.fault === "r1's read held"), {
    what: "r1's read of the queue held",
    timeoutMs: 20_000,
  });
  process.kill(r1.pid, "SIGSTOP");

  // Meanwhile: the spec moves on, r1's Lease expires, r2 takes the namespace and applies it.
  await setDelay("10");
  const generation = (await getResource(e2e.kube, "Queue", ns, "orders"))?.metadata.generation;
  await waitFor(
    async () => {
      const q = await getResource(e2e.kube, "Queue", ns, "orders");
      const synced = condition(q, "ACK.ResourceSynced");
      return synced?.status === "True" && synced.observedGeneration === generation;
    },
    { what: "r2 Synced the new spec", timeoutMs: leaseSeconds * 1000 * 3 + 20_000 },
  );
  assert.equal((await attributes())?.["DelaySeconds"], "10");
  const writesBefore = proxy.requests.length;

  // The held read is answered, and r1 wakes into it.
  answer();
  process.kill(r1.pid, "SIGCONT");
  // The namespace goes back to r1 (its rendezvous owner) once r2 has let it go; r1 then works
  // from the spec as it is now. Nothing ever sent the old value.
  await waitFor(async () => (await acting("r1")) === 1 && (await acting("r2")) === 0, {
    what: "the namespace back with r1, and r2 holding none",
    timeoutMs: 30_000,
  });
  const stale = proxy.requests
    .slice(writesBefore)
    .filter((r) => r.action === "SetQueueAttributes" && /"DelaySeconds":"5"/.test(r.body));
  assert.deepEqual(
    stale.map((r) => r.body),
    [],
    "the old value was never sent after r1 woke",
  );
  assert.equal((await attributes())?.["DelaySeconds"], "10", "AWS keeps the new owner's value");
  const q = await getResource(e2e.kube, "Queue", ns, "orders");
  assert.equal(condition(q, "ACK.ResourceSynced")?.status, "True");
  // How: r1 read the Leases again on waking, and its reconcile in flight stopped as fenced.
  assert.ok(
    r1.logs().some((l) => l["event"] === "shard.relisted"),
    "r1 read the Leases again on waking",
  );
  const fenced = r1.logs().find((l) => l["event"] === "reconcile.fenced" && l["key"] === `${ns}/orders`);
  assert.ok(fenced, "r1's reconcile in flight stopped as fenced");
  assert.match(String(fenced["why"]), /not renewed its Lease in time|has not yet let|belongs to member r2/);
});
