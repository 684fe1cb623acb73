// Informer connection health over real list/watch loops, against a fake apiserver and a manual
// clock: the grace period, one log line per flip, the manager's gauge and ready check.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import { pino } from "pino";
import { FakeClock } from "../toolkit/fake-clock.ts";
import { Informer } from "./informer.ts";
import type { KubeClient, KubeRequest, WatchRequest } from "./kube-client.ts";
import type { ResourceType } from "./kube-object.ts";
import { informerHealthCheck, Manager } from "./manager.ts";
import { createRuntimeMetrics } from "./metrics.ts";

/** Lets pending promise callbacks run (the loops are async); not a timed wait. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

const configMaps: ResourceType = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};

/** An apiserver that answers lists with nothing and holds watches open, until a path is cut. */
class FakeApi implements KubeClient {
  readonly cut = new Set<string>();
  readonly #open = new Map<string, Set<(err?: Error) => void>>();
  lists = 0;
  watches = 0;

  async request<T>(req: KubeRequest): Promise<T> {
    if (this.cut.has(req.path)) throw new Error("connect ECONNREFUSED 127.0.0.1:6443");
    this.lists++;
    return { metadata: { resourceVersion: "10" }, items: [] } as T;
  }

  watch(w: WatchRequest): Promise<void> {
    if (this.cut.has(w.path)) return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6443"));
    this.watches++;
    w.onOpen?.();
    return new Promise<void>((resolve, reject) => {
      const end = (err?: Error) => {
        this.#open.get(w.path)?.delete(end);
        if (err) reject(err);
        else resolve();
      };
      const set = this.#open.get(w.path) ?? new Set();
      this.#open.set(w.path, set);
      set.add(end);
      w.signal.addEventListener("abort", () => end(), { once: true });
    });
  }

  /** Drops the open watches of `path` and refuses new requests to it. */
  cutPath(path: string): void {
    this.cut.add(path);
    for (const end of [...(this.#open.get(path) ?? [])]) end(new Error("read ECONNRESET"));
  }

  restore(path: string): void {
    this.cut.delete(path);
  }
}

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split("\n")) if (l.trim()) lines.push(JSON.parse(l));
        done();
      },
    }),
  );
  const events = () =>
    lines.map((l) => l["event"]).filter((e) => typeof e === "string" && e.startsWith("informer."));
  return { logger, lines, events };
}

// No jitter: the retries come 800, 1600, 3200, 6400 ms apart.
const deterministic = { backoff: { jitter: 0 } };
const path = "/api/v1/namespaces/a/configmaps";

/** Advances the clock in steps of `stepMs`, letting the loops run after each. */
async function advance(clock: FakeClock, ms: number, stepMs = 100): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    clock.advance(Math.min(stepMs, ms - done));
    await settle();
  }
}

/** A started informer on the fake apiserver, with its log, health flips and manual clock. */
async function startInformer(namespaces: readonly string[] = ["a"]) {
  const clock = new FakeClock();
  const api = new FakeApi();
  const { logger, lines, events } = capturingLogger();
  const inf = new Informer({
    client: api,
    resource: configMaps,
    namespaces: [...namespaces],
    clock,
    logger,
    ...deterministic,
  });
  const flips: boolean[] = [];
  inf.onHealthChange((h) => flips.push(h.healthy));
  inf.start();
  await settle();
  return { clock, api, inf, flips, lines, events };
}

describe("informer connection health (fake apiserver, manual clock)", () => {
  test("a watch that drops and reconnects within the grace period never turns unhealthy", async () => {
    const { clock, api, inf, flips, events } = await startInformer();
    assert.equal(inf.hasSynced(), true);
    assert.deepEqual(inf.health(), { healthy: true });

    api.cutPath(path); // the watch breaks; the reconnect 800 ms later fails too
    await settle();
    await advance(clock, 1_000);
    assert.equal(api.watches, 1);
    api.restore(path);
    await advance(clock, 2_000); // the retry 1.6 s later opens the watch
    assert.equal(api.watches, 2, "reconnected");
    await advance(clock, 10_000);
    assert.deepEqual(inf.health(), { healthy: true });
    assert.deepEqual(flips, []);
    assert.deepEqual(events(), [], "nothing logged about health");
    await inf.stop();
  });

  test("failures for longer than the grace period make it unhealthy; one log line per flip; the next watch heals it", async () => {
    const { clock, api, inf, flips, lines, events } = await startInformer();
    const t0 = clock.now();
    api.cutPath(path);
    await settle();
    await advance(clock, 4_900);
    assert.equal(inf.health().healthy, true, "4.9 s into the outage: still within the grace period");
    await advance(clock, 100);
    const h = inf.health();
    assert.equal(h.healthy, false, "5 s into the outage");
    assert.equal(h.since, t0, "since the first failure");
    assert.match(h.lastError ?? "", /^\/api\/v1\/namespaces\/a\/configmaps: connect ECONNREFUSED/);
    assert.deepEqual(flips, [false]);

    await advance(clock, 60_000); // many more failed retries
    assert.ok(inf.stats().errors >= 6, `retried (${inf.stats().errors} errors)`);
    assert.deepEqual(flips, [false], "one flip, however many retries");
    assert.deepEqual(events(), ["informer.unhealthy"]);
    assert.equal(
      lines.filter((l) => l["msg"] === "watch failed; retrying").length,
      3,
      "retries are warned about within the grace period (0, 0.8, 2.4 s), then only at debug level",
    );
    const down = lines.find((l) => l["event"] === "informer.unhealthy");
    assert.equal(down?.["since"], new Date(t0).toISOString());
    assert.equal(down?.["failingForMs"], 5_000);
    assert.match(String(down?.["err"]), /ECONNREFUSED/);
    assert.equal(down?.["informer"], "configmaps in a");

    api.restore(path);
    await advance(clock, 60_000, 500); // the next retry (backoff ≤ 30 s) opens the watch
    assert.deepEqual(inf.health(), { healthy: true });
    assert.deepEqual(flips, [false, true]);
    assert.deepEqual(events(), ["informer.unhealthy", "informer.recovered"]);
    assert.equal(api.lists, 1, "it resumed its watch without relisting");
    await inf.stop();
  });

  test("with several namespaces, one failing loop makes the informer unhealthy and is named", async () => {
    const { clock, api, inf, events } = await startInformer(["a", "b"]);
    api.cutPath("/api/v1/namespaces/b/configmaps");
    await settle();
    await advance(clock, 5_000);
    assert.equal(inf.health().healthy, false);
    assert.match(inf.health().lastError ?? "", /^\/api\/v1\/namespaces\/b\/configmaps: /);
    api.cutPath(path); // a second loop failing is no new flip
    await advance(clock, 6_000);
    assert.deepEqual(events(), ["informer.unhealthy"]);
    api.restore(path); // one of two loops back: still unhealthy
    await advance(clock, 40_000, 500);
    assert.equal(inf.health().healthy, false);
    assert.deepEqual(events(), ["informer.unhealthy"]);
    api.restore("/api/v1/namespaces/b/configmaps");
    await advance(clock, 40_000, 500);
    assert.equal(inf.health().healthy, true);
    assert.deepEqual(events(), ["informer.unhealthy", "informer.recovered"]);
    await inf.stop();
  });

  test("an apiserver unreachable from the start: unhealthy after the grace period, and not synced", async () => {
    const clock = new FakeClock();
    const api = new FakeApi();
    api.cutPath(path);
    const inf = new Informer({
      client: api,
      resource: configMaps,
      namespaces: ["a"],
      clock,
      ...deterministic,
    });
    inf.start();
    await settle();
    await advance(clock, 5_000);
    assert.equal(inf.hasSynced(), false);
    assert.equal(inf.health().healthy, false);
    api.restore(path);
    await advance(clock, 40_000, 500);
    assert.equal(inf.hasSynced(), true, "the list succeeded");
    assert.equal(inf.health().healthy, true);
    await inf.stop();
  });

  test("the manager's gauge and ready check follow the informers' health", async () => {
    const clock = new FakeClock();
    const api = new FakeApi();
    const m = new Manager({
      client: api,
      clock,
      metrics: createRuntimeMetrics(),
      watchNamespaces: ["a"],
      informerUnhealthyAfterMs: 2_000,
    });
    const inf = m.informer({ resource: configMaps, ...deterministic });
    const nodes = m.informer({
      resource: { group: "", version: "v1", plural: "namespaces", kind: "Namespace", namespaced: false },
      fieldSelector: "metadata.name=a",
    });
    assert.equal(
      nodes.name,
      "namespaces (metadata.name=a)",
      "selectors are part of the name (and the label)",
    );
    const check = informerHealthCheck(() => [inf, nodes], clock);
    const gauge = async () =>
      (await m.metrics.registry.getSingleMetricAsString("crossrole_informer_healthy"))
        .split("\n")
        .filter((l) => !l.startsWith("#"))
        .sort();
    assert.deepEqual(await gauge(), [
      'crossrole_informer_healthy{resource="configmaps in a"} 1',
      'crossrole_informer_healthy{resource="namespaces (metadata.name=a)"} 1',
    ]);
    await m.start();
    await settle();
    assert.equal(check.check(), true);

    const t0 = clock.now();
    api.cutPath(path);
    await settle();
    await advance(clock, 1_900);
    assert.equal(check.check(), true, "within the manager's 2 s grace period");
    await advance(clock, 1_100);
    assert.deepEqual(await gauge(), [
      'crossrole_informer_healthy{resource="configmaps in a"} 0',
      'crossrole_informer_healthy{resource="namespaces (metadata.name=a)"} 1',
    ]);
    assert.equal(
      check.check(),
      `configmaps in a: cannot reach the apiserver since ${new Date(t0).toISOString()} (3s): /api/v1/namespaces/a/configmaps: connect ECONNREFUSED 127.0.0.1:6443`,
    );

    api.restore(path);
    await advance(clock, 40_000, 500);
    assert.equal(check.check(), true);
    assert.deepEqual(await gauge(), [
      'crossrole_informer_healthy{resource="configmaps in a"} 1',
      'crossrole_informer_healthy{resource="namespaces (metadata.name=a)"} 1',
    ]);
    const stopping = m.stop();
    await settle();
    clock.advance(2_000); // the Event flush deadline
    await stopping;
  });
});
