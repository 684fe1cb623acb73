// The runtime's controller, finalizers and Event recorder against a real kube-apiserver:
// ConfigMaps stand in for a reconciled kind (the runtime knows nothing about AWS).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { Controller } from "../../src/runtime/controller.ts";
import { EventRecorder } from "../../src/runtime/events.ts";
import { addFinalizer, hasFinalizer, removeFinalizer } from "../../src/runtime/finalizers.ts";
import { Informer } from "../../src/runtime/informer.ts";
import { createKubeClient, isConflict, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { KubeObject, ResourceType } from "../../src/runtime/kube-object.ts";
import { createRuntimeMetrics } from "../../src/runtime/metrics.ts";
import { TerminalError } from "../../src/runtime/reconcile.ts";

const configMaps: ResourceType = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

interface CoreEvent extends KubeObject {
  reason: string;
  message: string;
  type: string;
  count: number;
  involvedObject: { kind: string; name: string; namespace: string; uid: string };
  source?: { component?: string };
}

let stack: Stack;
let client: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  client = createKubeClient(stack.kubeConfig);
});
after(() => stack?.stop());

async function createNamespace(name: string): Promise<void> {
  await client.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name } } });
}

function createConfigMap(ns: string, name: string, data: Record<string, string> = {}) {
  return client.request<ConfigMap>({
    method: "POST",
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: { metadata: { name }, data },
  });
}

function patchConfigMap(ns: string, name: string, data: Record<string, string>) {
  return client.request<ConfigMap>({
    method: "PATCH",
    path: `/api/v1/namespaces/${ns}/configmaps/${name}`,
    contentType: "application/merge-patch+json",
    body: { data },
  });
}

function getConfigMap(ns: string, name: string) {
  return client.request<ConfigMap>({ method: "GET", path: `/api/v1/namespaces/${ns}/configmaps/${name}` });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("controller against a real kube-apiserver", () => {
  test("reconciles every object, and never runs two workers on one key while it keeps changing", async () => {
    await createNamespace("ctl-one-key");
    for (const name of ["hot", "b", "c", "d"]) await createConfigMap("ctl-one-key", name, { v: "0" });
    const informer = new Informer<ConfigMap>({ client, resource: configMaps, namespaces: ["ctl-one-key"] });
    const running = new Map<string, number>();
    let maxPerKey = 0;
    const runs = new Map<string, number>();
    const seenVersions: string[] = [];
    let holdHot = deferred();
    let hotRuns = 0;
    const controller = new Controller({
      name: "one-key",
      primary: informer,
      concurrency: 4,
      reconcile: async (req) => {
        running.set(req.key, (running.get(req.key) ?? 0) + 1);
        maxPerKey = Math.max(maxPerKey, running.get(req.key)!);
        runs.set(req.name, (runs.get(req.name) ?? 0) + 1);
        try {
          if (req.name === "hot") {
            hotRuns++;
            seenVersions.push(informer.get(req.namespace, req.name)?.data?.["v"] ?? "?");
            if (hotRuns === 1) await holdHot.promise;
          }
          return {};
        } finally {
          running.set(req.key, running.get(req.key)! - 1);
        }
      },
    });
    informer.start();
    after(() => informer.stop());
    await controller.start();
    after(() => controller.stop());

    // The first reconcile of "hot" is held; meanwhile the object changes three times.
    await waitFor(() => hotRuns === 1, { what: "the first reconcile of hot" });
    for (const v of ["1", "2", "3"]) await patchConfigMap("ctl-one-key", "hot", { v });
    await waitFor(() => informer.get("ctl-one-key", "hot")?.data?.["v"] === "3", {
      what: "the cache sees v=3",
    });
    assert.equal(hotRuns, 1, "no second worker took hot while the first one held it");
    // Other keys still get workers meanwhile.
    const bRuns = runs.get("b") ?? 0;
    await patchConfigMap("ctl-one-key", "b", { v: "1" });
    await waitFor(() => (runs.get("b") ?? 0) > bRuns, { what: "b reconciled while hot is held" });
    assert.equal(running.get("ctl-one-key/hot"), 1);
    assert.equal(controller.queue.isPending("ctl-one-key/hot"), true, "the changes are remembered");
    holdHot.resolve();
    holdHot = deferred();
    await waitFor(() => hotRuns === 2 && running.get("ctl-one-key/hot") === 0, {
      what: "hot reconciled again",
    });
    assert.deepEqual(
      seenVersions,
      ["0", "3"],
      "the three changes collapse into one more reconcile of the latest state",
    );
    assert.equal(maxPerKey, 1);
  });

  test("a TerminalError is not requeued; a retryable error is retried until it succeeds", async () => {
    await createNamespace("ctl-errors");
    await createConfigMap("ctl-errors", "bad");
    await createConfigMap("ctl-errors", "flaky");
    const informer = new Informer<ConfigMap>({ client, resource: configMaps, namespaces: ["ctl-errors"] });
    const metrics = createRuntimeMetrics();
    const calls = new Map<string, number>();
    const controller = new Controller({
      name: "errors",
      primary: informer,
      metrics,
      concurrency: 2,
      reconcile: async (req) => {
        const n = (calls.get(req.name) ?? 0) + 1;
        calls.set(req.name, n);
        if (req.name === "bad") throw new TerminalError("the spec can never work");
        if (req.name === "flaky" && n < 4) throw new Error("transient");
        return {};
      },
    });
    informer.start();
    after(() => informer.stop());
    await controller.start();
    after(() => controller.stop());

    await waitFor(() => calls.get("flaky") === 4, { what: "flaky to succeed on its 4th attempt" });
    assert.equal(calls.get("bad"), 1, "the terminal failure ran once");
    assert.equal(controller.queue.isPending("ctl-errors/bad"), false, "and is not waiting for a retry");
    assert.equal(controller.queue.numRequeues("ctl-errors/flaky"), 0, "success forgot flaky's backoff");
    const text = await metrics.registry.metrics();
    assert.match(text, /controller_runtime_terminal_reconcile_errors_total\{controller="errors"\} 1/);
    assert.match(text, /controller_runtime_reconcile_errors_total\{controller="errors"\} 4/);
    assert.match(text, /workqueue_retries_total\{controller="errors",name="errors"\} 3/);

    // A change to the object queues it again.
    await patchConfigMap("ctl-errors", "bad", { changed: "yes" });
    await waitFor(() => calls.get("bad") === 2, { what: "bad reconciled after it changed" });
  });
});

describe("finalizers against a real kube-apiserver", () => {
  test("add and remove with a resourceVersion precondition; removing the last one lets deletion finish", async () => {
    await createNamespace("fin");
    const cm = await createConfigMap("fin", "guarded");
    const withF = await addFinalizer(client, configMaps, cm, "finalizers.example.dev/one");
    assert.equal(hasFinalizer(withF, "finalizers.example.dev/one"), true);
    assert.equal(
      await addFinalizer(client, configMaps, withF, "finalizers.example.dev/one"),
      withF,
      "no-op when present",
    );

    // A change computed from a stale object is refused, so a concurrent writer's finalizer survives.
    const other = await addFinalizer(client, configMaps, withF, "finalizers.example.dev/other");
    await assert.rejects(addFinalizer(client, configMaps, withF, "finalizers.example.dev/third"), (err) =>
      isConflict(err),
    );
    assert.deepEqual((await getConfigMap("fin", "guarded")).metadata.finalizers, [
      "finalizers.example.dev/one",
      "finalizers.example.dev/other",
    ]);

    await client.request({ method: "DELETE", path: "/api/v1/namespaces/fin/configmaps/guarded" });
    const deleting = await getConfigMap("fin", "guarded");
    assert.ok(deleting.metadata.deletionTimestamp, "deletion waits for the finalizers");
    const afterOne = await removeFinalizer(client, configMaps, deleting, "finalizers.example.dev/one");
    assert.deepEqual(afterOne?.metadata.finalizers, ["finalizers.example.dev/other"]);
    assert.ok(other.metadata.finalizers);
    await removeFinalizer(client, configMaps, afterOne!, "finalizers.example.dev/other");
    await waitFor(
      async () => {
        try {
          await getConfigMap("fin", "guarded");
          return false;
        } catch {
          return true;
        }
      },
      { what: "the ConfigMap to be gone" },
    );
  });
});

describe("Event recorder against a real kube-apiserver", () => {
  async function eventsFor(ns: string, name: string): Promise<CoreEvent[]> {
    const list = await client.request<{ items: CoreEvent[] }>({
      method: "GET",
      path: `/api/v1/namespaces/${ns}/events`,
      query: { fieldSelector: `involvedObject.name=${name}` },
    });
    return list.items;
  }

  test("records an Event about the object; repeats increment its count instead of creating new Events", async () => {
    await createNamespace("ev");
    const cm = { ...(await createConfigMap("ev", "subject")), apiVersion: "v1", kind: "ConfigMap" };
    const recorder = new EventRecorder({ client, component: "crossrole-test", instance: "pod-1" });
    for (let i = 0; i < 3; i++)
      await recorder.event(cm, "Warning", "Denied", "identity central-it does not allow ev");
    await recorder.event(cm, "Normal", "Pivoted", "now using account 111111111111");
    const events = await eventsFor("ev", "subject");
    assert.equal(events.length, 2);
    const denied = events.find((e) => e.reason === "Denied");
    assert.equal(denied?.count, 3);
    assert.equal(denied?.type, "Warning");
    assert.equal(denied?.message, "identity central-it does not allow ev");
    assert.equal(denied?.involvedObject.kind, "ConfigMap");
    assert.equal(denied?.involvedObject.uid, cm.metadata.uid);
    assert.equal(denied?.source?.component, "crossrole-test");
    assert.equal(events.find((e) => e.reason === "Pivoted")?.count, 1);
  });

  test("a per-object spam filter drops events beyond the burst", async () => {
    const cm = { ...(await createConfigMap("ev", "noisy")), apiVersion: "v1", kind: "ConfigMap" };
    const recorder = new EventRecorder({ client, component: "crossrole-test", burst: 3 });
    for (let i = 0; i < 6; i++) await recorder.event(cm, "Warning", "Failed", `attempt ${i}`);
    const events = await eventsFor("ev", "noisy");
    assert.deepEqual(events.map((e) => e.message).sort(), ["attempt 0", "attempt 1", "attempt 2"]);
  });
});
