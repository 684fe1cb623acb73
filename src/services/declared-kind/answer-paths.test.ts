import assert from "node:assert/strict";
import { test } from "node:test";
import { valueAt } from "./answer-paths.ts";

test("a path reads through structures, a list's first item and every item's", () => {
  const item = {
    Endpoint: { Port: 5432 },
    Groups: [{ Name: "a" }, { Name: "b" }, {}],
    Empty: [],
  };
  assert.equal(valueAt(item, "Endpoint.Port"), 5432);
  assert.equal(valueAt(item, "Groups[0].Name"), "a");
  assert.equal(valueAt(item, "Groups[1].Name"), "b");
  assert.deepEqual(valueAt(item, "Groups[].Name"), ["a", "b"]);
  assert.equal(valueAt(item, "Empty[0].Name"), undefined);
  assert.deepEqual(valueAt(item, "Empty[].Name"), []);
  assert.equal(valueAt(item, "Missing.Port"), undefined);
  assert.equal(valueAt(item, "Endpoint.Address"), undefined);
  assert.equal(valueAt({ Endpoint: null }, "Endpoint.Port"), undefined);
});
