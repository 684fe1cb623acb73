import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canonicalJson } from "./canonical-json.ts";

describe("canonicalJson", () => {
  test("sorts object keys at every level, whatever order they were written in", () => {
    const a = { b: 1, a: { d: [{ y: 2, x: 1 }], c: "s" } };
    const b = { a: { c: "s", d: [{ x: 1, y: 2 }] }, b: 1 };
    assert.equal(canonicalJson(a), '{"a":{"c":"s","d":[{"x":1,"y":2}]},"b":1}');
    assert.equal(canonicalJson(a), canonicalJson(b));
  });

  test("keeps array order; spells primitives as JSON.stringify does", () => {
    assert.equal(canonicalJson([3, 1, 2]), "[3,1,2]");
    assert.equal(canonicalJson('a"b\n'), JSON.stringify('a"b\n'));
    assert.equal(canonicalJson(1.5), "1.5");
    assert.equal(canonicalJson(Number.NaN), "null");
    assert.equal(canonicalJson(true), "true");
    assert.equal(canonicalJson(null), "null");
  });

  test("plain JSON data reads back as the same value", () => {
    const value = { z: [1, "two", null, { k: false }], a: { nested: { deeper: [] } }, "": 0 };
    assert.deepEqual(JSON.parse(canonicalJson(value)), value);
  });

  test("undefined members are left out (as JSON.stringify does), null in arrays, null on its own", () => {
    assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
    assert.equal(canonicalJson({ a: undefined }), canonicalJson({}));
    assert.equal(canonicalJson([undefined, 1]), "[null,1]");
    assert.equal(canonicalJson(undefined), "null");
    assert.equal(canonicalJson({ f: () => 1, s: Symbol("s") }), "{}");
  });

  test("total on unvalidated input: bigints and cycles have a spelling", () => {
    assert.equal(canonicalJson({ n: 12n }), '{"n":"12n"}');
    const cyclic: Record<string, unknown> = { name: "x" };
    cyclic["self"] = cyclic;
    assert.equal(canonicalJson(cyclic), '{"name":"x","self":"(cycle)"}');
    const list: unknown[] = [1];
    list.push(list);
    assert.equal(canonicalJson(list), '[1,"(cycle)"]');
    const shared = { v: 1 };
    assert.equal(
      canonicalJson({ a: shared, b: shared }),
      '{"a":{"v":1},"b":{"v":1}}',
      "shared is not a cycle",
    );
  });

  test("omitNullMembers: an object compares equal to its copy with nulls pruned, as the apiserver stores it", () => {
    const wanted = { status: { b: null, a: 1, list: [null, { x: null, y: 2 }] }, extra: null };
    const stored = { status: { a: 1, list: [null, { y: 2 }] } };
    const opts = { omitNullMembers: true };
    assert.equal(canonicalJson(wanted, opts), canonicalJson(stored, opts));
    assert.equal(canonicalJson(wanted, opts), '{"status":{"a":1,"list":[null,{"y":2}]}}');
    assert.notEqual(canonicalJson(wanted), canonicalJson(stored));
    assert.equal(canonicalJson(null, opts), "null");
  });
});
