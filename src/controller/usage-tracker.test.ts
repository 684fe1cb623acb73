// The tracker's safety property: it never answers from a partial picture (a restart, caches not
// synced), and it follows the current configuration snapshot. Informers and the configuration
// are stand-ins holding plain lists; resolution is the real resolver.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setImmediate as tick } from "node:timers/promises";
import {
  controllerRef,
  namespace,
  role,
  roleIdentity,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ConfigObjects } from "../resolver/types.ts";
import type { Informer, InformerHandler } from "../runtime/informer.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { type ConfigSource, UsageTracker } from "./usage-tracker.ts";

const settings = settingsWith();
const X = "111111111111";

class StubInformer {
  readonly name = "buckets";
  synced = false;
  readonly objects = new Map<string, KubeObject>();
  readonly handlers: InformerHandler[] = [];
  hasSynced = () => this.synced;
  waitForSync = async () => true;
  list = () => [...this.objects.values()];
  addHandler(h: InformerHandler) {
    this.handlers.push(h);
    for (const o of this.list()) h.onAdd?.(o);
    return () => {};
  }
  put(o: KubeObject) {
    const key = `${o.metadata.namespace}/${o.metadata.name}`;
    const old = this.objects.get(key);
    this.objects.set(key, o);
    for (const h of this.handlers) old ? h.onUpdate?.(old, o) : h.onAdd?.(o);
  }
  drop(ns: string, name: string) {
    const old = this.objects.get(`${ns}/${name}`);
    this.objects.delete(`${ns}/${name}`);
    if (old) for (const h of this.handlers) h.onDelete?.(old);
  }
}

class StubConfig implements ConfigSource {
  readonly name = "config";
  synced = false;
  #snapshot: Snapshot;
  readonly #listeners: (() => void)[] = [];
  constructor(objects: ConfigObjects) {
    this.#snapshot = buildSnapshot(objects, settings);
  }
  hasSynced = () => this.synced;
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

const bucket = (ns: string, name: string, identity?: string): KubeObject => ({
  apiVersion: "s3.services.k8s.aws/v1alpha1",
  kind: "Bucket",
  metadata: { name, namespace: ns, uid: `${ns}-${name}` },
  spec: identity ? { identityRef: { kind: "AWSRoleIdentity", name: identity } } : {},
});

const config = (identities: string[]): ConfigObjects => ({
  namespaces: [namespace("shop")],
  identities: identities.map((n) => roleIdentity(n, role(X, n), controllerRef, {})),
});

function setup(identities = ["billing", "other"]) {
  const informer = new StubInformer();
  const cfg = new StubConfig(config(identities));
  const tracker = new UsageTracker({
    config: cfg,
    resources: [{ kind: "Bucket", informer: informer as unknown as Informer }],
    settings,
  });
  const changes: string[][] = [];
  tracker.onChange((keys) => changes.push([...keys]));
  return { informer, cfg, tracker, changes };
}

describe("UsageTracker", () => {
  test("answers nothing until the configuration and every resource cache have synced", () => {
    const { informer, cfg, tracker } = setup();
    informer.put(bucket("shop", "a", "billing"));
    assert.equal(tracker.current(), undefined);
    cfg.synced = true;
    assert.equal(tracker.current(), undefined, "the bucket cache has not synced yet");
    informer.synced = true;
    // Events seen before the configuration synced were not lost: the answer is recomputed.
    assert.equal(tracker.current()?.count("AWSRoleIdentity/billing"), 1);
  });

  test("follows resource events one by one once complete, reporting the identities that changed", () => {
    const { informer, cfg, tracker, changes } = setup();
    cfg.synced = true;
    informer.synced = true;
    assert.equal(tracker.current()?.count("AWSRoleIdentity/billing"), 0);
    informer.put(bucket("shop", "a", "billing"));
    informer.put(bucket("shop", "b", "billing"));
    assert.deepEqual(
      tracker
        .current()
        ?.usersOf("AWSRoleIdentity/billing")
        .map((u) => u.name),
      ["a", "b"],
    );
    informer.put(bucket("shop", "a", "other"));
    informer.drop("shop", "b");
    assert.equal(tracker.current()?.count("AWSRoleIdentity/billing"), 0);
    assert.equal(tracker.current()?.count("AWSRoleIdentity/other"), 1);
    assert.deepEqual(changes.slice(-2), [
      ["AWSRoleIdentity/billing", "AWSRoleIdentity/other"],
      ["AWSControllerIdentity/default", "AWSRoleIdentity/billing"],
    ]);
  });

  test("a configuration change recomputes every resource against the new snapshot", async () => {
    const { informer, cfg, tracker, changes } = setup();
    cfg.synced = true;
    informer.synced = true;
    informer.put(bucket("shop", "a", "billing"));
    assert.equal(tracker.current()?.count("AWSRoleIdentity/billing"), 1);
    // billing vanishes from the configuration: a is denied, so it uses nothing any more.
    cfg.change(config(["other"]));
    await tick();
    assert.deepEqual(changes.at(-1), ["AWSControllerIdentity/default", "AWSRoleIdentity/billing"]);
    assert.equal(tracker.current()?.count("AWSRoleIdentity/billing"), 0);
    // It returns: a uses it again.
    cfg.change(config(["billing", "other"]));
    assert.equal(
      tracker.current()?.count("AWSRoleIdentity/billing"),
      1,
      "current() never answers from an old snapshot",
    );
  });
});
