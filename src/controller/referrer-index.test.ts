import assert from "node:assert/strict";
import { test } from "node:test";
import type { Controller } from "../runtime/controller.ts";
import type { ReferenceField } from "../services/references.ts";
import type { ManagedObject } from "./reconcile/object-store.ts";
import { deletionInUse, type ReferrerOf } from "./references.ts";
import { ReferrerIndex } from "./referrer-index.ts";

const refs: ReferenceField[] = [
  { path: ["dbSubnetGroupRef"], plain: "dbSubnetGroupName", service: "rds", kind: "DBSubnetGroup" },
];

/** An informer's surface over a fixed list (pure logic: the index reads nothing else). */
function informerOf(objects: ManagedObject[], synced = true) {
  const handlers: {
    onUpdate?: (a: ManagedObject, b: ManagedObject) => void;
    onDelete?: (o: ManagedObject) => void;
  }[] = [];
  return {
    objects,
    synced,
    handlers,
    list: (namespace?: string) =>
      objects.filter((o) => namespace === undefined || o.metadata.namespace === namespace),
    hasSynced() {
      return this.synced;
    },
    addHandler(h: (typeof handlers)[number]) {
      handlers.push(h);
    },
  };
}
const instance = (
  namespace: string,
  name: string,
  from?: { name: string; namespace?: string },
  deleting = false,
  status: object = { ackResourceMetadata: { arn: `arn:aws:rds:us-east-1:111111111111:db:${name}` } },
) =>
  ({
    kind: "DBInstance",
    metadata: {
      namespace,
      name,
      uid: `uid-${namespace}-${name}`,
      ...(deleting ? { deletionTimestamp: "2026-11-25T00:00:00Z" } : {}),
    },
    spec: from ? { dbSubnetGroupRef: { from } } : {},
    status,
  }) as ManagedObject;
const here = { account: "111111111111", region: "us-east-1" };
const placedHere = () => here;
const controllerRecording = () => {
  const enqueued: string[] = [];
  return { enqueued, controller: { enqueue: (k: string) => enqueued.push(k) } as unknown as Controller };
};

test("referrersOf: the instances naming the group, with the field and whether they are being deleted", () => {
  const instances = informerOf([
    instance("shop", "db", { name: "net" }),
    instance("shop", "old", { name: "net" }, true),
    instance("shop", "other", { name: "elsewhere" }),
    instance("apps", "across", { name: "net", namespace: "shop" }),
  ]);
  const groups = informerOf([]);
  const index = new ReferrerIndex(
    new Map([
      ["DBInstance", instances],
      ["DBSubnetGroup", groups],
    ]),
    false,
    placedHere,
  );
  index.register("DBInstance", refs, controllerRecording().controller);
  index.register("DBSubnetGroup", [], controllerRecording().controller);
  const common = { kind: "DBInstance", path: "spec.dbSubnetGroupRef", placement: here };
  assert.deepEqual(index.referrersOf("DBSubnetGroup", "shop", "net"), [
    { ...common, key: "shop/db", uid: "uid-shop-db", deleting: false },
    { ...common, key: "shop/old", uid: "uid-shop-old", deleting: true },
  ]);
  assert.deepEqual(index.referrersOf("DBSubnetGroup", "shop", "unused"), []);

  const across = new ReferrerIndex(new Map([["DBInstance", instances]]), true, placedHere);
  across.register("DBInstance", refs, controllerRecording().controller);
  assert.deepEqual(
    across.referrersOf("DBSubnetGroup", "shop", "net")?.map((r) => r.key),
    ["shop/db", "shop/old", "apps/across"],
  );
});

test("referrersOf fails closed: an unsynced informer, or a kind with objects whose controller is not loaded", () => {
  const instances = informerOf([instance("shop", "db", { name: "net" })], false);
  const index = new ReferrerIndex(new Map([["DBInstance", instances]]), false, placedHere);
  assert.equal(index.referrersOf("DBSubnetGroup", "shop", "net"), undefined, "not registered, has objects");
  index.register("DBInstance", refs, controllerRecording().controller);
  assert.equal(index.referrersOf("DBSubnetGroup", "shop", "net"), undefined, "not synced");
  instances.synced = true;
  assert.equal(index.referrersOf("DBSubnetGroup", "shop", "net")?.length, 1);
  // A kind that is not loaded but has no objects references nothing.
  const empty = new ReferrerIndex(new Map([["DBInstance", informerOf([])]]), false, placedHere);
  assert.deepEqual(empty.referrersOf("DBSubnetGroup", "shop", "net"), []);
});

test("a referrer deleted, or its reference changed, re-queues the group it named", () => {
  const instances = informerOf([]);
  const groups = informerOf([]);
  const index = new ReferrerIndex(
    new Map([
      ["DBInstance", instances],
      ["DBSubnetGroup", groups],
    ]),
    false,
    placedHere,
  );
  const groupController = controllerRecording();
  index.register("DBSubnetGroup", [], groupController.controller);
  index.register("DBInstance", refs, controllerRecording().controller);
  const [h] = instances.handlers;
  h?.onDelete?.(instance("shop", "db", { name: "net" }));
  h?.onUpdate?.(instance("shop", "db", { name: "old-net" }), instance("shop", "db", { name: "new-net" }));
  h?.onUpdate?.(instance("shop", "db", { name: "same" }), instance("shop", "db", { name: "same" }));
  assert.deepEqual(groupController.enqueued, ["shop/net", "shop/old-net"]);
});

const referrer = (name: string, over: Partial<ReferrerOf> = {}): ReferrerOf => ({
  kind: "DBInstance",
  key: `shop/${name}`,
  uid: `uid-${name}`,
  path: "spec.dbSubnetGroupRef",
  deleting: false,
  placement: here,
  ...over,
});
const used = (...names: string[]) => new Map(names.map((n) => [`uid-${n}`, here]));
const group = "DBSubnetGroup shop/net";

test("deletionInUse: names each referrer recorded as using it and the fix; unknown waits; none lets it go", () => {
  assert.equal(deletionInUse([], used(), group, here), null);
  assert.equal(deletionInUse(undefined, used(), group, here)?.reason, "ReferrersUnknown");
  assert.equal(deletionInUse([referrer("db")], undefined, group, here)?.reason, "ReferrersUnknown");
  const state = deletionInUse([referrer("db", { deleting: true })], used("db"), group, here);
  assert.equal(state?.kind, "recoverable");
  assert.equal(state?.reason, "ReferencedInUse");
  assert.match(
    state?.message ?? "",
    /DBSubnetGroup shop\/net is still referenced by DBInstance shop\/db \(spec\.dbSubnetGroupRef, being deleted\)/,
  );
  assert.match(state?.message ?? "", /delete those, or change their reference/);
  const many = Array.from({ length: 7 }, (_, i) => referrer(`db-${i}`));
  const allUsed = used(...many.map((_, i) => `db-${i}`));
  assert.match(deletionInUse(many, allUsed, group, here)?.message ?? "", /and 2 more/);
});

test("deletionInUse: a referrer holds only when the controller recorded its use here and its decision places it here now", () => {
  // No record of a use (it never reached AWS through the reference, whatever its status says).
  assert.equal(deletionInUse([referrer("db")], used(), group, here), null);
  // Recorded in another account or region than the group's.
  const elsewhere = new Map([["uid-db", { account: "222222222222", region: "us-east-1" }]]);
  assert.equal(deletionInUse([referrer("db")], elsewhere, group, here), null);
  const otherRegion = new Map([["uid-db", { account: "111111111111", region: "eu-west-1" }]]);
  assert.equal(deletionInUse([referrer("db")], otherRegion, group, here), null);
  // Recorded here, but its decision now places it nowhere (an identity that does not exist) ...
  assert.equal(deletionInUse([referrer("db", { placement: null })], used("db"), group, here), null);
  // ... or in another account, or region.
  const moved = { account: "222222222222", region: "us-east-1" };
  assert.equal(deletionInUse([referrer("db", { placement: moved })], used("db"), group, here), null);
  const movedRegion = { account: "111111111111", region: "eu-west-1" };
  assert.equal(deletionInUse([referrer("db", { placement: movedRegion })], used("db"), group, here), null);
  // Static keys: no account in the decision; the recorded one stands for it.
  const staticKeys = { account: null, region: "us-east-1" };
  assert.ok(deletionInUse([referrer("db", { placement: staticKeys })], used("db"), group, here));
  // Another referrer's record lends nothing: the uid must match.
  assert.equal(deletionInUse([referrer("db")], used("other"), group, here), null);
});

test("a kind crossrole does not reconcile (no controller) still names its referrers, so a deletion is not left unknown", () => {
  const instances = informerOf([instance("shop", "acks-db", { name: "net" })]);
  const index = new ReferrerIndex(new Map([["DBInstance", instances]]), false, placedHere);
  const groupController = controllerRecording();
  index.register("DBSubnetGroup", [], groupController.controller);
  assert.equal(
    index.referrersOf("DBSubnetGroup", "shop", "net"),
    undefined,
    "unknown until its references are",
  );
  index.register("DBInstance", refs, undefined);
  assert.deepEqual(
    index.referrersOf("DBSubnetGroup", "shop", "net")?.map((r) => r.key),
    ["shop/acks-db"],
  );
  // Its referrer going still wakes the group.
  const gone = instances.objects.splice(0, 1)[0];
  for (const h of instances.handlers) if (gone) h.onDelete?.(gone);
  assert.deepEqual(groupController.enqueued, ["shop/net"]);
  assert.deepEqual(index.referrersOf("DBSubnetGroup", "shop", "net"), []);
});
