import assert from "node:assert/strict";
import { test } from "node:test";
import type { Lease } from "../runtime/leader-election.ts";
import { ownerOf } from "../runtime/shards/rendezvous.ts";
import { shardNote } from "./shard-note.ts";

const now = Date.parse("2026-11-27T12:00:00Z");
const lease = (holder: string, renewedSecondsAgo: number): Lease => ({
  apiVersion: "coordination.k8s.io/v1",
  kind: "Lease",
  metadata: { name: `crossrole-shard-${holder}`, namespace: "ack-system" },
  spec: {
    holderIdentity: holder,
    leaseDurationSeconds: 15,
    renewTime: new Date(now - renewedSecondsAgo * 1000).toISOString(),
  },
});

test("no member Lease: one replica, nothing to say", () => {
  assert.equal(shardNote([], "shop", "ack-system", now), null);
});

test("the owner of the namespace among the live members; an expired member does not count", () => {
  const note = shardNote([lease("r1", 1), lease("r2", 2), lease("r3", 60)], "shop", "ack-system", now) ?? "";
  const owner = ownerOf("shop", ["r1", "r2"]);
  assert.equal(
    note,
    `Sharded across 2 replicas (r1, r2): namespace shop is reconciled by ${owner} (member Lease ack-system/crossrole-shard-${owner})`,
  );
});

test("every member Lease expired: says that no replica reconciles it now", () => {
  assert.match(
    shardNote([lease("r1", 60)], "shop", "ack-system", now) ?? "",
    /no member Lease in ack-system is live now/,
  );
});
