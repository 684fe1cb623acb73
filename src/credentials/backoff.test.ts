import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { backoffDelay, defaultFailureBackoff } from "./backoff.ts";

describe("backoffDelay", () => {
  test("doubles from the base and stops at the cap", () => {
    const p = { baseMs: 1000, maxMs: 8000, jitter: 0 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 10].map((n) => backoffDelay(p, n, () => 0.5)),
      [1000, 2000, 4000, 8000, 8000, 8000],
    );
  });

  test("jitter only shortens, by at most its fraction", () => {
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

  test("remembered failures grow from seconds to minutes and never beyond five", () => {
    const none = () => 0;
    assert.equal(backoffDelay(defaultFailureBackoff, 1, none), 1_000);
    assert.equal(backoffDelay(defaultFailureBackoff, 8, none), 128_000);
    assert.equal(backoffDelay(defaultFailureBackoff, 1_000, none), 300_000);
  });
});
