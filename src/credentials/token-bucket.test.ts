import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fakeClock } from "./testing/fake-clock.ts";
import { TokenBucket } from "./token-bucket.ts";

describe("TokenBucket", () => {
  test("a burst passes at once, then calls are spaced at the rate", () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 3 }, clock, clock.sleep);
    const waits = Array.from({ length: 6 }, () => bucket.reserve());
    assert.deepEqual(waits, [0, 0, 0, 100, 200, 300]);
  });

  test("tokens come back with time but never beyond the burst", () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 2 }, clock, clock.sleep);
    bucket.reserve();
    bucket.reserve();
    clock.advance(10_000);
    assert.deepEqual([bucket.reserve(), bucket.reserve(), bucket.reserve()], [0, 0, 100]);
  });

  test("in any window at most burst + rate x window calls start", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 20, burst: 5 }, clock, clock.sleep);
    // Each caller reserves at arrival; its call starts when its wait is over.
    const starts = Array.from({ length: 100 }, () => clock.now() + bucket.reserve());
    for (const a of starts) {
      for (const windowMs of [0, 50, 100, 1000]) {
        const inWindow = starts.filter((s) => s >= a && s <= a + windowMs).length;
        assert.ok(inWindow <= 5 + (20 * windowMs) / 1000 + 1e-9, `${inWindow} calls in ${windowMs} ms`);
      }
    }
  });

  test("take() sleeps for the reserved wait", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 4, burst: 1 }, clock, clock.sleep);
    assert.equal(await bucket.take(), 0);
    assert.equal(await bucket.take(), 250);
    assert.deepEqual(clock.slept, [250]);
  });

  test("a rate of zero is refused with the numbers", () => {
    const clock = fakeClock();
    assert.throws(() => new TokenBucket({ ratePerSecond: 0, burst: 1 }, clock, clock.sleep), /got 0\/1/);
  });
});
