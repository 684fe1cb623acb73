import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "../toolkit/fake-clock.ts";
import { exponentialFailureRateLimiter } from "./rate-limiter.ts";
import { WorkQueue, type WorkQueueMetrics } from "./workqueue.ts";

function recordingMetrics() {
  const m = { depth: 0, adds: 0, retries: 0, latencies: [] as number[], work: [] as number[] };
  const metrics: WorkQueueMetrics = {
    depth: (n) => {
      m.depth = n;
    },
    added: () => {
      m.adds++;
    },
    queueLatency: (s) => {
      m.latencies.push(s);
    },
    workDuration: (s) => {
      m.work.push(s);
    },
    retried: () => {
      m.retries++;
    },
  };
  return { m, metrics };
}

/** Takes every key that is ready now, in order, without waiting. */
async function drainReady(q: WorkQueue): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) {
    const k = await q.get();
    if (k === undefined) break;
    out.push(k);
  }
  return out;
}

describe("WorkQueue: dedup and one worker per key", () => {
  test("a key added several times before a worker takes it is handed out once, in FIFO order", async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    q.add("a");
    q.add("b");
    q.add("a");
    q.add("c");
    q.add("b");
    assert.deepEqual(await drainReady(q), ["a", "b", "c"]);
  });

  test("a key re-added while it is processed is not handed to a second worker, but again after done()", async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    q.add("a");
    const first = await q.get();
    assert.equal(first, "a");
    q.add("a");
    q.add("a");
    assert.equal(q.len(), 0, "the key must not be ready while a worker holds it");
    assert.equal(q.isPending("a"), true, "the re-add is remembered (dirty)");
    // A second worker waiting for work gets nothing until done().
    let second: string | undefined;
    const waiting = q.get().then((k) => {
      second = k;
    });
    await Promise.resolve();
    assert.equal(second, undefined);
    q.done("a");
    await waiting;
    assert.equal(second, "a");
    q.done("a");
    assert.equal(q.isPending("a"), false);
    assert.equal(q.len(), 0);
  });

  test("a waiting get() is handed the next key added", async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    const p = q.get();
    q.add("x");
    assert.equal(await p, "x");
    assert.equal(q.isProcessing("x"), true);
  });
});

describe("WorkQueue: delayed adds", () => {
  test("addAfter makes the key ready only when its time comes", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter("a", 1000);
    assert.equal(q.len(), 0);
    assert.equal(q.isPending("a"), true);
    clock.advance(999);
    assert.equal(q.len(), 0);
    clock.advance(1);
    assert.deepEqual(await drainReady(q), ["a"]);
  });

  test("delayed adds of one key merge to the EARLIEST time", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter("a", 5000);
    q.addAfter("a", 1000);
    q.addAfter("a", 3000);
    clock.advance(1000);
    assert.deepEqual(await drainReady(q), ["a"]);
    q.done("a");
    // The later requests were merged into the first one: nothing else fires.
    clock.advance(10_000);
    assert.equal(q.len(), 0);
    assert.equal(q.isPending("a"), false);
    assert.equal(clock.pendingTimers(), 0);
  });

  test("keys delayed by different amounts become ready in time order, with one timer", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter("c", 300);
    q.addAfter("a", 100);
    q.addAfter("b", 200);
    assert.equal(clock.pendingTimers(), 1);
    clock.advance(150);
    assert.deepEqual(await drainReady(q), ["a"]);
    clock.advance(200);
    assert.deepEqual(await drainReady(q), ["b", "c"]);
  });

  test("addAfter with no delay adds at once; an immediate add of a waiting key does not cancel the delayed one", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter("a", 0);
    assert.equal(q.len(), 1);
    assert.deepEqual(await drainReady(q), ["a"]);
    q.done("a");
    q.addAfter("a", 100);
    q.add("a");
    assert.deepEqual(await drainReady(q), ["a"]);
    q.done("a");
    clock.advance(100);
    assert.deepEqual(await drainReady(q), ["a"], "the delayed add still fires (client-go semantics)");
  });
});

describe("WorkQueue: rate-limited adds", () => {
  test("retries back off 5 ms·2^n per key until forget()", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock, rateLimiter: exponentialFailureRateLimiter(5, 1_000_000) });
    const readyAfter = async (): Promise<number> => {
      let waited = 0;
      while (q.len() === 0) {
        clock.advance(1);
        waited++;
      }
      await drainReady(q);
      q.done("k");
      return waited;
    };
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      q.addRateLimited("k");
      delays.push(await readyAfter());
    }
    assert.deepEqual(delays, [5, 10, 20, 40, 80]);
    assert.equal(q.numRequeues("k"), 5);
    q.forget("k");
    assert.equal(q.numRequeues("k"), 0);
    q.addRateLimited("k");
    assert.equal(await readyAfter(), 5);
  });

  test("the default limiter combines per-item backoff with a 10 qps / 100 burst bucket", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    for (let i = 0; i < 120; i++) q.addRateLimited(`k${i}`);
    clock.advance(5);
    assert.equal(q.len(), 100, "the burst of 100 goes through at the per-item 5 ms");
    clock.advance(100);
    assert.equal(q.len(), 101, "then one more every 100 ms");
    clock.advance(1900);
    assert.equal(q.len(), 120);
  });
});

describe("WorkQueue: shutdown and metrics", () => {
  test("shutDown drops pending and delayed work, wakes waiting workers, and waits for in-flight keys", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.add("busy");
    assert.equal(await q.get(), "busy");
    q.add("queued");
    q.addAfter("later", 1000);
    const worker = q.get(); // gets "queued"
    assert.equal(await worker, "queued");
    q.done("queued");
    const idle = q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    assert.equal(await idle, undefined, "a waiting worker is told to stop");
    assert.equal(await q.get(), undefined);
    q.add("new");
    assert.equal(q.len(), 0, "adds after shutdown are ignored");
    clock.advance(2000);
    assert.equal(q.len(), 0, "delayed adds are dropped");
    await Promise.resolve();
    assert.equal(drained, false, "drain waits for the in-flight key");
    q.done("busy");
    await drain;
    assert.equal(drained, true);
  });

  test("reports depth, adds, queue latency, work duration and retries", async () => {
    const clock = new FakeClock();
    const { m, metrics } = recordingMetrics();
    const q = new WorkQueue({ clock, metrics, rateLimiter: exponentialFailureRateLimiter(5, 1000) });
    q.add("a");
    q.add("b");
    q.add("a");
    assert.equal(m.adds, 2);
    assert.equal(m.depth, 2);
    clock.advance(250);
    const k = await q.get();
    assert.equal(m.depth, 1);
    assert.deepEqual(m.latencies, [0.25]);
    clock.advance(500);
    q.done(k!);
    assert.deepEqual(m.work, [0.5]);
    q.addRateLimited("c");
    assert.equal(m.retries, 1);
  });
});

describe("WorkQueue: in-flight work (workqueue_unfinished_work_seconds, _longest_running_processor_seconds)", () => {
  test("sums and maxes the time each held key has been processed, by the queue's clock", async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    assert.deepEqual(q.inFlight(), { unfinishedSeconds: 0, longestSeconds: 0 });
    q.add("a");
    q.add("b");
    assert.equal(await q.get(), "a");
    clock.advance(3_000);
    assert.equal(await q.get(), "b");
    clock.advance(1_000);
    assert.deepEqual(q.inFlight(), { unfinishedSeconds: 5, longestSeconds: 4 });
    q.done("a");
    assert.deepEqual(q.inFlight(), { unfinishedSeconds: 1, longestSeconds: 1 });
    q.done("b");
    assert.deepEqual(q.inFlight(), { unfinishedSeconds: 0, longestSeconds: 0 });
  });
});
