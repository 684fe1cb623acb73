import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parsePerKind } from "./per-kind-flags.ts";

const served = ["Bucket", "Queue"];
const flag = "reconcile-resource-resync-seconds";

describe("per-kind reconcile flags (ACK's Kind=n)", () => {
  test("kinds match case-insensitively; the last value for a kind wins", () => {
    const r = parsePerKind(flag, ["Bucket=600", "queue=30", "bucket=900"], served);
    assert.deepEqual(r, { ok: true, value: { bucket: 900, queue: 30 } });
  });

  test("no arguments: nothing overridden", () => {
    assert.deepEqual(parsePerKind(flag, [], served), { ok: true, value: {} });
  });

  test("each malformed argument is named with the fix", () => {
    const cases: [string, RegExp][] = [
      ["Bucket", /expected exactly one =/],
      ["Bucket=1=2", /expected exactly one =/],
      ["=60", /the kind is missing \(served: Bucket, Queue\)/],
      ["Table=60", /Table is not a kind this controller serves \(served: Bucket, Queue\)/],
      ["Bucket=0", /0 is not a positive whole number/],
      ["Bucket=1.5", /1\.5 is not a positive whole number/],
      ["Bucket=", /\(empty\) is not a positive whole number/],
    ];
    for (const [arg, why] of cases) {
      const r = parsePerKind(flag, [arg], served);
      assert.equal(r.ok, false, arg);
      assert.ok(!r.ok);
      assert.match(r.message, why);
      assert.match(r.message, new RegExp(`^--${flag} ${arg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `));
      assert.match(r.message, /write Kind=number, e\.g\. --reconcile-resource-resync-seconds Bucket=600$/);
    }
  });
});
