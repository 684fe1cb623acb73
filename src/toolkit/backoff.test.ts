import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Backoff, backoffDelay, reconnectBackoff } from "./backoff.ts";

describe("backoffDelay", () => {
  test("doubles from the base and stops at the cap", () => {
    const p = { baseMs: 1000, maxMs: 8000, jitter: 0 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 10].map((n) => backoffDelay(p, n, () => 0.5)),
      [1000, 2000, 4000, 8000, 8000, 8000],
    );
  });

  test("the cap holds even after very many failures (growth overflows to Infinity)", () => {
    const p = { baseMs: 5, maxMs: 1_000_000 };
    assert.equal(backoffDelay(p, 18), 655_360);
    assert.equal(backoffDelay(p, 19), 1_000_000);
    assert.equal(backoffDelay(p, 5_000), 1_000_000);
  });

  test("grows by the factor", () => {
    const p = { baseMs: 100, maxMs: 10_000, factor: 3 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoffDelay(p, n, () => 0)),
      [100, 300, 900, 2700, 8100],
    );
  });

  test("jitter (shorten, the default) only shortens, by at most its fraction", () => {
    const p = { baseMs: 1000, maxMs: 60_000, jitter: 0.2 };
    assert.equal(
      backoffDelay(p, 1, () => 0),
      1000,
    );
    assert.equal(
      backoffDelay(p, 1, () => 0.999999),
      800.0002,
    );
  });

  test("full jitter (1, shorten) spreads the delay over [0, d]; more than 1 counts as 1", () => {
    const p = { baseMs: 100, maxMs: 5_000, jitter: 1 };
    assert.equal(
      backoffDelay(p, 3, () => 0.5),
      200,
    );
    assert.equal(
      backoffDelay({ ...p, jitter: 3 }, 3, () => 0.5),
      200,
    );
  });

  test("jitter (lengthen) only lengthens, by at most its fraction, beyond the cap too", () => {
    const p = { baseMs: 800, maxMs: 30_000, jitter: 1, jitterMode: "lengthen" as const };
    assert.equal(
      backoffDelay(p, 1, () => 0),
      800,
    );
    assert.equal(
      backoffDelay(p, 1, () => 0.5),
      1200,
    );
    assert.equal(
      backoffDelay(p, 10, () => 0.5),
      45_000,
    );
  });

  test("asks for one random number per delay, with or without jitter", () => {
    let calls = 0;
    const random = () => {
      calls++;
      return 0.5;
    };
    backoffDelay({ baseMs: 1, maxMs: 2 }, 1, random);
    backoffDelay({ baseMs: 1, maxMs: 2, jitter: 0.5 }, 1, random);
    assert.equal(calls, 2);
  });
});

describe("Backoff", () => {
  test("defaults to client-go's reflector backoff: 800 ms doubling to 30 s, lengthened by up to 100 %", () => {
    assert.deepEqual(reconnectBackoff, {
      baseMs: 800,
      maxMs: 30_000,
      factor: 2,
      jitter: 1,
      jitterMode: "lengthen",
    });
    const b = new Backoff({ random: () => 0 });
    assert.deepEqual(
      Array.from({ length: 8 }, () => b.next()),
      [800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000],
    );
    const half = new Backoff({ random: () => 0.5 });
    assert.equal(half.next(), 1200);
  });

  test("fields left out come from the defaults, one at a time", () => {
    const b = new Backoff({ baseMs: 20, maxMs: 200, random: () => 0.5 });
    assert.deepEqual(
      Array.from({ length: 5 }, () => b.next()),
      [30, 60, 120, 240, 300],
    );
    const noJitter = new Backoff({ jitter: 0, random: () => 0.9 });
    assert.deepEqual(
      [noJitter.next(), noJitter.next(), noJitter.next(), noJitter.next()],
      [800, 1600, 3200, 6400],
    );
  });

  test("reset starts over from the base delay; failures counts since the last reset", () => {
    const b = new Backoff({ jitter: 0 });
    b.next();
    b.next();
    assert.equal(b.failures, 2);
    b.reset();
    assert.equal(b.failures, 0);
    assert.equal(b.next(), 800);
  });
});
