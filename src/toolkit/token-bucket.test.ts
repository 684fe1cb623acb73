import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "./fake-clock.ts";
import { TokenBucket } from "./token-bucket.ts";

/**
 * Starts `n` takes at once; each resolves with how long it waited, which (all starting
 * together) is when it was let through, relative to the start.
 */
function grants(bucket: TokenBucket, n: number): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, () => bucket.take()));
}

describe("TokenBucket.take (waits, counts at the moment it lets a caller through)", () => {
  test("a burst passes at once, then calls are spaced at the rate, in arrival order", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 3 }, clock, clock.sleep);
    assert.deepEqual(await grants(bucket, 6), [0, 0, 0, 100, 200, 300]);
  });

  test("tokens come back with time but never beyond the burst", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 2 }, clock, clock.sleep);
    await grants(bucket, 2);
    clock.advance(10_000);
    assert.deepEqual(await grants(bucket, 3), [0, 0, 100]);
  });

  test("in any window at most burst + rate x window calls are let through", async () => {
    const clock = new FakeClock();
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
    const clock = new FakeClock();
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
    const clock = new FakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 4, burst: 1 }, clock, clock.sleep);
    assert.equal(await bucket.take(), 0);
    assert.equal(await bucket.take(), 250);
    assert.deepEqual(clock.slept, [250]);
  });

  test("without a sleep, take() waits on the clock's timers", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 1 }, clock);
    assert.equal(await bucket.take(), 0);
    const second = bucket.take();
    assert.equal(bucket.waiting, 1);
    assert.equal(clock.pendingTimers(), 1);
    clock.advance(100);
    assert.equal(await second, 100);
    assert.equal(bucket.waiting, 0);
  });

  test("a rate of zero is refused with the numbers", () => {
    const clock = new FakeClock();
    assert.throws(() => new TokenBucket({ ratePerSecond: 0, burst: 1 }, clock, clock.sleep), /got 0\/1/);
  });
});

describe("TokenBucket.reserve (never waits, goes into debt)", () => {
  test("lets a burst through without delay, then spaces calls at 1/rate", () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 100 }, clock);
    for (let i = 0; i < 100; i++) assert.equal(bucket.reserve(), 0, `call ${i} is within the burst`);
    // The bucket is empty: each further reservation goes 100 ms deeper into debt.
    assert.equal(Math.round(bucket.reserve()), 100);
    assert.equal(Math.round(bucket.reserve()), 200);
    assert.equal(Math.round(bucket.reserve()), 300);
  });

  test("refills at the rate while time passes, never above the burst", () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 5 }, clock);
    for (let i = 0; i < 5; i++) bucket.reserve();
    assert.equal(Math.round(bucket.reserve()), 100);
    clock.advance(1000); // repays the 1 token of debt and refills 9 more, capped at 5
    for (let i = 0; i < 5; i++) assert.equal(bucket.reserve(), 0);
    assert.equal(Math.round(bucket.reserve()), 100);
  });
});
