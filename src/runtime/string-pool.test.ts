import assert from "node:assert/strict";
import { test } from "node:test";
import { StringPool } from "./string-pool.ts";

test("equal string values in different objects become one copy; the objects are unchanged otherwise", () => {
  const pool = new StringPool();
  const a = JSON.parse(
    '{"status":{"conditions":[{"type":"Ready","message":"synced"}]},"n":1,"b":true,"z":null}',
  );
  const b = JSON.parse(
    '{"status":{"conditions":[{"type":"Ready","message":"synced"}]},"n":1,"b":true,"z":null}',
  );
  const before = structuredClone(b);
  pool.internValues(a);
  pool.internValues(b);
  assert.deepEqual(b, before);
  assert.equal(pool.size, 2, "Ready and synced");
  assert.equal(pool.string("Ready"), a.status.conditions[0].type);
});

test("long strings are left alone, and the pool starts afresh at its bound", () => {
  const pool = new StringPool({ maxEntries: 3, maxLength: 5 });
  pool.internValues(["abcdef", "a", "b", "c"]);
  assert.equal(pool.size, 3, "the long one is not pooled");
  pool.string("d");
  assert.equal(pool.size, 1, "full: a new pool holding the new string");
});
