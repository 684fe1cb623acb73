import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "../toolkit/fake-clock.ts";
import {
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOfRateLimiter,
  tokenBucketRateLimiter,
} from "./rate-limiter.ts";

describe("exponentialFailureRateLimiter", () => {
  test("doubles from the base delay per failure of the same key, independently per key", () => {
    const l = exponentialFailureRateLimiter(5, 1_000_000);
    assert.deepEqual([l.when("a"), l.when("a"), l.when("a"), l.when("a")], [5, 10, 20, 40]);
    assert.equal(l.when("b"), 5);
    assert.equal(l.retries("a"), 4);
    assert.equal(l.retries("b"), 1);
  });

  test("caps at the maximum delay (1000 s by default), even after very many failures", () => {
    const l = exponentialFailureRateLimiter();
    let last = 0;
    for (let i = 0; i < 2000; i++) last = l.when("a");
    assert.equal(last, 1_000_000);
    // 5 ms * 2^17 = 655.36 s is the last step below the cap; 2^18 steps over it.
    const m = exponentialFailureRateLimiter();
    const delays = Array.from({ length: 19 }, () => m.when("x"));
    assert.equal(delays[17], 655_360);
    assert.equal(delays[18], 1_000_000);
  });

  test("forget starts the key over from the base delay", () => {
    const l = exponentialFailureRateLimiter(5, 1000);
    l.when("a");
    l.when("a");
    l.forget("a");
    assert.equal(l.retries("a"), 0);
    assert.equal(l.when("a"), 5);
  });
});

describe("tokenBucketRateLimiter", () => {
  // The bucket's own behaviour (burst, spacing, refill) is tested in src/toolkit/token-bucket.test.ts.
  test("one bucket token per call, whatever the key; no per-key state", () => {
    const clock = new FakeClock();
    const l = tokenBucketRateLimiter(10, 2, clock);
    assert.equal(l.when("a"), 0);
    assert.equal(l.when("b"), 0);
    assert.equal(Math.round(l.when("a")), 100);
    assert.equal(l.retries("a"), 0);
    l.forget("a");
    assert.equal(Math.round(l.when("c")), 200);
  });
});

describe("maxOfRateLimiter / defaultControllerRateLimiter", () => {
  test("waits for the longest of its limiters", () => {
    const a = exponentialFailureRateLimiter(5, 1000);
    const b = exponentialFailureRateLimiter(50, 1000);
    const l = maxOfRateLimiter(a, b);
    assert.equal(l.when("k"), 50);
    assert.equal(l.when("k"), 100);
    assert.equal(l.retries("k"), 2);
    l.forget("k");
    assert.equal(l.retries("k"), 0);
    assert.equal(l.when("k"), 50);
  });

  test("default: per-item backoff while the bucket has tokens, the bucket's spacing once it is empty", () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter({ clock });
    assert.equal(l.when("a"), 5);
    assert.equal(l.when("a"), 10);
    // Drain the remaining 98 tokens with distinct keys (each at its first, 5 ms, step).
    for (let i = 0; i < 98; i++) assert.equal(l.when(`k${i}`), 5);
    // Bucket empty: a fresh key now waits for the bucket (100 ms), not its own 5 ms.
    assert.equal(Math.round(l.when("fresh")), 100);
    // A key deep into its backoff waits for its own, longer, delay.
    const deep = defaultControllerRateLimiter({ clock });
    let d = 0;
    for (let i = 0; i < 12; i++) d = deep.when("deep");
    assert.equal(d, 5 * 2 ** 11);
  });
});
