// One resource under one configuration snapshot is resolved once, however many parts of the
// controller ask and however often its status changes: the identity usage and selector match
// trackers and the reconciler (here, a direct decide) share one memo, and a resolver that counts
// its calls says how often it ran.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setImmediate as tick } from "node:timers/promises";
import { namespace, selector, selectorMode } from "../../test/support/resolver-fixtures.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ConfigObjects } from "../resolver/types.ts";
import type { Informer, InformerHandler } from "../runtime/informer.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { DecisionMemo, type Resolver } from "./decision-memo.ts";
import { SelectorMatchTracker } from "./selector-match-tracker.ts";
import { UsageTracker } from "./usage-tracker.ts";

const settings = selectorMode;

function countingResolver(): { resolver: Resolver; calls: () => number } {
  let n = 0;
  return {
    resolver: (...args) => {
      n += 1;
      return resolve(...args);
    },
    calls: () => n,
  };
}

const bucket = (name: string, version = 1, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: "s3.services.k8s.aws/v1alpha1",
  kind: "Bucket",
  metadata: { name, namespace: "shop", uid: `uid-${name}`, resourceVersion: `${version}`, labels },
  spec: { name },
  status: { conditions: [{ type: "Ready", status: "True", reason: `v${version}` }] },
});

const configWith = (selectorRv: string): ConfigObjects => ({
  namespaces: [namespace("shop")],
  iamRoleSelectors: [
    selector(
      "shop-role",
      { arn: "arn:aws:iam::111111111111:role/shop", namespaceSelector: { names: ["shop"] } },
      selectorRv,
    ),
  ],
});

class StubInformer {
  readonly name = "buckets";
  readonly synced = true;
  readonly objects = new Map<string, KubeObject>();
  readonly handlers: InformerHandler[] = [];
  hasSynced = () => this.synced;
  waitForSync = async () => true;
  list = () => [...this.objects.values()];
  get = (_ns: string, name: string) => this.objects.get(name);
  addHandler(h: InformerHandler) {
    this.handlers.push(h);
    for (const o of this.list()) h.onAdd?.(o);
    return () => {};
  }
  put(o: KubeObject) {
    const old = this.objects.get(o.metadata.name);
    this.objects.set(o.metadata.name, o);
    for (const h of this.handlers) old ? h.onUpdate?.(old, o) : h.onAdd?.(o);
  }
}

class StubConfig {
  readonly name = "config";
  #snapshot: Snapshot;
  readonly #listeners: (() => void)[] = [];
  constructor(objects: ConfigObjects) {
    this.#snapshot = buildSnapshot(objects, settings);
  }
  hasSynced = () => true;
  waitForSync = async () => true;
  snapshot = () => this.#snapshot;
  onChange(l: () => void) {
    this.#listeners.push(l);
    return () => {};
  }
  change(objects: ConfigObjects) {
    this.#snapshot = buildSnapshot(objects, settings);
    for (const l of this.#listeners) l();
  }
}

describe("DecisionMemo", () => {
  test("resolves a resource once per snapshot, and again for a new snapshot or for a change to what the resolver reads", () => {
    const { resolver, calls } = countingResolver();
    const memo = new DecisionMemo(settings, resolver);
    const config = new StubConfig(configWith("1"));
    const a = bucket("a");
    const first = memo.decide(a, config.snapshot());
    assert.equal(memo.decide(a, config.snapshot()), first, "the same Decision, not an equal one");
    assert.equal(calls(), 1);
    // Kept without its trace (the controller never reads one); the rest is the resolver's.
    const resolved = resolve(a as never, "shop", config.snapshot(), settings);
    assert.ok(resolved.trace.length > 0);
    assert.deepEqual(first, { ...resolved, trace: [] });
    assert.equal(first.outcome, "use");
    assert.equal(first.selector?.name, "shop-role");

    config.change(configWith("2"));
    assert.equal(memo.decide(a, config.snapshot()).selector?.resourceVersion, "2");
    assert.equal(calls(), 2, "a new snapshot decides again");

    const a2 = bucket("a", 2);
    assert.equal(memo.decide(a2, config.snapshot()), memo.decide(a, config.snapshot()));
    assert.equal(
      calls(),
      2,
      "a new version that changed nothing the resolver reads (status): the same Decision",
    );

    memo.decide(bucket("a", 3, { team: "blue" }), config.snapshot());
    assert.equal(calls(), 3, "a new version whose labels changed: decided again");
  });

  test("the trackers and the reconciler share it: each resource is resolved once per snapshot", async () => {
    const { resolver, calls } = countingResolver();
    const decisions = new DecisionMemo(settings, resolver);
    const informer = new StubInformer();
    for (const name of ["a", "b", "c"]) informer.put(bucket(name));
    const config = new StubConfig(configWith("1"));
    const resources = [{ kind: "Bucket", informer: informer as unknown as Informer }];
    const usage = new UsageTracker({ config, resources, settings, decisions });
    const matches = new SelectorMatchTracker({ config, resources, settings, decisions });
    // What the resource controller (re-queue on a change) and the reconciler ask.
    const reconcileAll = () => {
      for (const obj of informer.list()) decisions.decide(obj, config.snapshot());
    };

    await tick();
    // The selector's role is assumed from the controller's own identity.
    assert.equal(usage.current()?.count("AWSControllerIdentity/default"), 3);
    assert.equal(matches.count("shop-role"), 3);
    reconcileAll();
    assert.equal(calls(), 3, "three resources, one snapshot: three resolutions");

    config.change(configWith("2"));
    reconcileAll();
    await tick();
    assert.equal(matches.count("shop-role"), 3);
    assert.ok(usage.current());
    assert.equal(calls(), 6, "a configuration change: each resource once more");

    informer.put(bucket("b", 2));
    reconcileAll();
    assert.equal(calls(), 6, "an echo of our own status write: nothing to decide again");
    informer.put(bucket("b", 3, { team: "blue" }));
    reconcileAll();
    assert.equal(calls(), 7, "a label changed: that resource once more");
  });
});
