import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject } from "../runtime/kube-object.ts";
import type { ReferenceField } from "../services/references.ts";
import type { ManagedObject } from "./reconcile/object-store.ts";
import { movesReferenced, referrersOf, waitsOnReference } from "./referrer-wakeup.ts";

const refs: ReferenceField[] = [
  { path: ["dbSubnetGroupRef"], plain: "dbSubnetGroupName", service: "rds", kind: "DBSubnetGroup" },
];
const group = (namespace: string, name: string): KubeObject => ({
  apiVersion: "rds.services.k8s.aws/v1alpha1",
  kind: "DBSubnetGroup",
  metadata: { namespace, name },
});
const instance = (
  namespace: string,
  name: string,
  from: { name: string; namespace?: string } | undefined,
  reason?: string,
): ManagedObject => ({
  apiVersion: "rds.services.k8s.aws/v1alpha1",
  kind: "DBInstance",
  metadata: { namespace, name },
  spec: from ? { dbSubnetGroupRef: { from } } : { dbSubnetGroupName: "plain" },
  ...(reason ? { status: { conditions: [{ type: "ACK.Recoverable", status: "True", reason }] } } : {}),
});
const all = () => true;

test("referrersOf: the instances naming the group, in its namespace or naming it across", () => {
  const objs = [
    instance("shop", "a", { name: "net" }),
    instance("shop", "b", { name: "other" }),
    instance("shop", "c", undefined),
    instance("apps", "d", { name: "net", namespace: "shop" }),
    instance("apps", "e", { name: "net" }),
  ];
  assert.deepEqual(referrersOf(group("shop", "net"), "DBSubnetGroup", refs, objs, all), ["shop/a", "apps/d"]);
  assert.deepEqual(referrersOf(group("shop", "net"), "DBTable", refs, objs, all), []);
});

test("waitsOnReference: only an ACK.Recoverable True with a reference wait reason", () => {
  assert.equal(waitsOnReference(instance("shop", "a", { name: "net" }, "ReferenceNotSynced")), true);
  assert.equal(waitsOnReference(instance("shop", "a", { name: "net" }, "ReferenceNotFound")), true);
  assert.equal(waitsOnReference(instance("shop", "a", { name: "net" }, "ReferenceAccountMismatch")), false);
  assert.equal(waitsOnReference(instance("shop", "a", { name: "net" }, "Throttled")), false);
  assert.equal(waitsOnReference(instance("shop", "a", { name: "net" })), false);
  const withFalse = instance("shop", "a", { name: "net" }, "ReferenceNotSynced");
  withFalse.status!.conditions![0]!.status = "False";
  assert.equal(waitsOnReference(withFalse), false);
});

test("waitsOnReference: a Terminal ReferenceNotOwned is woken too (the group may hold its object again)", () => {
  const terminal = (reason: string): ManagedObject => ({
    ...instance("shop", "a", { name: "net" }),
    status: { conditions: [{ type: "ACK.Terminal", status: "True", reason }] },
  });
  assert.equal(waitsOnReference(terminal("ReferenceNotOwned")), true);
  assert.equal(waitsOnReference(terminal("ReferenceAccountMismatch")), false);
  assert.equal(waitsOnReference(instance("shop", "a", { name: "net" }, "ReferenceNotInAWS")), true);
});

test("referrersOf with waitsOnReference: a status change of the group wakes only waiting referrers", () => {
  const objs = [
    instance("shop", "waiting", { name: "net" }, "ReferenceNotSynced"),
    instance("shop", "synced", { name: "net" }),
  ];
  assert.deepEqual(referrersOf(group("shop", "net"), "DBSubnetGroup", refs, objs, waitsOnReference), [
    "shop/waiting",
  ]);
});

test("movesReferenced: deletion, labels and annotations move a reference; status and spec do not", () => {
  const g = group("shop", "net");
  assert.equal(movesReferenced(g, { ...g, status: { x: 1 } } as KubeObject), false);
  assert.equal(movesReferenced(g, { ...g, metadata: { ...g.metadata, generation: 2 } }), false);
  assert.equal(
    movesReferenced(g, { ...g, metadata: { ...g.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } }),
    true,
  );
  assert.equal(movesReferenced(g, { ...g, metadata: { ...g.metadata, labels: { a: "b" } } }), true);
  assert.equal(
    movesReferenced(g, {
      ...g,
      metadata: { ...g.metadata, annotations: { "services.k8s.aws/region": "x" } },
    }),
    true,
  );
});
