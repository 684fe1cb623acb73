import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { FairQueue } from "./fair-queue.ts";

const drain = (q: FairQueue): string[] => {
  const out: string[] = [];
  for (let k = q.shift(); k !== undefined; k = q.shift()) out.push(k);
  return out;
};

test("a burst in one namespace does not delay another namespace's key past one turn", () => {
  const q = new FairQueue();
  for (let i = 0; i < 5000; i++) q.push(`burst/r${i}`);
  q.push("lone/db");
  assert.equal(q.shift(), "burst/r0");
  assert.equal(q.shift(), "lone/db", "the lone key is next, not 5,000 keys later");
  assert.equal(q.size, 4999);
});

test("FIFO within a namespace, namespaces in turn; a returning namespace waits for the round", () => {
  const q = new FairQueue();
  for (const k of ["a/1", "a/2", "a/3", "b/1", "c/1", "c/2", "cluster-scoped"]) q.push(k);
  assert.deepEqual(drain(q), ["a/1", "b/1", "c/1", "cluster-scoped", "a/2", "c/2", "a/3"]);
  q.push("a/4");
  q.push("b/2");
  assert.equal(q.shift(), "a/4");
  q.push("a/5");
  assert.deepEqual(drain(q), ["b/2", "a/5"]);
  q.push("x/1");
  q.clear();
  assert.equal(q.size, 0);
  assert.equal(q.shift(), undefined);
});

test("property: every key pushed comes out once, per-namespace order kept, size exact", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d"), fc.boolean()), { maxLength: 200 }),
      (ops) => {
        const q = new FairQueue();
        const pushed: string[] = [];
        const out: string[] = [];
        ops.forEach(([ns, take], i) => {
          const key = `${ns}/${i}`;
          q.push(key);
          pushed.push(key);
          if (take) {
            const k = q.shift();
            if (k !== undefined) out.push(k);
          }
          assert.equal(q.size, pushed.length - out.length);
        });
        out.push(...drain(q));
        assert.deepEqual([...out].sort(), [...pushed].sort());
        for (const ns of ["a", "b", "c", "d"]) {
          const mine = (l: string[]) => l.filter((k) => k.startsWith(`${ns}/`));
          assert.deepEqual(mine(out), mine(pushed));
        }
      },
    ),
  );
});
