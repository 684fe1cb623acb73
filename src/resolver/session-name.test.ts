import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { defaultSessionName, isValidSessionName, sanitizeSessionName } from "./session-name.ts";

const cases: readonly [string, string][] = [
  ["crossrole-shop", "crossrole-shop"],
  ["a b/c:d", "a-b-c-d"],
  ["x", "x-"],
  ["", "--"],
  ["user+tag=1,2.3@host_name-x", "user+tag=1,2.3@host_name-x"],
  ["é", "--"],
  ["a".repeat(80), "a".repeat(64)],
];
for (const [input, expected] of cases) {
  test(`sanitizeSessionName(${JSON.stringify(input.length > 20 ? `${input.slice(0, 10)}…` : input)}) = ${JSON.stringify(expected.length > 20 ? `${expected.slice(0, 10)}…` : expected)}`, () => {
    assert.equal(sanitizeSessionName(input), expected);
  });
}

test("defaultSessionName reads as crossrole-<subject>", () => {
  assert.equal(defaultSessionName("shop"), "crossrole-shop");
  assert.equal(defaultSessionName("team a"), "crossrole-team-a");
});

test("any text sanitises to a name STS accepts", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) =>
      isValidSessionName(sanitizeSessionName(text)),
    ),
    { numRuns: 2000 },
  );
});

test("isValidSessionName follows [\\w+=,.@-]{2,64}", () => {
  assert.equal(isValidSessionName("ok"), true);
  assert.equal(isValidSessionName("o"), false);
  assert.equal(isValidSessionName("has space"), false);
  assert.equal(isValidSessionName("a".repeat(65)), false);
});
