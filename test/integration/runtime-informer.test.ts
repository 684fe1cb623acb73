// The runtime's informer against a real kube-apiserver: it lists, watches, follows changes,
// relists after 410 Gone (emitting the differences), and survives connections dropping and the
// apiserver being unreachable. Faults are injected by a tiny HTTP proxy between the informer
// and the apiserver (kept in this file: it is test-only plumbing).
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { Informer, type InformerOptions } from "../../src/runtime/informer.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { KubeObject, ResourceType } from "../../src/runtime/kube-object.ts";
import type { RestConfig } from "../../src/runtime/rest-config.ts";

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

/**
 * A plain-HTTP proxy to the apiserver that authenticates as admin, records every request, and
 * on demand answers watches with a 410 ERROR event, drops all connections, or refuses new ones.
 */
class FaultProxy {
  readonly requests: { method: string; path: string; watch: boolean }[] = [];
  #gone = 0;
  #refusing = false;
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #url = "";

  constructor(upstream: { url: string; token: string; ca: string }) {
    this.#server = createServer((req, res) => this.#handle(upstream, req, res));
    this.#server.on("connection", (socket: Socket) => {
      if (this.#refusing) {
        socket.destroy();
        return;
      }
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    const addr = this.#server.address();
    if (addr === null || typeof addr === "string") throw new Error("proxy has no port");
    this.#url = `http://127.0.0.1:${addr.port}`;
    return this.#url;
  }

  /** A RestConfig that reaches the apiserver through this proxy. */
  kubeConfig(): RestConfig {
    return { server: this.#url, tls: {}, auth: { type: "none" }, source: "the test proxy" };
  }

  /** The next `n` watch requests are answered with `ERROR 410 Expired` instead of being forwarded. */
  failNextWatchesWithGone(n = 1): void {
    this.#gone += n;
  }

  /** Closes every open connection (watches included) at once, as a dying apiserver or LB would. */
  dropConnections(): void {
    for (const s of this.#sockets) s.destroy();
  }

  /** While on, new connections are closed as soon as they open (apiserver unreachable). */
  refuse(on: boolean): void {
    this.#refusing = on;
    if (on) this.dropConnections();
  }

  count(pred: (r: { method: string; path: string; watch: boolean }) => boolean): number {
    return this.requests.filter(pred).length;
  }

  close(): Promise<void> {
    this.dropConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #handle(
    upstream: { url: string; token: string; ca: string },
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    const url = new URL(req.url ?? "/", "http://proxy");
    const watch = url.searchParams.get("watch") === "true";
    this.requests.push({ method: req.method ?? "GET", path: url.pathname, watch });
    if (watch && this.#gone > 0) {
      this.#gone--;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        `${JSON.stringify({
          type: "ERROR",
          object: {
            kind: "Status",
            apiVersion: "v1",
            status: "Failure",
            message: "too old resource version: 1 (2)",
            reason: "Expired",
            code: 410,
          },
        })}\n`,
      );
      return;
    }
    const headers = { ...req.headers, authorization: `Bearer ${upstream.token}` };
    delete headers.host;
    const up = httpsRequest(
      `${upstream.url}${req.url}`,
      { method: req.method, headers, ca: upstream.ca },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
        upRes.on("error", () => res.destroy());
      },
    );
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  }
}

let stack: Stack;
let admin: KubeClient;

before(async () => {
  stack = await startStack({ aws: false });
  admin = createKubeClient(stack.kubeConfig);
});
after(() => stack?.stop());

async function createNamespace(name: string): Promise<void> {
  await admin.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name } } });
}

function putConfigMap(
  ns: string,
  name: string,
  data: Record<string, string>,
  labels?: Record<string, string>,
) {
  return admin.request<ConfigMap>({
    method: "POST",
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: { metadata: { name, labels }, data },
  });
}

function patchConfigMap(ns: string, name: string, data: Record<string, string>) {
  return admin.request<ConfigMap>({
    method: "PATCH",
    path: `/api/v1/namespaces/${ns}/configmaps/${name}`,
    contentType: "application/merge-patch+json",
    body: { data },
  });
}

function deleteConfigMap(ns: string, name: string) {
  return admin.request({ method: "DELETE", path: `/api/v1/namespaces/${ns}/configmaps/${name}` });
}

type Seen = { type: "add" | "update" | "delete"; key: string; data?: Record<string, string> };

/** Starts an informer that records every handler call. */
function recordingInformer(opts: Partial<InformerOptions> & { client: KubeClient }) {
  const seen: Seen[] = [];
  const informer = new Informer<ConfigMap>({
    resource: configMaps,
    // Short retry delays, so the tests of failure paths stay quick.
    backoff: { baseMs: 20, maxMs: 200 },
    ...opts,
  });
  const key = (o: ConfigMap) => `${o.metadata.namespace}/${o.metadata.name}`;
  informer.addHandler({
    onAdd: (o) => seen.push({ type: "add", key: key(o), data: o.data }),
    onUpdate: (_old, o) => seen.push({ type: "update", key: key(o), data: o.data }),
    onDelete: (o) => seen.push({ type: "delete", key: key(o), data: o.data }),
  });
  informer.start();
  return { informer, seen };
}

function sawEvent(seen: Seen[], type: Seen["type"], key: string, pred: (s: Seen) => boolean = () => true) {
  return () => seen.some((s) => s.type === type && s.key === key && pred(s));
}

describe("informer against a real kube-apiserver", () => {
  test("lists existing objects, syncs, then sees add, update and delete through its watch", async () => {
    await createNamespace("inf-basic");
    await putConfigMap("inf-basic", "before", { v: "1" });
    const { informer, seen } = recordingInformer({ client: admin, namespaces: ["inf-basic"] });
    after(() => informer.stop());
    assert.equal(await informer.waitForSync(AbortSignal.timeout(10_000)), true);
    assert.equal(informer.hasSynced(), true);
    assert.deepEqual(informer.get("inf-basic", "before")?.data, { v: "1" });
    assert.equal(
      informer.get("inf-basic", "before")?.kind,
      "ConfigMap",
      "list items get their kind filled in",
    );
    assert.equal(informer.get("inf-basic", "before")?.metadata.managedFields, undefined);
    assert.ok(sawEvent(seen, "add", "inf-basic/before")());

    await putConfigMap("inf-basic", "new", { v: "1" });
    await waitFor(sawEvent(seen, "add", "inf-basic/new"), { what: "add of new" });
    await patchConfigMap("inf-basic", "new", { v: "2" });
    await waitFor(
      sawEvent(seen, "update", "inf-basic/new", (s) => s.data?.["v"] === "2"),
      { what: "update of new" },
    );
    assert.deepEqual(informer.getByKey("inf-basic/new")?.data, { v: "2" });
    await deleteConfigMap("inf-basic", "new");
    await waitFor(sawEvent(seen, "delete", "inf-basic/new"), { what: "delete of new" });
    assert.equal(informer.get("inf-basic", "new"), undefined);
    assert.deepEqual(
      informer.list("inf-basic").map((o) => o.metadata.name),
      ["before"],
    );
  });

  test("a label selector limits what is cached", async () => {
    await createNamespace("inf-labels");
    await putConfigMap("inf-labels", "mine", { v: "1" }, { owner: "me" });
    await putConfigMap("inf-labels", "theirs", { v: "1" }, { owner: "them" });
    const { informer } = recordingInformer({
      client: admin,
      namespaces: ["inf-labels"],
      labelSelector: "owner=me",
    });
    after(() => informer.stop());
    await informer.waitForSync();
    assert.deepEqual(informer.keys(), ["inf-labels/mine"]);
    await putConfigMap("inf-labels", "mine-too", { v: "1" }, { owner: "me" });
    await putConfigMap("inf-labels", "theirs-too", { v: "1" }, { owner: "them" });
    await waitFor(() => informer.getByKey("inf-labels/mine-too"), { what: "mine-too cached" });
    assert.equal(informer.getByKey("inf-labels/theirs-too"), undefined);
  });

  test("a new label selector relists: newly selected objects arrive as adds, the others leave as deletes", async () => {
    await createNamespace("inf-reselect");
    for (const [name, b] of [
      ["one", "1"],
      ["two", "2"],
      ["three", "3"],
    ] as const)
      await putConfigMap("inf-reselect", name, { v: "1" }, { bucket: b });
    const { informer, seen } = recordingInformer({
      client: admin,
      namespaces: ["inf-reselect"],
      labelSelector: "bucket in (1,2)",
    });
    after(() => informer.stop());
    await informer.waitForSync();
    assert.deepEqual(informer.keys().sort(), ["inf-reselect/one", "inf-reselect/two"]);
    seen.length = 0;

    informer.setLabelSelector("bucket in (2,3)");
    await waitFor(sawEvent(seen, "add", "inf-reselect/three"), { what: "three added" });
    await waitFor(sawEvent(seen, "delete", "inf-reselect/one"), { what: "one deleted" });
    assert.deepEqual(informer.keys().sort(), ["inf-reselect/three", "inf-reselect/two"]);
    assert.ok(
      !seen.some((s) => s.key === "inf-reselect/two"),
      "an object selected before and after: no event",
    );
    assert.equal(informer.labelSelector, "bucket in (2,3)");

    // The watch that follows uses the new selector: a change to an object it no longer selects is not seen.
    await patchConfigMap("inf-reselect", "one", { v: "2" });
    await putConfigMap("inf-reselect", "four", { v: "1" }, { bucket: "3" });
    await waitFor(sawEvent(seen, "add", "inf-reselect/four"), { what: "four added" });
    assert.equal(informer.getByKey("inf-reselect/one"), undefined);
  });

  test("with several namespaces it lists and watches each of them, and never cluster-wide", async () => {
    const proxy = new FaultProxy({
      url: stack.controlPlane.serverURL,
      token: stack.controlPlane.adminToken,
      ca: stack.controlPlane.caPEM,
    });
    await proxy.listen();
    after(() => proxy.close());
    for (const ns of ["inf-a", "inf-b", "inf-c"]) {
      await createNamespace(ns);
      await putConfigMap(ns, "cm", { ns });
    }
    const { informer } = recordingInformer({
      client: createKubeClient(proxy.kubeConfig()),
      namespaces: ["inf-a", "inf-b"],
    });
    after(() => informer.stop());
    await informer.waitForSync(AbortSignal.timeout(10_000));
    assert.deepEqual(informer.keys().sort(), ["inf-a/cm", "inf-b/cm"]);
    await putConfigMap("inf-b", "later", { v: "1" });
    await putConfigMap("inf-c", "later", { v: "1" });
    await waitFor(() => informer.getByKey("inf-b/later"), { what: "inf-b/later cached" });
    assert.equal(informer.getByKey("inf-c/later"), undefined);
    const paths = new Set(proxy.requests.map((r) => r.path));
    assert.deepEqual(
      [...paths].sort(),
      ["/api/v1/namespaces/inf-a/configmaps", "/api/v1/namespaces/inf-b/configmaps"],
      "only namespaced list/watch requests are made",
    );
  });

  test("a 410 Gone on the watch makes it relist, and the differences become add/update/delete events", async () => {
    const proxy = new FaultProxy({
      url: stack.controlPlane.serverURL,
      token: stack.controlPlane.adminToken,
      ca: stack.controlPlane.caPEM,
    });
    await proxy.listen();
    after(() => proxy.close());
    await createNamespace("inf-gone");
    await putConfigMap("inf-gone", "stays", { v: "1" });
    await putConfigMap("inf-gone", "changes", { v: "1" });
    await putConfigMap("inf-gone", "goes", { v: "1" });
    const { informer, seen } = recordingInformer({
      client: createKubeClient(proxy.kubeConfig()),
      namespaces: ["inf-gone"],
    });
    after(() => informer.stop());
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await waitFor(() => proxy.count((r) => r.watch) >= 1, { what: "the first watch" });
    const listsBefore = proxy.count((r) => !r.watch);

    // Cut the informer off, change things behind its back, then let its next watch hit a 410.
    proxy.refuse(true);
    await putConfigMap("inf-gone", "appears", { v: "1" });
    await patchConfigMap("inf-gone", "changes", { v: "2" });
    await deleteConfigMap("inf-gone", "goes");
    seen.length = 0;
    proxy.failNextWatchesWithGone(1);
    proxy.refuse(false);

    await waitFor(
      () =>
        sawEvent(seen, "add", "inf-gone/appears")() &&
        sawEvent(seen, "update", "inf-gone/changes", (s) => s.data?.["v"] === "2")() &&
        sawEvent(seen, "delete", "inf-gone/goes")(),
      { what: "the relist's add/update/delete", timeoutMs: 15_000 },
    );
    assert.equal(
      proxy.count((r) => !r.watch),
      listsBefore + 1,
      "exactly one relist",
    );
    assert.equal(informer.stats().relists, 1);
    assert.equal(
      seen.some((s) => s.key === "inf-gone/stays"),
      false,
      "an unchanged object yields no event on relist",
    );
    assert.deepEqual(informer.keys().sort(), ["inf-gone/appears", "inf-gone/changes", "inf-gone/stays"]);

    // And it keeps watching after the relist.
    await putConfigMap("inf-gone", "after", { v: "1" });
    await waitFor(sawEvent(seen, "add", "inf-gone/after"), { what: "a watch event after the relist" });
  });

  test("survives dropped connections and an unreachable apiserver, then resumes from its resourceVersion", async () => {
    const proxy = new FaultProxy({
      url: stack.controlPlane.serverURL,
      token: stack.controlPlane.adminToken,
      ca: stack.controlPlane.caPEM,
    });
    await proxy.listen();
    after(() => proxy.close());
    await createNamespace("inf-drop");
    const { informer, seen } = recordingInformer({
      client: createKubeClient(proxy.kubeConfig()),
      namespaces: ["inf-drop"],
    });
    after(() => informer.stop());
    await informer.waitForSync(AbortSignal.timeout(10_000));

    for (let i = 0; i < 3; i++) {
      const watches = proxy.count((r) => r.watch);
      proxy.dropConnections();
      await putConfigMap("inf-drop", `during-drop-${i}`, { i: String(i) });
      await waitFor(sawEvent(seen, "add", `inf-drop/during-drop-${i}`), {
        what: `the change made while the watch was down (${i})`,
        timeoutMs: 15_000,
      });
      assert.ok(proxy.count((r) => r.watch) > watches, "a new watch was opened");
    }

    proxy.refuse(true);
    const errorsBefore = informer.stats().errors;
    await waitFor(() => informer.stats().errors >= errorsBefore + 3, {
      what: "several failed reconnects while the apiserver is unreachable",
      timeoutMs: 15_000,
    });
    await putConfigMap("inf-drop", "during-outage", { v: "1" });
    await patchConfigMap("inf-drop", "during-drop-0", { i: "changed" });
    proxy.refuse(false);
    await waitFor(
      () =>
        sawEvent(seen, "add", "inf-drop/during-outage")() &&
        sawEvent(seen, "update", "inf-drop/during-drop-0", (s) => s.data?.["i"] === "changed")(),
      { what: "changes made during the outage", timeoutMs: 15_000 },
    );
    assert.equal(
      proxy.count((r) => !r.watch),
      1,
      "it resumed its watch without relisting",
    );
    assert.equal(informer.stats().relists, 0);
  });
});
