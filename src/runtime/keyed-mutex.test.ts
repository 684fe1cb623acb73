import assert from "node:assert/strict";
import { test } from "node:test";
import { KeyedMutex } from "./keyed-mutex.ts";

/** A promise the test resolves by hand, to hold a key open. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

test("callers on one key run one after the other, in arrival order", async () => {
  const m = new KeyedMutex();
  const order: string[] = [];
  const first = gate();
  const a = m.run("k", async () => {
    order.push("a start");
    await first.promise;
    order.push("a end");
  });
  const b = m.run("k", async () => {
    order.push("b");
  });
  await Promise.resolve();
  assert.deepEqual(order, ["a start"], "b waits while a holds the key");
  first.open();
  await Promise.all([a, b]);
  assert.deepEqual(order, ["a start", "a end", "b"]);
  assert.equal(m.size, 0, "nothing is kept once the key is free");
});

test("different keys do not wait for each other", async () => {
  const m = new KeyedMutex();
  const held = gate();
  const a = m.run("a", () => held.promise);
  assert.equal(await m.run("b", async () => "b ran"), "b ran");
  held.open();
  await a;
});

test("a failing holder releases the key and its error reaches only its caller", async () => {
  const m = new KeyedMutex();
  await assert.rejects(
    m.run("k", async () => {
      throw new Error("boom");
    }),
    /boom/,
  );
  assert.equal(await m.run("k", async () => 42), 42);
  assert.equal(m.size, 0);
});
