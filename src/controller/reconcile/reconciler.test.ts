// The reconciler's orchestration, in process: the steps in their order over an in-memory object
// store (test/support/memory-object-store.ts, the apiserver's rules) and a fake service module whose "AWS" is a map.
// What each path writes, calls and says: create (intent before action), update, delete, a forged
// or absent intent, a failure as conditions, a create whose object went away. The steps' pure
// decisions have their own tests (reconcile-plan, create-intent, ownership, ack-conditions).
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import pino from "pino";
import { MemoryObjectStore } from "../../../test/support/memory-object-store.ts";
import { namespace, settingsWith } from "../../../test/support/resolver-fixtures.ts";
import { resourceAnnotations } from "../../api/annotations.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import { ownershipTagKeys } from "../../api/ownership-tags.ts";
import type { CredentialService } from "../../credentials/service.ts";
import { resolve } from "../../resolver/resolve.ts";
import { buildSnapshot } from "../../resolver/snapshot.ts";
import type { Condition } from "../../runtime/conditions.ts";
import { isTerminalError } from "../../runtime/reconcile.ts";
import type { Observation, ServiceModule } from "../../services/service-module.ts";
import { controllerKeyFrom } from "../controller-key.ts";
import { intentAnnotation, sealIntent } from "../create-intent.ts";
import { DecisionMemo } from "../decision-memo.ts";
import { DecisionTracker } from "../decision-tracker.ts";
import { resourceTypeOf } from "../resource-controller.ts";
import { SelfWrites } from "../self-writes.ts";
import { finalizerFor } from "./env.ts";
import type { ManagedObject } from "./object-store.ts";
import { createResourceReconciler } from "./reconciler.ts";

// ---- a fake AWS service: Widgets, a name, a size AWS defaults to 1, tags ----

interface WidgetSpec {
  readonly name: string;
  readonly size?: number;
}

interface Widget {
  readonly name: string;
  size: number;
  tags: Record<string, string>;
  readonly region: string;
  readonly createdAt: Date;
}

/** An AWS error: `status` 4xx is a refusal (nothing made), 5xx proves nothing. */
class FakeAwsError extends Error {
  readonly $metadata: { httpStatusCode: number };
  readonly terminal: boolean;
  constructor(message: string, status: number, terminal = false) {
    super(message);
    this.$metadata = { httpStatusCode: status };
    this.terminal = terminal;
  }
}

type Call = "read" | "create" | "update" | "claim" | "delete" | "createdAt";

class FakeCloud {
  readonly widgets = new Map<string, Widget>();
  readonly calls: Call[] = [];
  /** Runs at a call, before it does anything: a test makes it fail or makes the world change. */
  readonly before = new Map<Call, () => void>();
  /** Whether create applies the tags it is sent (an emulator's CreateBucket does not). */
  tagsOnCreate = true;
  /** Whether create applies the spec's size (S3's CreateBucket carries no versioning). */
  sizeOnCreate = true;
  now = () => new Date(0);

  call(c: Call): void {
    this.calls.push(c);
    const hook = this.before.get(c);
    this.before.delete(c);
    hook?.();
  }
}

const widgetKind: ResourceKind = {
  group: "fake.services.k8s.aws",
  version: "v1alpha1",
  kind: "Widget",
  plural: "widgets",
  singular: "widget",
  service: "fake",
};

const observedOf = (w: Widget): Widget => ({ ...w, tags: { ...w.tags } });

function fakeModule(cloud: FakeCloud): ServiceModule<WidgetSpec, Widget, FakeCloud> {
  return {
    kind: widgetKind,
    parseSpec(spec) {
      const s = spec as Partial<WidgetSpec> | undefined;
      if (typeof s?.name !== "string" || s.name === "") return { ok: false, message: "spec.name: Required" };
      if (s.size !== undefined && typeof s.size !== "number") {
        return { ok: false, message: "spec.size: expected a number" };
      }
      return { ok: true, value: { name: s.name, ...(s.size === undefined ? {} : { size: s.size }) } };
    },
    parseStatus: (status) => ({ ok: true, value: status }),
    client: async () => cloud,
    identifier: (spec) => spec.name,
    identifierField: "spec.name",
    async read(c, spec): Promise<Observation<Widget>> {
      c.call("read");
      const w = c.widgets.get(spec.name);
      return w ? { found: true, observed: observedOf(w) } : { found: false };
    },
    tagsOf: (observed) => observed.tags,
    async createdAt(c, spec) {
      c.call("createdAt");
      return c.widgets.get(spec.name)?.createdAt;
    },
    async create(c, spec, region, ownerTags) {
      c.call("create");
      if (c.widgets.has(spec.name)) return { created: false };
      c.widgets.set(spec.name, {
        name: spec.name,
        size: c.sizeOnCreate ? (spec.size ?? 1) : 1,
        tags: c.tagsOnCreate ? { ...ownerTags } : {},
        region,
        createdAt: c.now(),
      });
      return { created: true, status: {} };
    },
    async update(c, desired, observed, ownerTags) {
      c.call("update");
      const w = c.widgets.get(desired.name);
      if (!w) throw new FakeAwsError("no such widget", 404, true);
      const changed = desired.size !== undefined && desired.size !== observed.size ? ["spec.size"] : [];
      if (desired.size !== undefined) w.size = desired.size;
      w.tags = { ...w.tags, ...ownerTags };
      return changed;
    },
    async claim(c, observed, ownerTags) {
      c.call("claim");
      const w = c.widgets.get(observed.name);
      if (w) w.tags = { ...w.tags, ...ownerTags };
    },
    async delete(c, spec) {
      c.call("delete");
      return c.widgets.delete(spec.name) ? "deleted" : "not-found";
    },
    diff: (desired, observed) =>
      desired.size !== undefined && desired.size !== observed.size ? ["spec.size"] : [],
    lateInitialize: (spec, observed) =>
      spec.size === undefined
        ? { spec: { ...spec, size: observed.size }, initialized: ["spec.size"] }
        : { spec, initialized: [] },
    specFromObserved: (observed) => ({ name: observed.name, size: observed.size }),
    arn: (spec, region, account) => `arn:aws:fake:${region}:${account}:widget/${spec.name}`,
    observedRegion: (observed) => observed.region,
    isTerminal: (err) => err instanceof FakeAwsError && err.terminal,
    describeError: (err) => `Widget call failed: ${err instanceof Error ? err.message : String(err)}`,
  };
}

// ---- the reconciler over them ----

const ns = "shop";
const account = "999999999999";
const region = "eu-west-1";
const settings = settingsWith({ defaultRegion: region, controllerAccount: account });
const resourceType = resourceTypeOf(widgetKind);
const finalizer = finalizerFor(resourceType);
const key = controllerKeyFrom(Buffer.alloc(32, 7));
const start = new Date("2026-03-01T10:00:00Z");

function widgetObject(name: string, spec: Record<string, unknown>, extra: Partial<ManagedObject> = {}) {
  return {
    apiVersion: "fake.services.k8s.aws/v1alpha1",
    kind: "Widget",
    metadata: { name, namespace: ns, ...extra.metadata },
    spec,
    ...(extra.status ? { status: extra.status } : {}),
  } as ManagedObject;
}

function setup() {
  const store = new MemoryObjectStore(resourceType);
  const cloud = new FakeCloud();
  let clock = start;
  cloud.now = () => clock;
  let resolutions = 0;
  const decisions = new DecisionMemo(settings, (...args) => {
    resolutions += 1;
    return resolve(...args);
  });
  const snapshot = buildSnapshot({ namespaces: [namespace(ns)] }, settings);
  const reconcile = createResourceReconciler({
    module: fakeModule(cloud),
    resourceType,
    store,
    config: { snapshot: () => snapshot, namespaceAnnotations: () => ({}) },
    credentials: {} as CredentialService,
    tracker: new DecisionTracker("Widget", pino({ level: "silent" })),
    settings,
    decisions,
    deletionPolicy: "delete",
    logger: pino({ level: "silent" }),
    selfWrites: new SelfWrites(),
    controllerKey: { get: async () => key },
    now: () => clock,
  });
  return {
    store,
    cloud,
    reconcile: (name: string, namespace = ns) => reconcile({ namespace, name, key: `${namespace}/${name}` }),
    stored: (name: string) => store.stored(ns, name),
    resolutions: () => resolutions,
    advance(ms: number) {
      clock = new Date(clock.getTime() + ms);
    },
    reasons: () => store.events.map((e) => e.reason),
  };
}

type Setup = ReturnType<typeof setup>;

function condition(obj: ManagedObject | undefined, type: string): Condition | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}

/** A Widget created and synced, and the setup around it. */
async function synced(name = "w1"): Promise<Setup> {
  const s = setup();
  s.store.apply(widgetObject(name, { name }));
  assert.deepEqual(await s.reconcile(name), {});
  return s;
}

/** The create intent an object records (its annotation), parsed. */
const intentOf = (obj: ManagedObject | undefined): { name?: string; mac?: string } | undefined => {
  const text = obj?.metadata.annotations?.[intentAnnotation];
  return text === undefined ? undefined : (JSON.parse(text) as { name?: string; mac?: string });
};

describe("the reconciler's orchestration (in-memory store, fake module)", () => {
  let s: Setup;
  beforeEach(() => {
    s = setup();
  });

  test("create: finalizer, intent recorded before the create, tagged object, late-initialised spec, Synced", async () => {
    s.store.apply(widgetObject("w1", { name: "w1" }));
    const uid = s.stored("w1")?.metadata.uid;
    // Intent before action: when AWS is asked to create, the object already records the sealed
    // intent, written with the finalizer.
    s.cloud.before.set("create", () => {
      const intent = intentOf(s.stored("w1"));
      assert.equal(intent?.name, "w1");
      assert.ok(intent?.mac, "sealed with the controller's key");
      assert.ok(s.stored("w1")?.metadata.finalizers?.includes(finalizer), "finalizer before the create");
    });

    assert.deepEqual(await s.reconcile("w1"), {});

    assert.deepEqual(s.cloud.calls, ["read", "create", "read"]);
    const w = s.cloud.widgets.get("w1");
    assert.equal(w?.tags[ownershipTagKeys.ownerUid], uid, "created with the ownership tags");
    const obj = s.stored("w1");
    assert.equal(obj?.spec?.["size"], 1, "AWS's default late-initialised into the spec");
    assert.equal(obj?.metadata.generation, 2);
    assert.equal(intentOf(obj), undefined, "the intent is cleared once Synced (with the spec write)");
    assert.equal(condition(obj, "ACK.ResourceSynced")?.status, "True");
    assert.equal(condition(obj, "ACK.ResourceSynced")?.observedGeneration, 2);
    assert.equal(condition(obj, "Ready")?.status, "True");
    assert.deepEqual(obj?.status?.ackResourceMetadata, {
      arn: `arn:aws:fake:${region}:${account}:widget/w1`,
      ownerAccountID: account,
      region,
      partition: "aws",
      // roleARN and sessionName are null: a merge patch removes them, as the apiserver does.
      identity: { source: "default" },
    });
    // One Event for a new resource: the create's, saying the identity it was made with.
    assert.deepEqual(s.reasons(), ["Created"]);
    assert.match(
      s.store.events[0]?.message ?? "",
      /^Created arn:aws:fake:\S+ in account \d{12} \(\S+\)\. Using the controller's own credentials \(default: AWSControllerIdentity default\) in account/,
    );
    assert.deepEqual(
      s.store.writes.map((x) => x.what),
      ["metadata", "spec", "status"],
      "finalizer and intent in one write, late-initialised spec (clearing the intent), Synced",
    );
  });

  test("a resync of a synced object reads, writes nothing; a decision is made again only when its inputs changed", async () => {
    s = await synced();
    const writes = s.store.writes.length;
    const resolved = s.resolutions();
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.deepEqual(s.cloud.calls.slice(3), ["read", "read"]);
    assert.equal(s.store.writes.length, writes, "nothing changed: no status write");
    // The resolver reads status.ackResourceMetadata (where the object was placed), which the
    // first reconcile recorded: decided once more for it, and not for the second resync.
    assert.equal(s.resolutions(), resolved + 1);
    // A spec change the resolver does not read (nor the status writes that follow): not again.
    const obj = s.stored("w1");
    assert.ok(obj);
    s.store.apply({ ...obj, spec: { name: "w1", size: 3 } });
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(s.resolutions(), resolved + 1);
    assert.deepEqual(s.reasons(), ["Created", "Updated"], "the same decision is not announced again");
  });

  test("a create call that does not apply its tags: tagged at once, said without fault wording", async () => {
    s.cloud.tagsOnCreate = false;
    s.store.apply(widgetObject("w1", { name: "w1" }));
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(s.cloud.widgets.get("w1")?.tags[ownershipTagKeys.ownerUid], s.stored("w1")?.metadata.uid);
    assert.deepEqual(s.reasons(), ["Created", "Tagged"]);
    assert.doesNotMatch(s.store.events.at(-1)?.message ?? "", /interrupted/);
    assert.equal(condition(s.stored("w1"), "ACK.ResourceSynced")?.status, "True");
  });

  test("a misspelt annotation key is a Warning naming the key it meant, said once", async () => {
    s.store.apply(
      widgetObject(
        "w1",
        { name: "w1" },
        {
          metadata: {
            name: "w1",
            namespace: ns,
            annotations: { "services.k8s.aws/deletion-polcy": "retain" },
          },
        },
      ),
    );
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.deepEqual(await s.reconcile("w1"), {});
    const unknown = s.store.events.filter((e) => e.reason === "UnknownAnnotation");
    assert.deepEqual(
      unknown.map((e) => [e.type, e.message]),
      [
        [
          "Warning",
          'annotation "services.k8s.aws/deletion-polcy" is not one crossrole reads, so it changes nothing. Did you mean "services.k8s.aws/deletion-policy"?',
        ],
      ],
    );
  });

  test("what the create call cannot carry is applied at once, said by the Created Event alone", async () => {
    s.cloud.sizeOnCreate = false;
    s.store.apply(widgetObject("w1", { name: "w1", size: 3 }));
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(s.cloud.widgets.get("w1")?.size, 3, "applied in the same reconcile");
    assert.deepEqual(
      s.cloud.calls.filter((c) => c === "create" || c === "update"),
      ["create", "update"],
    );
    assert.deepEqual(s.reasons(), ["Created"], "no 'brought back to the desired state' after its own create");
    // A later change is drift, and is said so.
    s.cloud.widgets.set("w1", { ...(s.cloud.widgets.get("w1") as Widget), size: 1 });
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.deepEqual(s.reasons(), ["Created", "Updated"]);
  });

  test("update: a spec change, and a change made in AWS out of band, are brought to the spec", async () => {
    s = await synced();
    const obj = s.stored("w1");
    assert.ok(obj);
    s.store.apply({ ...obj, spec: { name: "w1", size: 5 } });
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(s.cloud.widgets.get("w1")?.size, 5);
    assert.equal(s.store.events.at(-1)?.message, "Brought spec.size back to the desired state");

    const w = s.cloud.widgets.get("w1");
    assert.ok(w);
    w.size = 9;
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(w.size, 5);
    assert.deepEqual(s.cloud.calls.slice(-3), ["read", "update", "read"]);
    const after = s.stored("w1");
    assert.equal(condition(after, "ACK.ResourceSynced")?.status, "True");
    assert.equal(condition(after, "ACK.ResourceSynced")?.observedGeneration, 3);
  });

  test("delete: what is ours is deleted in AWS, then the finalizer goes and so does the object", async () => {
    s = await synced();
    s.store.delete(ns, "w1");
    assert.ok(s.stored("w1")?.metadata.deletionTimestamp, "held by the finalizer");
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(s.cloud.widgets.has("w1"), false);
    assert.equal(s.stored("w1"), undefined, "released");
    assert.equal(
      s.store.events.at(-1)?.message,
      `Deleted arn:aws:fake:${region}:${account}:widget/w1 in account ${account}`,
    );
    // The object is gone from the cache too: nothing left to do.
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.deepEqual(s.cloud.calls.slice(-2), ["read", "delete"]);
  });

  test("delete with deletion policy retain: AWS is left alone, the object is let go", async () => {
    s = await synced();
    const obj = s.stored("w1");
    assert.ok(obj);
    s.store.apply({
      ...obj,
      metadata: { ...obj.metadata, annotations: { [resourceAnnotations.deletionPolicy]: "retain" } },
    });
    s.store.delete(ns, "w1");
    const calls = s.cloud.calls.length;
    assert.deepEqual(await s.reconcile("w1"), {});
    assert.equal(s.cloud.calls.length, calls, "no AWS call at all");
    assert.ok(s.cloud.widgets.has("w1"));
    assert.equal(s.stored("w1"), undefined);
    assert.equal(s.store.events.at(-1)?.reason, "Retained");
  });

  test("no intent and an untagged object under the name: AlreadyExists, nothing claimed, created or deleted", async () => {
    s.cloud.widgets.set("w2", { name: "w2", size: 3, tags: {}, region, createdAt: start });
    s.store.apply(widgetObject("w2", { name: "w2" }));
    await assert.rejects(s.reconcile("w2"), (err) => isTerminalError(err));
    const terminal = condition(s.stored("w2"), "ACK.Terminal");
    assert.equal(terminal?.reason, "AlreadyExists");
    assert.doesNotMatch(terminal?.message ?? "", /ignored/);
    assert.deepEqual(s.cloud.calls, ["read"]);
    assert.deepEqual(s.cloud.widgets.get("w2")?.tags, {});
    // Nothing was created: the identity is said in an Event of its own, at the reconcile's end.
    assert.deepEqual(s.reasons(), ["IdentitySelected", "AlreadyExists"]);
  });

  test("a forged intent (not sealed by the controller's key) makes an untagged object neither ours to claim nor to delete", async () => {
    s.cloud.widgets.set("w2", { name: "w2", size: 3, tags: {}, region, createdAt: start });
    // Everything right (object, name, account, region, time) but the key it is sealed with.
    const otherKey = controllerKeyFrom(Buffer.alloc(32, 9));
    const forged = sealIntent(otherKey, ownerOf("w2"), { name: "w2", account, region }, start);
    s.store.apply(
      widgetObject(
        "w2",
        { name: "w2" },
        { metadata: { name: "w2", uid: "uid-w2" }, status: { intent: forged } },
      ),
    );
    await assert.rejects(s.reconcile("w2"), (err) => isTerminalError(err));
    const terminal = condition(s.stored("w2"), "ACK.Terminal");
    assert.equal(terminal?.reason, "AlreadyExists");
    assert.match(
      terminal?.message ?? "",
      /status\.intent is not sealed by this controller's key.*it was ignored/,
    );
    assert.deepEqual(s.cloud.widgets.get("w2")?.tags, {}, "not tagged");

    s.store.delete(ns, "w2");
    assert.deepEqual(await s.reconcile("w2"), {});
    assert.ok(s.cloud.widgets.has("w2"), "not deleted");
    assert.equal(s.store.events.at(-1)?.reason, "Retained");
    assert.equal(s.stored("w2"), undefined, "let go");
  });

  test("a verified intent for another account than decided now is account drift: nothing is created here", async () => {
    // The decision moved after the intent was recorded (and before anything confirmed it): the
    // create may have landed in the intent's account, so this is where the object may be.
    const intent = sealIntent(key, ownerOf("w7"), { name: "w7", account: "111111111111", region }, start);
    s.store.apply(
      widgetObject(
        "w7",
        { name: "w7" },
        {
          metadata: {
            name: "w7",
            uid: "uid-w7",
            annotations: { [intentAnnotation]: JSON.stringify(intent) },
          },
        },
      ),
    );
    await assert.rejects(s.reconcile("w7"), (err) => isTerminalError(err));
    const terminal = condition(s.stored("w7"), "ACK.Terminal");
    assert.equal(terminal?.reason, "AccountDrift");
    assert.match(
      terminal?.message ?? "",
      new RegExp(`already exists in account 111111111111, .* in account ${account}`),
    );
    assert.deepEqual(s.cloud.calls, [], "nothing read or created where it was not asked for");
  });

  test("a create AWS did not answer: no second create while it may land; once it lands untagged, it is finished", async () => {
    s.store.apply(widgetObject("w3", { name: "w3" }));
    // The call times out (a 5xx proves nothing): the intent stays.
    s.cloud.before.set("create", () => {
      throw new FakeAwsError("request timed out", 503);
    });
    await assert.rejects(s.reconcile("w3"), (err) => !isTerminalError(err));
    assert.equal(condition(s.stored("w3"), "ACK.Recoverable")?.reason, "AWSError");
    assert.ok(intentOf(s.stored("w3")), "the intent stays: the create may still land");

    s.advance(10_000);
    const result = await s.reconcile("w3");
    assert.ok(result.requeueAfter !== undefined && result.requeueAfter <= 2_000, "looks again soon");
    assert.equal(condition(s.stored("w3"), "ACK.ResourceSynced")?.reason, "CreatePending");
    assert.deepEqual(s.cloud.calls, ["read", "create", "read"], "no second create");

    // It lands, made by that create, before its tags were written.
    s.cloud.widgets.set("w3", {
      name: "w3",
      size: 1,
      tags: {},
      region,
      createdAt: new Date(start.getTime() + 1_000),
    });
    assert.deepEqual(await s.reconcile("w3"), {});
    assert.equal(s.cloud.widgets.get("w3")?.tags[ownershipTagKeys.ownerUid], s.stored("w3")?.metadata.uid);
    assert.ok(s.reasons().includes("CreateCompleted"));
    assert.equal(condition(s.stored("w3"), "ACK.ResourceSynced")?.status, "True");
  });

  test("a deletion while this object's create may still land waits (DeletePending), then lets go once the window closes", async () => {
    s.store.apply(widgetObject("w4", { name: "w4" }));
    s.cloud.before.set("create", () => {
      throw new FakeAwsError("request timed out", 503);
    });
    await assert.rejects(s.reconcile("w4"));
    s.store.delete(ns, "w4");
    const result = await s.reconcile("w4");
    assert.ok(result.requeueAfter !== undefined);
    assert.equal(condition(s.stored("w4"), "ACK.ResourceSynced")?.reason, "DeletePending");
    assert.ok(s.stored("w4"), "held");
    s.advance(2 * 60_000 + 1);
    assert.deepEqual(await s.reconcile("w4"), {});
    assert.equal(s.stored("w4"), undefined, "released once the window has closed");
  });

  test("failures become conditions and Events: a refused create is Terminal and clears its intent; an invalid spec; an AWS error on update backs off", async () => {
    s.store.apply(widgetObject("w5", { name: "w5" }));
    s.cloud.before.set("create", () => {
      throw new FakeAwsError("size 0 is not allowed", 400, true);
    });
    await assert.rejects(s.reconcile("w5"), (err) => isTerminalError(err));
    let obj = s.stored("w5");
    assert.equal(condition(obj, "ACK.Terminal")?.status, "True");
    assert.equal(condition(obj, "ACK.Terminal")?.message, "Widget call failed: size 0 is not allowed");
    assert.equal(condition(obj, "Ready")?.status, "False");
    assert.equal(intentOf(obj), undefined, "nothing was made: the intent is settled");
    assert.deepEqual(s.store.events.at(-1), {
      object: `${ns}/w5`,
      type: "Warning",
      reason: "AWSError",
      message: "Widget call failed: size 0 is not allowed",
    });

    s.store.apply(widgetObject("w6", { size: 2 }));
    await assert.rejects(s.reconcile("w6"), (err) => isTerminalError(err));
    assert.equal(condition(s.stored("w6"), "ACK.Terminal")?.reason, "InvalidSpec");
    assert.equal(s.stored("w6")?.metadata.finalizers, undefined, "no finalizer for what never reaches AWS");

    s = await synced("w7");
    const synced7 = s.stored("w7");
    assert.ok(synced7);
    s.store.apply({ ...synced7, spec: { name: "w7", size: 4 } });
    s.cloud.before.set("update", () => {
      throw new FakeAwsError("internal error", 500);
    });
    await assert.rejects(s.reconcile("w7"), (err) => !isTerminalError(err));
    obj = s.stored("w7");
    assert.equal(condition(obj, "ACK.Recoverable")?.reason, "AWSError");
    assert.equal(condition(obj, "ACK.ResourceSynced")?.status, "False");
    // The next attempt succeeds: the failure's condition goes.
    assert.deepEqual(await s.reconcile("w7"), {});
    obj = s.stored("w7");
    assert.equal(condition(obj, "ACK.Recoverable"), undefined);
    assert.equal(condition(obj, "ACK.ResourceSynced")?.status, "True");
  });

  test("the object released by someone else while its create was in flight: what the create made is deleted", async () => {
    s.store.apply(widgetObject("w8", { name: "w8" }));
    s.cloud.before.set("create", () => {
      // Another controller drops every finalizer of the deleted object: the apiserver removes it.
      const obj = s.stored("w8");
      assert.ok(obj);
      s.store.apply({ ...obj, metadata: { ...obj.metadata, finalizers: [] } });
      s.store.delete(ns, "w8");
    });
    assert.deepEqual(await s.reconcile("w8"), {});
    assert.equal(s.stored("w8"), undefined);
    assert.equal(s.cloud.widgets.has("w8"), false, "what the create made is gone too");
    // Read before the create, after it, and once more before the delete.
    assert.deepEqual(s.cloud.calls, ["read", "create", "read", "read", "delete"]);
  });

  test("a decision that cannot act (the namespace is not known) calls nothing in AWS, says why and waits", async () => {
    s.store.apply({
      ...widgetObject("w9", { name: "w9" }),
      metadata: { name: "w9", namespace: "elsewhere" },
    });
    assert.deepEqual(await s.reconcile("w9", "elsewhere"), { requeueAfter: 15_000 });
    const recoverable = condition(s.store.stored("elsewhere", "w9"), "ACK.Recoverable");
    assert.match(recoverable?.message ?? "", /Namespace elsewhere .* is not known/);
    assert.deepEqual(s.cloud.calls, []);
    assert.equal(s.store.stored("elsewhere", "w9")?.metadata.finalizers, undefined);
  });
});

function ownerOf(name: string) {
  return { kind: "Widget", namespace: ns, name, uid: `uid-${name}` };
}

describe("adoption without a spec (ACK's adoption-fields)", () => {
  const adopting = (name: string, fields: Record<string, string> | null = { name }) => {
    const obj = widgetObject(
      name,
      {},
      {
        metadata: {
          name,
          namespace: ns,
          annotations: {
            [resourceAnnotations.adoptionPolicy]: "adopt-or-create",
            ...(fields === null ? {} : { [resourceAnnotations.adoptionFields]: JSON.stringify(fields) }),
          },
        },
      },
    );
    delete (obj as { spec?: unknown }).spec;
    return obj;
  };
  const untagged = (cloud: FakeCloud, name: string, tags: Record<string, string> = { team: "data" }) =>
    cloud.widgets.set(name, { name, size: 4, tags, region, createdAt: start });

  test("the object the fields name is adopted as it is: tagged as this object's, AWS's configuration becomes the spec", async () => {
    const s = setup();
    untagged(s.cloud, "old");
    s.store.apply(adopting("old"));
    assert.deepEqual(await s.reconcile("old"), {});
    assert.deepEqual(s.cloud.calls, ["read", "claim"], "nothing created; no update towards a seed");
    const obj = s.stored("old");
    assert.deepEqual(obj?.spec, { name: "old", size: 4 }, "the spec is AWS's");
    assert.equal(s.cloud.widgets.get("old")?.tags[ownershipTagKeys.ownerUid], obj?.metadata.uid);
    assert.equal(s.cloud.widgets.get("old")?.size, 4, "AWS unchanged");
    assert.equal(condition(obj, "ACK.ResourceSynced")?.status, "True");
    assert.ok(s.reasons().includes("Adopted"));
  });

  test("already tagged as this object's (the spec write did not happen): adopted again, never updated to the seed", async () => {
    const s = setup();
    s.store.apply(adopting("mine"));
    const uid = s.stored("mine")?.metadata.uid ?? "";
    untagged(s.cloud, "mine", {
      [ownershipTagKeys.ownerUid]: uid,
      [ownershipTagKeys.namespace]: ns,
    });
    assert.deepEqual(await s.reconcile("mine"), {});
    assert.ok(!s.cloud.calls.includes("create"));
    assert.deepEqual(s.stored("mine")?.spec, { name: "mine", size: 4 });
  });

  test("nothing under the name: not created (adopt-or-create has no spec to create from); the condition says why", async () => {
    const s = setup();
    s.store.apply(adopting("absent"));
    await s.reconcile("absent").catch(() => undefined);
    assert.deepEqual(s.cloud.calls, ["read"]);
    const c = condition(s.stored("absent"), "ACK.Recoverable");
    assert.equal(c?.reason, "NotFound");
    assert.match(c?.message ?? "", /no spec, only services\.k8s\.aws\/adoption-fields/);
  });

  test("another object's widget: refused, untouched", async () => {
    const s = setup();
    untagged(s.cloud, "theirs", {
      [ownershipTagKeys.ownerUid]: "someone-else",
      [ownershipTagKeys.namespace]: "other",
    });
    s.store.apply(adopting("theirs"));
    await s.reconcile("theirs").catch(() => undefined);
    assert.deepEqual(s.cloud.calls, ["read"]);
    assert.equal(condition(s.stored("theirs"), "ACK.Terminal")?.reason, "NameTaken");
    assert.equal(s.cloud.widgets.get("theirs")?.tags[ownershipTagKeys.ownerUid], "someone-else");
  });

  test("no spec and no adoption fields, or fields that name nothing: Terminal naming the annotations, nothing in AWS", async () => {
    const s = setup();
    s.store.apply(adopting("bare", null));
    await s.reconcile("bare").catch(() => undefined);
    const bare = condition(s.stored("bare"), "ACK.Terminal");
    assert.equal(bare?.reason, "InvalidSpec");
    assert.match(
      bare?.message ?? "",
      /has no spec: give it one, or adopt .* services\.k8s\.aws\/adoption-fields: \{"name"/,
    );

    s.store.apply(adopting("wrongkey", { bucket: "x" }));
    await s.reconcile("wrongkey").catch(() => undefined);
    assert.match(
      condition(s.stored("wrongkey"), "ACK.Terminal")?.message ?? "",
      /names no name \(it has bucket\)/,
    );
    assert.deepEqual(s.cloud.calls, []);
  });
});
