// Each replica caches only its shard, against a real kube-apiserver: two managers with sharding
// on, over ConfigMaps in 16 namespaces (standing in for a managed kind). Objects applied with no
// bucket label, a label that is no bucket, or the bucket of another namespace (a tenant may write
// any) all end up labelled with their namespace's bucket; each manager's sharded informer holds
// exactly the objects of the namespaces it owns; when one leaves, the other takes its objects
// into its cache; and the leader's all-shards view holds everything.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { configMapType } from "../../src/controller/config-types.ts";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import type { Informer } from "../../src/runtime/informer.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { Manager } from "../../src/runtime/manager.ts";
import { bucketOf, shardBucketLabel } from "../../src/runtime/shards/buckets.ts";
import { Assignment } from "../../src/runtime/shards/rendezvous.ts";

const configMaps = configMapType;
const namespaces = Array.from({ length: 16 }, (_, i) => `sc-${i}`);
const timings = { leaseDurationMs: 3_000, renewPeriodMs: 300, renewDeadlineMs: 2_000 };

let stack: Stack;
let client: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  client = createKubeClient(stack.kubeConfig);
  for (const name of ["sc-system", ...namespaces]) {
    await client.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name } } });
  }
});
after(() => stack?.stop());

interface Replica {
  readonly manager: Manager;
  /** The sharded informer (this replica's shard). */
  readonly shard: Informer;
  /** The leader's view of every shard's objects. */
  readonly all: Informer;
}

function replica(member: string): Replica {
  const manager = new Manager({
    client,
    sharding: { member, namespace: "sc-system", ...timings },
    leaderElection: {
      namespace: "sc-system",
      name: "sc-leader",
      identity: member,
      leaseDurationMs: 3_000,
      renewDeadlineMs: 2_000,
      retryPeriodMs: 300,
    },
    shardedResource: (rt) => rt.plural === "configmaps",
    // Only the test's objects (every namespace has a kube-root-ca.crt ConfigMap).
    defaultLabelSelector: () => "app=shard-test",
  });
  const shard = manager.informer({ resource: configMaps });
  const all = manager.informer({ resource: configMaps, allShards: true, leaderOnly: true });
  return { manager, shard, all };
}

async function put(ns: string, name: string, bucket?: string): Promise<void> {
  await client.request({
    method: "POST",
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: {
      metadata: {
        name,
        labels: { app: "shard-test", ...(bucket === undefined ? {} : { [shardBucketLabel]: bucket }) },
      },
    },
  });
}

const labelled = async (): Promise<boolean> => {
  const list = await client.request<{ items: KubeObject[] }>({
    method: "GET",
    path: "/api/v1/configmaps",
    query: { labelSelector: "app=shard-test" },
  });
  return list.items.every(
    (o) => o.metadata.labels?.[shardBucketLabel] === bucketOf(o.metadata.namespace ?? ""),
  );
};

const keysOf = (i: Informer) => i.keys().sort();

describe("sharded caches", () => {
  test("labels every object with its namespace's bucket, and each replica caches only its own", async () => {
    const objects: string[] = [];
    for (const [i, ns] of namespaces.entries()) {
      // Unlabelled, not a bucket, and another namespace's bucket.
      const wrong = String((Number(bucketOf(ns)) + 1) % 256);
      for (const [name, bucket] of [
        ["plain", undefined],
        ["garbage", "x"],
        ["wrong", wrong],
      ] as const) {
        await put(ns, name, i % 2 === 0 ? bucket : undefined);
        objects.push(`${ns}/${name}`);
      }
    }
    const a = replica("a");
    const b = replica("b");
    after(() => Promise.all([a.manager.stop(), b.manager.stop()]));
    await Promise.all([a.manager.start(), b.manager.start()]);

    const view = new Assignment(["a", "b"]);
    const shareOf = (m: string) => objects.filter((k) => view.ownerOf(k.split("/")[0] ?? "") === m).sort();
    assert.ok(shareOf("a").length > 0 && shareOf("b").length > 0, "both own some namespaces");
    await waitFor(labelled, { what: "every object labelled with its namespace's bucket", timeoutMs: 15_000 });
    await waitFor(
      () =>
        JSON.stringify(keysOf(a.shard)) === JSON.stringify(shareOf("a")) &&
        JSON.stringify(keysOf(b.shard)) === JSON.stringify(shareOf("b")),
      {
        what: "each replica caching exactly its share",
        timeoutMs: 15_000,
      },
    );
    const leader = a.manager.isLeader() ? a : b;
    const follower = leader === a ? b : a;
    await waitFor(() => leader.all.size === objects.length, {
      what: "the leader's view of all",
      timeoutMs: 10_000,
    });
    assert.equal(follower.all.size, 0, "a replica that does not lead holds no all-shards view");
    assert.equal(follower.manager.hasSynced(), true, "and is ready all the same");

    // A tenant moves its object to the other replica's bucket: it is put back.
    const [ns, name] = (shareOf("a")[0] ?? "").split("/");
    const foreign = b.shard.list()[0]?.metadata.labels?.[shardBucketLabel] ?? "";
    await client.request({
      method: "PATCH",
      path: `/api/v1/namespaces/${ns}/configmaps/${name}`,
      contentType: "application/merge-patch+json",
      body: { metadata: { labels: { [shardBucketLabel]: foreign } } },
    });
    await waitFor(labelled, { what: "the moved object labelled back", timeoutMs: 10_000 });
    await waitFor(() => a.shard.getByKey(`${ns}/${name}`) !== undefined, { what: "back in a's cache" });
    // b took it in while it carried b's bucket; its watch drops it once the label is put back.
    await waitFor(() => b.shard.getByKey(`${ns}/${name}`) === undefined, { what: "gone from b's cache" });

    // b leaves (releasing its Lease): a takes its objects into its cache.
    await b.manager.stop();
    await waitFor(() => a.shard.size === objects.length, {
      what: `a caching all ${objects.length} (has ${a.shard.size})`,
      timeoutMs: 10_000,
    });
  });
});
