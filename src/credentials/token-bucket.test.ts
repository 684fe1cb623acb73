import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fakeClock } from "./testing/fake-clock.ts";
import { TokenBucket } from "./token-bucket.ts";

/**
 * Starts `n` takes at once; each resolves with how long it waited, which (all starting
 * together) is when it was let through, relative to the start.
 */
function grants(bucket: TokenBucket, n: number): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, () => bucket.take()));
}

describe("TokenBucket", () => {
  test("a burst passes at once, then calls are spaced at the rate, in arrival order", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 3 }, clock, clock.sleep);
    assert.deepEqual(await grants(bucket, 6), [0, 0, 0, 100, 200, 300]);
  });

  test("tokens come back with time but never beyond the burst", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 2 }, clock, clock.sleep);
    await grants(bucket, 2);
    clock.advance(10_000);
    assert.deepEqual(await grants(bucket, 3), [0, 0, 100]);
  });

  test("in any window at most burst + rate x window calls are let through", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 20, burst: 5 }, clock, clock.sleep);
    const at = await grants(bucket, 100);
    assert.equal(at.length, 100);
    for (const a of at) {
      for (const windowMs of [0, 50, 100, 1000]) {
        const inWindow = at.filter((s) => s >= a && s <= a + windowMs).length;
        assert.ok(inWindow <= 5 + (20 * windowMs) / 1000 + 1e-9, `${inWindow} calls in ${windowMs} ms`);
      }
    }
  });

  test("after a stall, no more than the burst goes at once", async () => {
    const clock = fakeClock();
    // A sleep that oversleeps by 300 ms, as a stalled event loop would.
    const stalling = async (ms: number) => {
      await Promise.resolve();
      clock.advance(ms + 300);
    };
    const bucket = new TokenBucket({ ratePerSecond: 20, burst: 2 }, clock, stalling);
    const at = await grants(bucket, 12);
    for (const a of at) assert.ok(at.filter((s) => s === a).length <= 2, `grants at ${a}: ${at}`);
  });

  test("take() says how long the caller waited", async () => {
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
