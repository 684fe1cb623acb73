import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pino } from "pino";
import { FakeClock } from "../toolkit/fake-clock.ts";
import { timeStep } from "../toolkit/step-times.ts";
import { Controller } from "./controller.ts";
import { checkFence, isFencedError } from "./fence.ts";
import { createRuntimeMetrics } from "./metrics.ts";
import { type ReconcileRequest, ReportedError, type Result, TerminalError } from "./reconcile.ts";
import { Gate } from "./sync-gate.ts";
import { waitFor } from "./wait-for.ts";

/** Lets pending promise callbacks run (workers are async); not a timed wait. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function harness(
  reconcile: (req: ReconcileRequest, retries: number) => Promise<Result>,
  opts: { concurrency?: number; resyncPeriodMs?: number; gate?: Gate } = {},
) {
  const clock = new FakeClock();
  const calls: string[] = [];
  const metrics = createRuntimeMetrics();
  const c = new Controller({
    name: "test",
    clock,
    metrics,
    concurrency: opts.concurrency ?? 1,
    resyncPeriodMs: opts.resyncPeriodMs ?? 0,
    resyncJitter: 0,
    waitFor: opts.gate ? [opts.gate] : [],
    reconcile: async (req, ctx) => {
      calls.push(req.key);
      return reconcile(req, ctx.retries);
    },
  });
  return { c, clock, calls, metrics };
}

describe("Controller (reconcile contract, with a manual clock)", () => {
  test("does not reconcile before its gates are open; queued keys are processed once they are", async () => {
    const gate = new Gate("caches");
    const { c, calls } = harness(async () => ({}), { gate });
    c.enqueue("ns/a");
    const started = c.start();
    await settle();
    assert.deepEqual(calls, []);
    assert.equal(c.started, false);
    gate.open();
    assert.equal(await started, true);
    await settle();
    assert.deepEqual(calls, ["ns/a"]);
    await c.stop();
  });

  test("success requeues after the resync period; requeueAfter after the given time", async () => {
    const { c, clock, calls } = harness(async (req) => (req.name === "later" ? { requeueAfter: 500 } : {}), {
      resyncPeriodMs: 60_000,
    });
    await c.start();
    c.enqueue("ns/ok");
    c.enqueue("ns/later");
    await settle();
    assert.deepEqual(calls, ["ns/ok", "ns/later"]);
    clock.advance(500);
    await settle();
    assert.deepEqual(calls, ["ns/ok", "ns/later", "ns/later"]);
    clock.advance(59_500);
    await settle();
    assert.deepEqual(calls.filter((k) => k === "ns/ok").length, 2, "resynced after 60 s");
    await c.stop();
  });

  test("a retryable error is retried with 5 ms·2^n backoff; success resets the count", async () => {
    let failures = 3;
    const retriesSeen: number[] = [];
    const { c, clock, calls, metrics } = harness(async (_req, retries) => {
      retriesSeen.push(retries);
      if (failures-- > 0) throw new Error("AWS said no");
      return {};
    });
    await c.start();
    c.enqueue("ns/x");
    await settle();
    for (const delay of [5, 10, 20]) {
      clock.advance(delay - 1);
      await settle();
      const before = calls.length;
      clock.advance(1);
      await settle();
      assert.equal(calls.length, before + 1, `retried after ${delay} ms`);
    }
    assert.deepEqual(retriesSeen, [0, 1, 2, 3]);
    assert.equal(c.queue.numRequeues("ns/x"), 0, "forgotten after the success");
    const total = await metrics.registry.getSingleMetricAsString("controller_runtime_reconcile_total");
    assert.match(total, /controller_runtime_reconcile_total\{controller="test",result="error"\} 3/);
    assert.match(total, /controller_runtime_reconcile_total\{controller="test",result="success"\} 1/);
    await c.stop();
  });

  test("a failure the reconciler reported ({failed: true}) counts as an error, not a success, and is resynced", async () => {
    const { c, clock, calls, metrics } = harness(async () => ({ failed: true }), { resyncPeriodMs: 60_000 });
    await c.start();
    c.enqueue("ns/denied");
    await settle();
    const total = await metrics.registry.getSingleMetricAsString("controller_runtime_reconcile_total");
    assert.match(total, /controller_runtime_reconcile_total\{controller="test",result="error"\} 1/);
    assert.match(total, /controller_runtime_reconcile_total\{controller="test",result="success"\} 0/);
    assert.equal(c.queue.numRequeues("ns/denied"), 0, "not retried with backoff");
    clock.advance(60_000);
    await settle();
    assert.deepEqual(calls, ["ns/denied", "ns/denied"], "resynced like a success");
    await c.stop();
  });

  test("a reconcile's wall time is split by the steps its calls mark, the rest counted as other", async () => {
    // Calls that answer on a later turn of the event loop (how long does not matter here: the
    // overlap rule is step-times.test.ts's); each step must show up with its own time.
    const later = () => new Promise<void>((r) => setImmediate(r));
    const { c, metrics } = harness(async () => {
      await Promise.all([timeStep("aws", later), timeStep("aws", later)]);
      await timeStep("kubernetes", later);
      return {};
    });
    await c.start();
    c.enqueue("ns/timed");
    await waitFor(
      async () => {
        const text = await metrics.registry.getSingleMetricAsString("crossrole_reconcile_step_seconds_total");
        return text.includes('step="other"') || undefined;
      },
      { what: "the step metric", timeoutMs: 5_000 },
    );
    const values = (await metrics.reconcileStepSeconds.get()).values;
    const of = (step: string) => values.find((v) => v.labels.step === step)?.value ?? -1;
    assert.ok(of("aws") > 0, `aws ${of("aws")}`);
    assert.ok(of("kubernetes") > 0, `kubernetes ${of("kubernetes")}`);
    assert.ok(of("other") >= 0, `other ${of("other")}`);
    await c.stop();
  });

  test("the in-flight gauges read the queue when scraped", async () => {
    const release = deferred();
    const { c, clock, metrics } = harness(async () => {
      await release.promise;
      return {};
    });
    await c.start();
    c.enqueue("ns/slow");
    await settle();
    clock.advance(2_500);
    const longest = await metrics.registry.getSingleMetricAsString(
      "workqueue_longest_running_processor_seconds",
    );
    assert.match(longest, /workqueue_longest_running_processor_seconds\{controller="test",name="test"\} 2.5/);
    const unfinished = await metrics.registry.getSingleMetricAsString("workqueue_unfinished_work_seconds");
    assert.match(unfinished, /workqueue_unfinished_work_seconds\{controller="test",name="test"\} 2.5/);
    release.resolve();
    await settle();
    assert.match(
      await metrics.registry.getSingleMetricAsString("workqueue_longest_running_processor_seconds"),
      /\{controller="test",name="test"\} 0/,
    );
    await c.stop();
  });

  test("a TerminalError is not requeued", async () => {
    const { c, clock, calls, metrics } = harness(async () => {
      throw new TerminalError("region drift: cannot move a bucket");
    });
    await c.start();
    c.enqueue("ns/t");
    await settle();
    assert.deepEqual(calls, ["ns/t"]);
    assert.equal(c.queue.isPending("ns/t"), false);
    assert.equal(clock.pendingTimers(), 0, "nothing is scheduled");
    clock.advance(24 * 3600 * 1000);
    await settle();
    assert.deepEqual(calls, ["ns/t"]);
    const terminal = await metrics.registry.getSingleMetricAsString(
      "controller_runtime_terminal_reconcile_errors_total",
    );
    assert.match(terminal, /\{controller="test"\} 1/);
    // A new event for the object queues it again.
    c.enqueue("ns/t");
    await settle();
    assert.deepEqual(calls, ["ns/t", "ns/t"]);
    await c.stop();
  });

  test("a failure the reconciler reported itself is logged as its message, once at info, never with a stack", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "debug" }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    const clock = new FakeClock();
    let n = 0;
    const c = new Controller({
      name: "test",
      clock,
      logger,
      concurrency: 1,
      resyncPeriodMs: 0,
      resyncJitter: 0,
      waitFor: [],
      reconcile: async (req) => {
        if (req.key === "ns/refused") throw new TerminalError("TakeoverNotApproved: ...", { reported: true });
        n += 1;
        if (n < 3) throw new ReportedError("AccessDenied: the role may not s3:CreateBucket");
        throw new Error("a fault of the controller's own");
      },
    });
    await c.start();
    c.enqueue("ns/refused");
    await settle();
    const refused = lines.filter((l) => l["key"] === "ns/refused" && l["msg"] !== "reconciled");
    assert.deepEqual(
      refused.map((l) => [l["level"], l["error"], "err" in l]),
      [[30, "TakeoverNotApproved: ...", false]],
    );
    c.enqueue("ns/b");
    for (let i = 0; i < 4; i++) {
      await settle();
      clock.advance(60_000);
    }
    await settle();
    const failures = lines.filter(
      (l) => l["key"] === "ns/b" && String(l["msg"]).startsWith("reconcile failed"),
    );
    assert.deepEqual(
      failures.slice(0, 3).map((l) => l["level"]),
      [30, 20, 50],
      "the first report at info, its retries at debug; an unreported error at error",
    );
    assert.ok(
      failures.slice(0, 2).every((l) => !("err" in l)),
      "no stack for a reported failure",
    );
    assert.match(
      String((failures[2]?.["err"] as { stack?: string } | undefined)?.stack),
      /a fault of the controller's own/,
    );
    await c.stop();
  });

  test("never runs two workers on one key, while other keys run in parallel", async () => {
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const running = new Map<string, number>();
    let maxPerKey = 0;
    let maxTotal = 0;
    const { c, calls } = harness(
      async (req) => {
        running.set(req.key, (running.get(req.key) ?? 0) + 1);
        maxPerKey = Math.max(maxPerKey, running.get(req.key)!);
        maxTotal = Math.max(
          maxTotal,
          [...running.values()].reduce((a, b) => a + b, 0),
        );
        const d = deferred();
        gates.set(req.key, d);
        await d.promise;
        running.set(req.key, running.get(req.key)! - 1);
        return {};
      },
      { concurrency: 4 },
    );
    await c.start();
    c.enqueue("ns/a");
    c.enqueue("ns/b");
    await settle();
    c.enqueue("ns/a");
    c.enqueue("ns/a");
    await settle();
    assert.deepEqual(calls.sort(), ["ns/a", "ns/b"]);
    gates.get("ns/a")!.resolve();
    await settle();
    assert.deepEqual(
      calls.filter((k) => k === "ns/a").length,
      2,
      "re-adds while running collapse into one more run",
    );
    gates.get("ns/a")!.resolve();
    gates.get("ns/b")!.resolve();
    await settle();
    assert.equal(maxPerKey, 1);
    assert.equal(maxTotal, 2);
    await c.stop();
  });

  test("stop waits for in-flight reconciles, then aborts them at the deadline", async () => {
    const d = deferred();
    let signal: AbortSignal | undefined;
    const clock = new FakeClock();
    const c = new Controller({
      name: "stop",
      clock,
      resyncPeriodMs: 0,
      reconcile: async (_req, ctx) => {
        signal = ctx.signal;
        await d.promise;
        return {};
      },
    });
    await c.start();
    c.enqueue("ns/slow");
    await settle();
    let stopped: boolean | undefined;
    const stopping = c.stop(1000).then((ok) => {
      stopped = ok;
    });
    await settle();
    assert.equal(stopped, undefined, "still waiting for the in-flight reconcile");
    c.enqueue("ns/other");
    assert.equal(c.queue.len(), 0, "no new work is taken");
    clock.advance(1000);
    await stopping;
    assert.equal(stopped, false);
    assert.equal(signal?.aborted, true, "the reconcile is told to give up");
    d.resolve();
  });
});

describe("Controller with a shard gate", () => {
  test("keys of namespaces the gate refuses are dropped; enqueueNamespace queues a namespace's keys from the watched cache", async () => {
    const allowed = new Set(["mine"]);
    const objects = [
      { apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "mine", name: "a" } },
      { apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "theirs", name: "b" } },
    ];
    // The informer surface Controller.watch uses (pure: no apiserver here).
    const informer = {
      name: "configmaps",
      hasSynced: () => true,
      waitForSync: () => Promise.resolve(true),
      addHandler: () => () => {},
      list: (ns?: string) => objects.filter((o) => ns === undefined || o.metadata.namespace === ns),
      keys: () => objects.map((o) => `${o.metadata.namespace}/${o.metadata.name}`),
    };
    const calls: string[] = [];
    const dropped: string[] = [];
    const c = new Controller({
      name: "sharded",
      clock: new FakeClock(),
      resyncPeriodMs: 0,
      shard: { gate: (ns) => ({ act: allowed.has(ns) }) },
      onDropped: (key) => dropped.push(key),
      reconcile: async (req) => {
        calls.push(req.key);
        return {};
      },
    });
    c.watch(informer as never);
    await c.start();
    c.enqueue("mine/a");
    c.enqueue("theirs/b");
    await settle();
    assert.deepEqual(calls, ["mine/a"], "theirs/b is another replica's");
    assert.deepEqual(dropped, ["theirs/b"], "and the caller is told it was dropped");
    assert.deepEqual([...c.cachedNamespaces()].sort(), ["mine", "theirs"]);
    // The namespace is handed over: its keys are queued again and reconciled here.
    allowed.add("theirs");
    c.enqueueNamespace("theirs");
    await settle();
    assert.deepEqual(calls, ["mine/a", "theirs/b"]);
    await c.stop();
  });

  test("fenced mid-reconcile: the next write fails before it is sent, calls in flight are aborted, and the key is not retried here", async () => {
    const allowed = new Set(["mine"]);
    const clock = new FakeClock();
    const metrics = createRuntimeMetrics();
    const inAws = deferred();
    const held = deferred();
    const writes: string[] = [];
    let seenSignal: AbortSignal | undefined;
    let thrown: unknown;
    const c = new Controller({
      name: "fenced",
      clock,
      metrics,
      resyncPeriodMs: 0,
      shard: { gate: (ns) => (allowed.has(ns) ? { act: true } : { act: false, why: "its Lease is stale" }) },
      reconcile: async (req, ctx) => {
        seenSignal = ctx.signal;
        checkFence();
        writes.push(`first write of ${req.key}`);
        inAws.resolve();
        await held.promise; // an AWS read in flight while the replica is paused
        try {
          checkFence();
          writes.push(`second write of ${req.key}`);
        } catch (err) {
          thrown = err;
          throw err;
        }
        return {};
      },
    });
    await c.start();
    c.enqueue("mine/a");
    await inAws.promise;
    allowed.delete("mine");
    c.fenceInFlight();
    assert.equal(seenSignal?.aborted, true, "the reconcile's signal (its SDK calls') is aborted");
    assert.ok(isFencedError(seenSignal?.reason));
    assert.match(
      String((seenSignal?.reason as Error | undefined)?.message),
      /mine\/a \(its Lease is stale\)/,
    );
    held.resolve();
    await waitFor(() => thrown !== undefined, { what: "the second write refused", timeoutMs: 1_000 });
    await settle();
    assert.deepEqual(writes, ["first write of mine/a"], "nothing written once fenced");
    assert.ok(isFencedError(thrown));
    assert.equal(c.queue.len(), 0, "not requeued: the gate queues it again if it comes back");
    assert.equal(c.queue.numRequeues("mine/a"), 0);
    const counted = await metrics.registry.getSingleMetricAsString("controller_runtime_reconcile_total");
    assert.match(counted, /controller="fenced",result="fenced"\} 1/, "counted as fenced");
    assert.match(counted, /controller="fenced",result="error"\} 0/, "not as an error");
    await c.stop();
  });

  test("a fence is asked at each write, also when nothing told the controller (a paused process waking up)", async () => {
    let act = true;
    const held = deferred();
    const started = deferred();
    let thrown: unknown;
    const c = new Controller({
      name: "woken",
      clock: new FakeClock(),
      resyncPeriodMs: 0,
      shard: { gate: () => ({ act }) },
      reconcile: async () => {
        started.resolve();
        await held.promise;
        try {
          checkFence();
        } catch (err) {
          thrown = err;
        }
        return {};
      },
    });
    await c.start();
    c.enqueue("ns/a");
    await started.promise;
    act = false; // no fenceInFlight(): the gate alone says so at the write
    held.resolve();
    await waitFor(() => thrown !== undefined, { what: "the write refused", timeoutMs: 1_000 });
    assert.ok(isFencedError(thrown));
    await c.stop();
  });

  test("an unsharded controller has no fence", async () => {
    let checked = false;
    const c = new Controller({
      name: "plain",
      clock: new FakeClock(),
      resyncPeriodMs: 0,
      reconcile: async () => {
        checkFence();
        checked = true;
        return {};
      },
    });
    await c.start();
    c.enqueue("ns/a");
    await waitFor(() => checked, { what: "the reconcile ran through", timeoutMs: 1_000 });
    await c.stop();
  });
});
