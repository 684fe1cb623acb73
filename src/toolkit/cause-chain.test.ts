import assert from "node:assert/strict";
import { test } from "node:test";
import { causeChain, causeOfType } from "./cause-chain.ts";

class Inner extends Error {}

test("the chain is the error and its causes, outermost first, and ends on a cycle", () => {
  const inner = new Inner("inner");
  const outer = new Error("outer", { cause: new Error("middle", { cause: inner }) });
  assert.deepEqual(
    [...causeChain(outer)].map((e) => (e as Error).message),
    ["outer", "middle", "inner"],
  );
  assert.equal(causeOfType(outer, Inner), inner);
  assert.equal(causeOfType(new Error("alone"), Inner), undefined);
  assert.deepEqual([...causeChain("not an error")], []);
  const a: { cause?: unknown } = {};
  a.cause = a;
  assert.equal([...causeChain(a)].length, 10);
});
