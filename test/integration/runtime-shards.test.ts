// Sharding on Kubernetes Leases against a real kube-apiserver: replicas (ShardMembers, each with
// its own Lease informer) split the namespaces between them; a namespace is never acted on by two
// at once — sampled all along while members join, drain, leave gracefully and die; a dead
// member's namespaces move within one lease duration, a released one's at once.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { Informer } from "../../src/runtime/informer.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { Lease } from "../../src/runtime/leader-election.ts";
import { ShardMember, shardMemberLabel } from "../../src/runtime/shards/member.ts";

// Short timings (the defaults are 15 s / 2 s / 10 s): same ordering, seconds instead of tens.
const leaseDurationMs = 3_000;
const timings = { leaseDurationMs, renewPeriodMs: 300, renewDeadlineMs: 2_000, tickMs: 50 };
const namespaces = Array.from({ length: 60 }, (_, i) => `tenant-${i}`);

let stack: Stack;
let client: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  client = createKubeClient(stack.kubeConfig);
  await client.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { metadata: { name: "shards" } },
  });
});
after(() => stack?.stop());

interface Replica {
  readonly member: ShardMember;
  readonly leases: Informer<Lease>;
  /** Namespaces this replica pretends to have reconciles in flight for. */
  readonly inFlight: Set<string>;
}

const replicas = new Map<string, Replica>();

async function join(name: string): Promise<Replica> {
  const leases = new Informer<Lease>({
    client,
    resource: {
      group: "coordination.k8s.io",
      version: "v1",
      plural: "leases",
      kind: "Lease",
      namespaced: true,
    },
    namespaces: ["shards"],
    labelSelector: `${shardMemberLabel}=true`,
  });
  leases.start();
  const inFlight = new Set<string>();
  const member = new ShardMember({
    client,
    namespace: "shards",
    member: name,
    leases: () => leases.list(),
    inFlightNamespaces: () => inFlight,
    ...timings,
  });
  void member.start();
  const r = { member, leases, inFlight };
  replicas.set(name, r);
  return r;
}

async function leave(name: string, release: boolean): Promise<void> {
  const r = replicas.get(name);
  if (!r) return;
  replicas.delete(name);
  await r.member.stop({ release });
  await r.leases.stop();
}

/** Who may act on each namespace now, among the running replicas (and the dead one, if given). */
function actors(extra: readonly ShardMember[] = []): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const ns of namespaces) {
    out.set(
      ns,
      [...[...replicas.values()].map((r) => r.member), ...extra]
        .filter((m) => m.mayAct(ns))
        .map((m) => m.member),
    );
  }
  return out;
}

/** Samples every 20 ms until stopped: never two actors on one namespace. */
function watchExclusion(extra: () => readonly ShardMember[] = () => []) {
  let violation: string | undefined;
  const timer = setInterval(() => {
    for (const [ns, who] of actors(extra())) if (who.length > 1) violation ??= `${ns}: ${who.join(", ")}`;
  }, 20);
  return () => {
    clearInterval(timer);
    assert.equal(violation, undefined, "a namespace was acted on by two replicas at once");
  };
}

const allCovered = () => [...actors().values()].every((who) => who.length === 1);

describe("sharding on member Leases", () => {
  test("three replicas split the namespaces, each acted on by exactly one, in about equal shares", async () => {
    const check = watchExclusion();
    await Promise.all(["a", "b", "c"].map(join));
    await waitFor(allCovered, { what: "every namespace acted on by exactly one replica", timeoutMs: 15_000 });
    check();
    const shares = new Map<string, number>();
    for (const [who] of actors().values()) shares.set(who ?? "", (shares.get(who ?? "") ?? 0) + 1);
    for (const name of ["a", "b", "c"])
      assert.ok((shares.get(name) ?? 0) >= 10, `${name}: ${shares.get(name)}`);
  });

  test("a replica joining takes a namespace only after its previous owner drained it", async () => {
    const check = watchExclusion();
    // Everything a, b and c own is in flight: a newcomer may take none of it until they drain.
    const owner = new Map([...actors()].map(([ns, [who]]) => [ns, who ?? ""]));
    for (const [ns, who] of owner) replicas.get(who)?.inFlight.add(ns);
    const d = await join("d");
    await waitFor(
      () =>
        d.member.state.view.members.includes("a") &&
        replicas.get("a")?.member.state.view.members.includes("d"),
      {
        what: "the view with d, everywhere",
        timeoutMs: 10_000,
      },
    );
    const moving = namespaces.filter((ns) => d.member.state.view.ownerOf(ns) === "d");
    assert.ok(moving.length > 0);
    // The previous owners stop at once (not theirs under the new view); d may not act yet.
    await waitFor(() => moving.every((ns) => actors().get(ns)?.length === 0), {
      what: "the moving namespaces held by no one while drained",
      timeoutMs: 5_000,
    });
    for (const ns of moving) assert.deepEqual(actors().get(ns), []);
    // Drained: d takes them.
    for (const r of replicas.values()) r.inFlight.clear();
    await waitFor(() => moving.every((ns) => actors().get(ns)?.[0] === "d"), {
      what: "d acting on its share",
      timeoutMs: 10_000,
    });
    await waitFor(allCovered, { what: "every namespace covered", timeoutMs: 10_000 });
    check();
  });

  test("a replica killed (its Lease not released) hands its share over within one lease duration, never early", async () => {
    const dead = replicas.get("b");
    assert.ok(dead);
    const check = watchExclusion(() => [dead.member]);
    const share = namespaces.filter((ns) => actors().get(ns)?.[0] === "b");
    // kill -9: the renewals stop, the Lease stays.
    await leave("b", false);
    const killedAt = performance.now();
    await waitFor(() => share.every((ns) => actors().get(ns)?.length === 1), {
      what: "b's share acted on again",
      timeoutMs: leaseDurationMs * 4,
    });
    const movedAfter = performance.now() - killedAt;
    assert.ok(movedAfter >= leaseDurationMs - 500, `moved after ${movedAfter} ms, before b's Lease expired`);
    assert.ok(movedAfter <= leaseDurationMs * 2.5, `moved after ${movedAfter} ms`);
    check();
  });

  test("a replica stopping gracefully releases its Lease, and its share moves at once", async () => {
    const check = watchExclusion();
    const share = namespaces.filter((ns) => actors().get(ns)?.[0] === "c");
    const stoppedAt = performance.now();
    await leave("c", true);
    await waitFor(() => share.every((ns) => actors().get(ns)?.length === 1), {
      what: "c's share acted on again",
      timeoutMs: leaseDurationMs * 2,
    });
    assert.ok(performance.now() - stoppedAt < leaseDurationMs, "before its Lease could have expired");
    check();
    for (const name of [...replicas.keys()]) await leave(name, true);
  });
});
