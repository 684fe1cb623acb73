import assert from "node:assert/strict";
import { hash } from "node:crypto";
import { describe, test } from "node:test";
import { fitTagValue } from "./tag-limits.ts";

describe("fitTagValue: AWS's 256 characters, the same cut every time", () => {
  test("longer values keep their first 247 characters, then - and 8 hex of the whole value's SHA-256", () => {
    const v = "v".repeat(515);
    assert.equal(fitTagValue(v), `${"v".repeat(247)}-${hash("sha256", v, "hex").slice(0, 8)}`);
    assert.equal(fitTagValue(v).length, 256);
  });

  test("stable, and values sharing their first 247 characters still differ", () => {
    const a = `${"x".repeat(300)}a`;
    const b = `${"x".repeat(300)}b`;
    assert.equal(fitTagValue(a), fitTagValue(a));
    assert.notEqual(fitTagValue(a), fitTagValue(b));
  });

  test("values up to 256 characters are kept as they are", () => {
    for (const v of ["", "short", "v".repeat(256)]) assert.equal(fitTagValue(v), v);
  });

  test("characters are Unicode code points, as AWS counts them: a cut never splits one", () => {
    const fits = "\u{1F600}".repeat(200); // 200 characters, 400 UTF-16 units
    assert.equal(fitTagValue(fits), fits);
    const fitted = fitTagValue("\u{1F600}".repeat(300));
    assert.equal([...fitted].length, 256);
    assert.ok(fitted.startsWith("\u{1F600}".repeat(247)));
    assert.doesNotMatch(fitted, /\p{Surrogate}/u);
  });
});
