import assert from "node:assert/strict";
import { test } from "node:test";
import type { Controller } from "../runtime/controller.ts";
import type { ReferenceField } from "../services/references.ts";
import type { ManagedObject } from "./reconcile/object-store.ts";
import { deletionInUse } from "./references.ts";
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
    metadata: { namespace, name, ...(deleting ? { deletionTimestamp: "2026-11-25T00:00:00Z" } : {}) },
    spec: from ? { dbSubnetGroupRef: { from } } : {},
    status,
  }) as ManagedObject;
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
  );
  index.register("DBInstance", refs, controllerRecording().controller);
  index.register("DBSubnetGroup", [], controllerRecording().controller);
  assert.deepEqual(index.referrersOf("DBSubnetGroup", "shop", "net"), [
    { kind: "DBInstance", key: "shop/db", path: "spec.dbSubnetGroupRef", deleting: false, inAws: true },
    { kind: "DBInstance", key: "shop/old", path: "spec.dbSubnetGroupRef", deleting: true, inAws: true },
  ]);
  assert.deepEqual(index.referrersOf("DBSubnetGroup", "shop", "unused"), []);

  const across = new ReferrerIndex(new Map([["DBInstance", instances]]), true);
  across.register("DBInstance", refs, controllerRecording().controller);
  assert.deepEqual(
    across.referrersOf("DBSubnetGroup", "shop", "net")?.map((r) => r.key),
    ["shop/db", "shop/old", "apps/across"],
  );
});

test("referrersOf fails closed: an unsynced informer, or a kind with objects whose controller is not loaded", () => {
  const instances = informerOf([instance("shop", "db", { name: "net" })], false);
  const index = new ReferrerIndex(new Map([["DBInstance", instances]]), false);
  assert.equal(index.referrersOf("DBSubnetGroup", "shop", "net"), undefined, "not registered, has objects");
  index.register("DBInstance", refs, controllerRecording().controller);
  assert.equal(index.referrersOf("DBSubnetGroup", "shop", "net"), undefined, "not synced");
  instances.synced = true;
  assert.equal(index.referrersOf("DBSubnetGroup", "shop", "net")?.length, 1);
  // A kind that is not loaded but has no objects references nothing.
  const empty = new ReferrerIndex(new Map([["DBInstance", informerOf([])]]), false);
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

test("deletionInUse: names each referrer and the fix; unknown waits; none lets the deletion go", () => {
  assert.equal(deletionInUse([], "DBSubnetGroup shop/net"), null);
  assert.equal(deletionInUse(undefined, "DBSubnetGroup shop/net")?.reason, "ReferrersUnknown");
  const state = deletionInUse(
    [{ kind: "DBInstance", key: "shop/db", path: "spec.dbSubnetGroupRef", deleting: true }],
    "DBSubnetGroup shop/net",
  );
  assert.equal(state?.kind, "recoverable");
  assert.equal(state?.reason, "ReferencedInUse");
  assert.match(
    state?.message ?? "",
    /DBSubnetGroup shop\/net is still referenced by DBInstance shop\/db \(spec\.dbSubnetGroupRef, being deleted\)/,
  );
  assert.match(state?.message ?? "", /delete those, or change their reference/);
  const many = Array.from({ length: 7 }, (_, i) => ({
    kind: "DBInstance",
    key: `shop/db-${i}`,
    path: "spec.dbSubnetGroupRef",
    deleting: false,
  }));
  assert.match(deletionInUse(many, "DBSubnetGroup shop/net")?.message ?? "", /and 2 more/);
});

test("a referrer decided into another account does not hold a deletion: its reference is refused anyway", () => {
  const instances = informerOf([
    instance("shop", "db", { name: "net" }),
    instance("apps", "across", { name: "net", namespace: "shop" }),
  ]);
  const accounts: Record<string, string | null> = { db: "111111111111", across: "222222222222" };
  const index = new ReferrerIndex(
    new Map([["DBInstance", instances]]),
    true,
    (o) => accounts[o.metadata.name] ?? null,
  );
  index.register("DBInstance", refs, controllerRecording().controller);
  const found = index.referrersOf("DBSubnetGroup", "shop", "net");
  assert.deepEqual(
    found?.map((r) => [r.key, r.account]),
    [
      ["shop/db", "111111111111"],
      ["apps/across", "222222222222"],
    ],
  );
  // The group in 111111111111: only shop/db holds it.
  assert.match(
    deletionInUse(found, "DBSubnetGroup shop/net", "111111111111")?.message ?? "",
    /by DBInstance shop\/db \(/,
  );
  assert.doesNotMatch(
    deletionInUse(found, "DBSubnetGroup shop/net", "111111111111")?.message ?? "",
    /apps\/across/,
  );
  // Only the other account's referrer left: the deletion goes.
  assert.equal(deletionInUse(found?.slice(1), "DBSubnetGroup shop/net", "111111111111"), null);
  // An account not known (static keys, on either side): it counts.
  assert.ok(deletionInUse([{ ...found![1]!, account: null }], "DBSubnetGroup shop/net", "111111111111"));
  assert.ok(deletionInUse(found?.slice(1), "DBSubnetGroup shop/net", null));
});

test("a referrer that never reached AWS does not hold a deletion: it waits on the group, which would wait on it", () => {
  const instances = informerOf([
    // Applied while the group was being deleted: no ARN, no create intent.
    instance("shop", "late", { name: "net" }, false, { conditions: [] }),
    // Its create may be in flight: a create intent in status.
    instance("shop", "creating", { name: "net" }, false, { intent: { action: "create" } }),
  ]);
  const index = new ReferrerIndex(new Map([["DBInstance", instances]]), false);
  index.register("DBInstance", refs, controllerRecording().controller);
  const found = index.referrersOf("DBSubnetGroup", "shop", "net");
  assert.deepEqual(
    found?.map((r) => [r.key, r.inAws]),
    [
      ["shop/late", false],
      ["shop/creating", true],
    ],
  );
  const message = deletionInUse(found, "DBSubnetGroup shop/net")?.message ?? "";
  assert.match(message, /by DBInstance shop\/creating \(/);
  assert.doesNotMatch(message, /shop\/late/);
  instances.objects.splice(1, 1);
  assert.equal(
    deletionInUse(index.referrersOf("DBSubnetGroup", "shop", "net"), "DBSubnetGroup shop/net"),
    null,
  );
});

test("a kind crossrole does not reconcile (no controller) still names its referrers, so a deletion is not left unknown", () => {
  const instances = informerOf([instance("shop", "acks-db", { name: "net" })]);
  const index = new ReferrerIndex(new Map([["DBInstance", instances]]), false);
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
