import assert from "node:assert/strict";
import { test } from "node:test";
import { namespace, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { resourceKinds } from "../api/kinds.ts";
import { computeAudit } from "../audit/compute.ts";
import { renderText } from "../audit/render-text.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Lease } from "../runtime/leader-election.ts";
import { ownerOf } from "../runtime/shards/rendezvous.ts";
import { shardNote, withReconciledBy } from "./shard-note.ts";

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

test("audit: each namespace names the replica that reconciles it, or none when no Lease is live", () => {
  const settings = settingsWith({ controllerAccount: null });
  const report = computeAudit({
    snapshot: buildSnapshot({ namespaces: [namespace("shop"), namespace("billing")] }, settings),
    settings,
    kinds: resourceKinds,
    source: { from: "cluster", detail: "test" },
  });
  const out = withReconciledBy(report, [lease("r1", 1), lease("r2", 2), lease("r3", 60)], now);
  assert.deepEqual(out.shards, { members: ["r1", "r2"] });
  assert.deepEqual(out.namespaces.map((n) => [n.name, n.reconciledBy]).sort(), [
    ["billing", ownerOf("billing", ["r1", "r2"])],
    ["shop", ownerOf("shop", ["r1", "r2"])],
  ]);
  const text = renderText(out);
  assert.match(text, /Sharded across 2 replicas \(r1, r2\)/);
  assert.match(text, new RegExp(`shop \\(reconciled by replica ${ownerOf("shop", ["r1", "r2"])}\\)`));
  const dead = withReconciledBy(report, [lease("r3", 60)], now);
  assert.deepEqual(
    dead.namespaces.map((n) => n.reconciledBy),
    ["", ""],
  );
});
