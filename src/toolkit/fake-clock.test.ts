import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sleep } from "./clock.ts";
import { FakeClock } from "./fake-clock.ts";

describe("FakeClock", () => {
  test("starts at 2030-01-01 unless told otherwise, and moves only when asked", () => {
    assert.equal(new FakeClock().now(), Date.UTC(2030, 0, 1));
    const clock = new FakeClock(1_000);
    assert.equal(clock.now(), 1_000);
    clock.advance(250);
    assert.equal(clock.now(), 1_250);
    clock.set(5_000);
    assert.equal(clock.now(), 5_000);
    clock.set(4_000);
    assert.equal(clock.now(), 4_000);
  });

  test("advance fires due timers in time order, each seeing its due time, including ones scheduled meanwhile", () => {
    const clock = new FakeClock(0);
    const fired: [string, number][] = [];
    clock.setTimeout(() => fired.push(["b", clock.now()]), 200);
    clock.setTimeout(() => {
      fired.push(["a", clock.now()]);
      clock.setTimeout(() => fired.push(["a+50", clock.now()]), 50);
    }, 100);
    clock.setTimeout(() => fired.push(["late", clock.now()]), 1_000);
    clock.advance(300);
    assert.deepEqual(fired, [
      ["a", 100],
      ["a+50", 150],
      ["b", 200],
    ]);
    assert.equal(clock.now(), 300);
    assert.equal(clock.pendingTimers(), 1);
  });

  test("timers due at the same time fire in the order they were set; cleared ones never", () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push("first"), 10);
    const cleared = clock.setTimeout(() => fired.push("cleared"), 10);
    clock.setTimeout(() => fired.push("second"), 10);
    clock.clearTimeout(cleared);
    clock.set(10);
    assert.deepEqual(fired, ["first", "second"]);
    assert.equal(clock.pendingTimers(), 0);
  });

  test("sleep lets fake time pass by itself, on a later tick, and records each wait", async () => {
    const clock = new FakeClock(0);
    const { sleep: detached } = clock;
    const a = detached(100);
    const b = clock.sleep(50);
    assert.equal(clock.now(), 0, "callers starting in one tick see the same now");
    await Promise.all([a, b]);
    assert.equal(clock.now(), 150);
    assert.deepEqual(clock.slept, [100, 50]);
  });

  test("sleep(clock, ...) waits for advance, and an abort ends it early, clearing its timer", async () => {
    const clock = new FakeClock(0);
    let done = false;
    const waiting = sleep(clock, 100).then(() => (done = true));
    clock.advance(99);
    await Promise.resolve();
    assert.equal(done, false);
    clock.advance(1);
    await waiting;
    assert.equal(done, true);

    const stop = new AbortController();
    const aborted = sleep(clock, 1_000, stop.signal);
    assert.equal(clock.pendingTimers(), 1);
    stop.abort();
    await aborted;
    assert.equal(clock.pendingTimers(), 0);
    await sleep(clock, 1_000, stop.signal); // already aborted: resolves at once
  });
});
