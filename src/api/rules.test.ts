import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import {
  celRulesOf,
  describeIssues,
  fieldPathSegments,
  immutable,
  listMap,
  listSet,
  withRules,
} from "./rules.ts";
import { toStructuralSchema } from "./structural.ts";

const even = withRules(z.number(), {
  cel: "self % 2 == 0",
  message: "n must be even; add one",
  check: (n) => n % 2 === 0,
});

describe("withRules", () => {
  test("one rule gives a zod check and the same CEL rule", () => {
    assert.equal(even.safeParse(4).success, true);
    const result = even.safeParse(3);
    assert.equal(result.success, false);
    assert.deepEqual(result.success ? [] : describeIssues(result.error), ["n must be even; add one"]);
    assert.deepEqual(toStructuralSchema(even)["x-kubernetes-validations"], [
      { rule: "self % 2 == 0", message: "n must be even; add one" },
    ]);
  });

  test("rules added in two steps accumulate, and survive .optional() and .describe()", () => {
    const small = withRules(even, { cel: "self < 10", message: "n must be below 10", check: (n) => n < 10 });
    assert.deepEqual(
      celRulesOf(small).map((r) => r.rule),
      ["self % 2 == 0", "self < 10"],
    );
    assert.deepEqual(
      celRulesOf(even).length,
      1,
      "the refined schema is a new schema; the original is unchanged",
    );
    const wrapped = z.object({ n: small.describe("a number").optional() });
    const n = toStructuralSchema(wrapped).properties?.["n"];
    assert.equal(n?.description, "a number");
    assert.equal(n?.["x-kubernetes-validations"]?.length, 2);
    assert.deepEqual(describeIssues((wrapped.safeParse({ n: 13 }) as { error: z.ZodError }).error), [
      "n: n must be even; add one",
      "n: n must be below 10",
    ]);
  });

  test("messageOf words the message from the value: messageExpression for CEL, the same words in zod", () => {
    const small = withRules(z.number(), {
      cel: "self < 10",
      message: "n must be below 10",
      messageOf: {
        cel: "'n is ' + string(self) + ', must be below 10'",
        zod: (n) => `n is ${n}, must be below 10`,
      },
      check: (n) => n < 10,
    });
    const result = small.safeParse(12);
    assert.deepEqual(result.success ? [] : describeIssues(result.error), ["n is 12, must be below 10"]);
    assert.deepEqual(toStructuralSchema(small)["x-kubernetes-validations"], [
      {
        rule: "self < 10",
        message: "n must be below 10",
        messageExpression: "'n is ' + string(self) + ', must be below 10'",
      },
    ]);
  });

  test("fieldPath places the zod issue and is kept in the CEL rule", () => {
    const pair = withRules(z.object({ a: z.number(), b: z.number() }), {
      cel: "self.a <= self.b",
      message: "b must not be below a",
      fieldPath: ".b",
      check: (p) => p.a <= p.b,
    });
    const result = pair.safeParse({ a: 2, b: 1 });
    assert.deepEqual(result.success ? [] : describeIssues(result.error, ["spec"]), [
      "spec.b: b must not be below a",
    ]);
    assert.deepEqual(toStructuralSchema(pair)["x-kubernetes-validations"], [
      { rule: "self.a <= self.b", message: "b must not be below a", fieldPath: ".b" },
    ]);
  });

  test("issuePath overrides where zod reports a rule CEL reports at the root", () => {
    const named = withRules(z.object({ metadata: z.object({ name: z.string() }) }), {
      cel: "self.metadata.name == 'default'",
      message: "metadata.name must be 'default'",
      issuePath: ["metadata", "name"],
      check: (o) => o.metadata.name === "default",
    });
    const result = named.safeParse({ metadata: { name: "x" } });
    assert.deepEqual(result.success ? [] : describeIssues(result.error), [
      "metadata.name: metadata.name must be 'default'",
    ]);
    assert.equal(toStructuralSchema(named)["x-kubernetes-validations"]?.[0]?.fieldPath, undefined);
  });
});

test("fieldPathSegments splits a CEL fieldPath", () => {
  assert.deepEqual(fieldPathSegments(undefined), []);
  assert.deepEqual(fieldPathSegments(".spec.sourceIdentityRef"), ["spec", "sourceIdentityRef"]);
});

test("immutable adds a transition rule and no zod check (zod never sees the old object)", () => {
  const arn = immutable(z.string(), "arn is immutable");
  assert.equal(arn.safeParse("anything").success, true);
  assert.deepEqual(celRulesOf(arn), [{ rule: "self == oldSelf", message: "arn is immutable" }]);
});

test("listSet rejects duplicates in zod and marks the list a set for the apiserver", () => {
  const names = listSet(z.array(z.string()), "names must not repeat");
  assert.equal(names.safeParse(["a", "b"]).success, true);
  const result = names.safeParse(["a", "b", "a"]);
  assert.deepEqual(result.success ? [] : describeIssues(result.error, ["names"]), [
    "names[2]: names must not repeat",
  ]);
  assert.equal(toStructuralSchema(names)["x-kubernetes-list-type"], "set");
});

test("listMap rejects a repeated key in zod and marks the list a map keyed by it", () => {
  const tags = listMap(
    z.array(z.object({ key: z.string(), value: z.string() })),
    "key",
    "tags must not repeat a key",
  );
  const ok = tags.safeParse([
    { key: "a", value: "1" },
    { key: "b", value: "1" },
  ]);
  assert.equal(ok.success, true);
  const result = tags.safeParse([
    { key: "a", value: "1" },
    { key: "a", value: "2" },
  ]);
  assert.deepEqual(result.success ? [] : describeIssues(result.error, ["tags"]), [
    "tags[1]: tags must not repeat a key",
  ]);
  const json = toStructuralSchema(tags);
  assert.equal(json["x-kubernetes-list-type"], "map");
  assert.deepEqual(json["x-kubernetes-list-map-keys"], ["key"]);
});

test("describeIssues renders paths like the apiserver", () => {
  const schema = z.object({ spec: z.object({ list: z.array(z.object({ name: z.string() })) }) });
  const result = schema.safeParse({ spec: { list: [{ name: "a" }, { name: 1 }] } });
  assert.deepEqual(result.success ? [] : describeIssues(result.error), [
    "spec.list[1].name: Invalid input: expected string, received number",
  ]);
});
