import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  type CompiledSelector,
  compileLabelSelector,
  type LabelSelector,
  type LabelSelectorRequirement,
  type Labels,
} from "./label-selector.ts";

const expr = (key: string, operator: string, values?: readonly string[]): LabelSelectorRequirement =>
  values === undefined ? { key, operator } : { key, operator, values };

function compile(s: LabelSelector | null | undefined): CompiledSelector {
  const r = compileLabelSelector(s);
  if (!r.ok) assert.fail(`expected ${JSON.stringify(s)} to compile, got ${JSON.stringify(r.errors)}`);
  return r.selector;
}

function errorsOf(s: unknown, path?: string): readonly string[] {
  const r = compileLabelSelector(s as LabelSelector, path);
  if (r.ok) assert.fail(`expected ${JSON.stringify(s)} to be rejected`);
  return r.errors;
}

// apimachinery labels/selector_test.go TestSelectorMatches, with each selector string written
// as the metav1.LabelSelector it stands for (`x=y` → matchLabels, `x!=y` → NotIn [y],
// `x` → Exists, `!x` → DoesNotExist). The `x>1` / `x<1` rows are left out: metav1.LabelSelector
// has no Gt/Lt operators.
describe("matching (apimachinery TestSelectorMatches)", () => {
  const labelset = { foo: "bar", baz: "blah" };
  const rows: readonly (readonly [string, LabelSelector, Labels, boolean])[] = [
    ["<empty>", {}, { x: "y" }, true],
    ["x=y", { matchLabels: { x: "y" } }, { x: "y" }, true],
    ["x=y,z=w", { matchLabels: { x: "y", z: "w" } }, { x: "y", z: "w" }, true],
    [
      "x!=y,z!=w",
      { matchExpressions: [expr("x", "NotIn", ["y"]), expr("z", "NotIn", ["w"])] },
      { x: "z", z: "a" },
      true,
    ],
    ["notin=in", { matchLabels: { notin: "in" } }, { notin: "in" }, true],
    ["x", { matchExpressions: [expr("x", "Exists")] }, { x: "z" }, true],
    ["!x", { matchExpressions: [expr("x", "DoesNotExist")] }, { y: "z" }, true],
    ["x=z", { matchLabels: { x: "z" } }, {}, false],
    ["x=y", { matchLabels: { x: "y" } }, { x: "z" }, false],
    ["x=y,z=w", { matchLabels: { x: "y", z: "w" } }, { x: "w", z: "w" }, false],
    [
      "x!=y,z!=w",
      { matchExpressions: [expr("x", "NotIn", ["y"]), expr("z", "NotIn", ["w"])] },
      { x: "z", z: "w" },
      false,
    ],
    ["x", { matchExpressions: [expr("x", "Exists")] }, { y: "z" }, false],
    ["!x", { matchExpressions: [expr("x", "DoesNotExist")] }, { x: "z" }, false],
    ["foo=bar", { matchLabels: { foo: "bar" } }, labelset, true],
    ["baz=blah", { matchLabels: { baz: "blah" } }, labelset, true],
    ["foo=bar,baz=blah", { matchLabels: { foo: "bar", baz: "blah" } }, labelset, true],
    ["foo=blah", { matchLabels: { foo: "blah" } }, labelset, false],
    ["baz=bar", { matchLabels: { baz: "bar" } }, labelset, false],
    [
      "foo=bar,foobar=bar,baz=blah",
      { matchLabels: { foo: "bar", foobar: "bar", baz: "blah" } },
      labelset,
      false,
    ],
  ];
  for (const [name, selector, labels, want] of rows) {
    test(`${name} ${want ? "matches" : "does not match"} ${JSON.stringify(labels)}`, () => {
      assert.equal(compile(selector).matches(labels), want);
    });
  }
});

// apimachinery labels/selector_test.go TestSetMatches (SelectorFromSet is matchLabels).
describe("matchLabels only (apimachinery TestSetMatches)", () => {
  const labelset = { foo: "bar", baz: "blah" };
  const sets: readonly Record<string, string>[] = [
    {},
    { foo: "bar" },
    { baz: "blah" },
    { foo: "bar", baz: "blah" },
  ];
  for (const set of sets) {
    test(`${JSON.stringify(set)} matches ${JSON.stringify(labelset)}`, () => {
      assert.equal(compile({ matchLabels: set }).matches(labelset), true);
    });
  }
});

// apimachinery labels/selector_test.go TestRequirementSelectorMatching. The first row (a zero
// Requirement) has no LabelSelector form, nor do the Gt rows.
describe("requirement matching (apimachinery TestRequirementSelectorMatching)", () => {
  const rows: readonly (readonly [Labels, readonly LabelSelectorRequirement[], boolean])[] = [
    [{ x: "foo", y: "baz" }, [expr("x", "In", ["foo"]), expr("y", "NotIn", ["alpha"])], true],
    [{ x: "foo", y: "baz" }, [expr("x", "In", ["foo"]), expr("y", "In", ["alpha"])], false],
    [{ y: "" }, [expr("x", "NotIn", [""]), expr("y", "Exists")], true],
    [{ y: "" }, [expr("x", "DoesNotExist"), expr("y", "Exists")], true],
    [{ y: "" }, [expr("x", "NotIn", [""]), expr("y", "DoesNotExist")], false],
    [{ y: "baz" }, [expr("x", "In", [""])], false],
  ];
  for (const [labels, exprs, want] of rows) {
    const sel = compile({ matchExpressions: exprs });
    test(`${sel.toString()} ${want ? "matches" : "does not match"} ${JSON.stringify(labels)}`, () => {
      assert.equal(sel.matches(labels), want);
    });
  }
});

describe("absent keys and label maps", () => {
  test("NotIn and DoesNotExist match when the key is absent; In and Exists do not", () => {
    const labelSets: readonly Labels[] = [{}, undefined, { other: "x" }];
    for (const labels of labelSets) {
      assert.equal(compile({ matchExpressions: [expr("team", "NotIn", ["a"])] }).matches(labels), true);
      assert.equal(compile({ matchExpressions: [expr("team", "DoesNotExist")] }).matches(labels), true);
      assert.equal(compile({ matchExpressions: [expr("team", "In", ["a"])] }).matches(labels), false);
      assert.equal(compile({ matchExpressions: [expr("team", "Exists")] }).matches(labels), false);
    }
  });

  test("an empty label value is present: Exists matches it and In ('') matches it", () => {
    assert.equal(compile({ matchExpressions: [expr("team", "Exists")] }).matches({ team: "" }), true);
    assert.equal(compile({ matchExpressions: [expr("team", "In", [""])] }).matches({ team: "" }), true);
    assert.equal(compile({ matchLabels: { team: "" } }).matches({ team: "" }), true);
    assert.equal(compile({ matchLabels: { team: "" } }).matches({}), false);
  });

  test("keys named like Object.prototype members are absent from a plain label map", () => {
    for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
      assert.equal(compile({ matchExpressions: [expr(key, "Exists")] }).matches({}), false, key);
      assert.equal(compile({ matchExpressions: [expr(key, "DoesNotExist")] }).matches({}), true, key);
      assert.equal(compile({ matchLabels: { [key]: "x" } }).matches({ [key]: "x" }), true, key);
    }
  });

  test("In with several values matches any of them", () => {
    const sel = compile({ matchExpressions: [expr("env", "In", ["dev", "test", "prod"])] });
    assert.equal(sel.matches({ env: "test" }), true);
    assert.equal(sel.matches({ env: "stage" }), false);
    const not = compile({ matchExpressions: [expr("env", "NotIn", ["dev", "test"])] });
    assert.equal(not.matches({ env: "prod" }), true);
    assert.equal(not.matches({ env: "dev" }), false);
  });

  test("matchLabels and a contradicting expression on the same key are both required (AND)", () => {
    const sel = compile({ matchLabels: { team: "a" }, matchExpressions: [expr("team", "NotIn", ["a"])] });
    assert.equal(sel.matches({ team: "a" }), false);
    assert.equal(sel.matches({ team: "b" }), false);
    const agree = compile({ matchLabels: { team: "a" }, matchExpressions: [expr("team", "In", ["a", "b"])] });
    assert.equal(agree.matches({ team: "a" }), true);
    assert.equal(agree.requirements.length, 2);
  });
});

// apimachinery pkg/apis/meta/v1/helpers_test.go TestLabelSelectorAsSelector.
describe("compiling (apimachinery TestLabelSelectorAsSelector)", () => {
  const matchLabels = { foo: "bar" };
  const matchExpressions = [expr("baz", "In", ["qux", "norf"])];

  test("nil → Nothing: matches no label set, not even an empty one", () => {
    for (const s of [null, undefined]) {
      const sel = compile(s);
      assert.equal(sel.matchesNothing, true);
      assert.equal(sel.empty, false);
      assert.equal(sel.matches({}), false);
      assert.equal(sel.matches(undefined), false);
      assert.equal(sel.matches({ x: "y" }), false);
      assert.equal(sel.toString(), "");
    }
  });

  test("{} → Everything: empty, matches every label set", () => {
    for (const s of [
      {},
      { matchLabels: {} },
      { matchExpressions: [] },
      { matchLabels: null, matchExpressions: null },
    ]) {
      const sel = compile(s);
      assert.equal(sel.empty, true);
      assert.equal(sel.matchesNothing, false);
      assert.equal(sel.matches({}), true);
      assert.equal(sel.matches(undefined), true);
      assert.equal(sel.matches({ x: "y" }), true);
      assert.equal(sel.toString(), "");
    }
  });

  const rows: readonly (readonly [LabelSelector, string])[] = [
    [{ matchLabels }, "foo=bar"],
    [{ matchExpressions }, "baz in (norf,qux)"],
    [{ matchLabels, matchExpressions }, "baz in (norf,qux),foo=bar"],
  ];
  for (const [s, text] of rows) {
    test(`${JSON.stringify(s)} → ${text}`, () => {
      const sel = compile(s);
      assert.equal(sel.empty, false);
      assert.equal(sel.toString(), text);
    });
  }

  test("Exists with values is an error", () => {
    assert.deepEqual(errorsOf({ matchExpressions: [expr("baz", "Exists", ["qux", "norf"])] }), [
      "matchExpressions[0].values: must be empty for operator Exists",
    ]);
  });

  test("compiling does not modify its input", () => {
    const input = {
      matchLabels: { b: "1", a: "2" },
      matchExpressions: [expr("z", "In", ["y", "x"]), expr("c", "Exists")],
    };
    const copy = structuredClone(input);
    compile(input);
    assert.deepEqual(input, copy);
  });
});

// apimachinery labels/selector_test.go TestToString and TestDeterministicParse. Rows with `!=`,
// `==`, `>` and `<` have no LabelSelector form; `y!=jkl` is written as NotIn and prints so.
describe("toString (apimachinery TestToString)", () => {
  const rows: readonly (readonly [LabelSelector, string])[] = [
    [
      {
        matchExpressions: [expr("x", "In", ["abc", "def"]), expr("y", "NotIn", ["jkl"]), expr("z", "Exists")],
      },
      "x in (abc,def),y notin (jkl),z",
    ],
    [
      {
        matchExpressions: [
          expr("x", "NotIn", ["abc", "def"]),
          expr("y", "NotIn", ["jkl"]),
          expr("z", "DoesNotExist"),
        ],
      },
      "x notin (abc,def),y notin (jkl),!z",
    ],
    [
      {
        matchExpressions: [
          expr("x", "NotIn", ["abc"]),
          expr("y", "In", ["jkl", "mno"]),
          expr("z", "NotIn", [""]),
        ],
      },
      "x notin (abc),y in (jkl,mno),z notin ()",
    ],
    [
      { matchLabels: { x: "abc" }, matchExpressions: [expr("z", "NotIn", ["a"]), expr("z", "Exists")] },
      "x=abc,z,z notin (a)",
    ],
  ];
  for (const [s, text] of rows) {
    test(text, () => assert.equal(compile(s).toString(), text));
  }

  test("the same requirements in any order print the same (x=a,a=x vs a=x,x=a)", () => {
    assert.equal(compile({ matchLabels: { x: "a", a: "x" } }).toString(), "a=x,x=a");
    assert.equal(compile({ matchLabels: { a: "x", x: "a" } }).toString(), "a=x,x=a");
    const e1 = [expr("k", "In", ["b", "a"]), expr("k", "Exists"), expr("j", "DoesNotExist")];
    const e2 = [expr("j", "DoesNotExist"), expr("k", "Exists"), expr("k", "In", ["a", "b"])];
    assert.equal(compile({ matchExpressions: e1 }).toString(), compile({ matchExpressions: e2 }).toString());
    assert.equal(compile({ matchExpressions: e1 }).toString(), "!j,k,k in (a,b)");
  });
});

describe("requirements (normalised, for indexes)", () => {
  test("matchLabels become In with one value; Exists/DoesNotExist have no values; sorted by key", () => {
    const sel = compile({
      matchLabels: { team: "a" },
      matchExpressions: [expr("env", "NotIn", ["prod", "dev", "prod"]), expr("audit", "Exists")],
    });
    assert.deepEqual(
      sel.requirements.map((r) => [r.key, r.operator, [...r.values].sort(), r.text]),
      [
        ["audit", "Exists", [], "audit"],
        ["env", "NotIn", ["dev", "prod"], "env notin (dev,prod)"],
        ["team", "In", ["a"], "team=a"],
      ],
    );
  });

  test("firstUnmet names the requirement that failed, for traces", () => {
    const sel = compile({ matchLabels: { team: "a", env: "prod" } });
    assert.equal(sel.firstUnmet({ team: "a", env: "prod" }), undefined);
    assert.equal(sel.firstUnmet({ team: "a", env: "dev" })?.text, "env=prod");
    assert.equal(sel.firstUnmet({ env: "prod" })?.text, "team=a");
    assert.equal(compile(null).firstUnmet({}), undefined);
  });
});

// apimachinery labels/selector_test.go TestRequirementConstructor (Gt/Lt rows omitted), and
// pkg/apis/meta/v1/validation/validation_test.go TestLabelSelectorMatchExpression.
describe("validation (apimachinery TestRequirementConstructor, TestLabelSelectorMatchExpression)", () => {
  const constructorRows: readonly (readonly [string, string, readonly string[] | undefined, boolean])[] = [
    ["x", "In", undefined, false],
    ["x", "NotIn", [], false],
    ["x", "In", ["foo"], true],
    ["x", "NotIn", ["foo"], true],
    ["x", "Exists", undefined, true],
    ["x", "DoesNotExist", undefined, true],
    ["1foo", "In", ["bar"], true],
    ["1234", "In", ["bar"], true],
    ["a".repeat(254), "Exists", undefined, false],
  ];
  for (const [key, operator, values, ok] of constructorRows) {
    test(`${key.length > 20 ? `${key.slice(0, 8)}…(${key.length})` : key} ${operator} ${JSON.stringify(values)} is ${ok ? "valid" : "invalid"}`, () => {
      assert.equal(compileLabelSelector({ matchExpressions: [expr(key, operator, values)] }).ok, ok);
    });
  }

  test("a valid selector compiles", () => {
    assert.equal(compileLabelSelector({ matchExpressions: [expr("key", "In", ["value"])] }).ok, true);
  });

  const rows: readonly (readonly [string, LabelSelectorRequirement, string])[] = [
    [
      "key name",
      expr("-key", "In", ["value"]),
      'matchExpressions[0].key: invalid label key "-key": name part must consist of',
    ],
    [
      "operator",
      expr("key", "abc", ["value"]),
      'matchExpressions[0].operator: "abc" is not a valid selector operator',
    ],
    [
      "value",
      expr("key", "In", ["-value"]),
      'matchExpressions[0].values[0]: invalid label value "-value": a valid label value must be an empty string or consist of',
    ],
  ];
  for (const [what, requirement, prefix] of rows) {
    test(`an invalid ${what} gives one error naming the field`, () => {
      const errors = errorsOf({ matchExpressions: [requirement] });
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.ok(errors[0]!.startsWith(prefix), errors[0]);
    });
  }
});

describe("validation errors name the field path", () => {
  test("In / NotIn need values; Exists / DoesNotExist must have none", () => {
    assert.deepEqual(
      errorsOf({
        matchExpressions: [
          expr("a", "Exists"),
          expr("b", "In", []),
          expr("c", "NotIn"),
          expr("d", "DoesNotExist", ["x"]),
        ],
      }),
      [
        "matchExpressions[1].values: must be non-empty for operator In",
        "matchExpressions[2].values: must be non-empty for operator NotIn",
        "matchExpressions[3].values: must be empty for operator DoesNotExist",
      ],
    );
  });

  test("the path argument prefixes every error", () => {
    assert.deepEqual(
      errorsOf({ matchExpressions: [expr("a", "in", ["x"])] }, "spec.namespaceSelector.labelSelector"),
      [
        'spec.namespaceSelector.labelSelector.matchExpressions[0].operator: "in" is not a valid selector operator (must be one of In, NotIn, Exists, DoesNotExist)',
      ],
    );
  });

  test("matchLabels keys and values are validated like labels", () => {
    assert.deepEqual(errorsOf({ matchLabels: { "bad key": "ok", good: "bad value" } }), [
      `matchLabels: invalid label key "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName', 'my.name' or '123-abc')`,
      `matchLabels[good]: invalid label value "bad value": a valid label value must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', 'my_value' or '12345')`,
    ]);
  });

  test("a key in both matchLabels and matchExpressions is fine", () => {
    assert.equal(
      compileLabelSelector({ matchLabels: { a: "b" }, matchExpressions: [expr("a", "Exists")] }).ok,
      true,
    );
  });

  test("every error is reported, not just the first", () => {
    const errors = errorsOf({
      matchLabels: { ok: "-bad" },
      matchExpressions: [expr("-k", "Nope", ["-v"]), expr("k", "In")],
    });
    assert.deepEqual(
      errors.map((e) => e.slice(0, e.indexOf(":"))),
      [
        "matchLabels[ok]",
        "matchExpressions[0].key",
        "matchExpressions[0].values[0]",
        "matchExpressions[0].operator",
        "matchExpressions[1].values",
      ],
    );
  });

  // Offline mode feeds unvalidated YAML: wrong shapes must come back as errors, never throws.
  const malformed: readonly (readonly [unknown, string])[] = [
    ["team=a", "selector: must be an object with matchLabels and/or matchExpressions"],
    [[], "selector: must be an object with matchLabels and/or matchExpressions"],
    [{ matchLabels: ["a"] }, "matchLabels: must be a map of label keys to label values"],
    [{ matchLabels: { a: 1 } }, "matchLabels[a]: must be a string"],
    [{ matchExpressions: { key: "a" } }, "matchExpressions: must be a list of requirements"],
    [{ matchExpressions: [null] }, "matchExpressions[0]: must be an object with key, operator and values"],
    [{ matchExpressions: [{ operator: "Exists" }] }, "matchExpressions[0].key: must be a string"],
    [
      { matchExpressions: [{ key: "a" }] },
      "matchExpressions[0].operator: null is not a valid selector operator",
    ],
    [
      { matchExpressions: [{ key: "a", operator: "In", values: "x" }] },
      "matchExpressions[0].values: must be a list of strings",
    ],
    [
      { matchExpressions: [{ key: "a", operator: "In", values: [1] }] },
      "matchExpressions[0].values[0]: must be a string",
    ],
  ];
  for (const [input, first] of malformed) {
    test(`${JSON.stringify(input)} is rejected: ${first}`, () => {
      const errors = errorsOf(input);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.ok(errors[0]!.startsWith(first), errors[0]);
    });
  }
});

// A reference model written straight from the semantics, to check the compiled matcher against
// random selectors and label sets.
function referenceMatches(s: LabelSelector, labels: Record<string, string>): boolean {
  const has = (k: string) => Object.hasOwn(labels, k);
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) if (!has(k) || labels[k] !== v) return false;
  for (const e of s.matchExpressions ?? []) {
    const values = e.values ?? [];
    const ok =
      e.operator === "In"
        ? has(e.key) && values.includes(labels[e.key]!)
        : e.operator === "NotIn"
          ? !has(e.key) || !values.includes(labels[e.key]!)
          : e.operator === "Exists"
            ? has(e.key)
            : !has(e.key);
    if (!ok) return false;
  }
  return true;
}

describe("properties", () => {
  const key = fc.constantFrom("a", "b", "team", "example.com/env", "constructor");
  const value = fc.constantFrom("", "x", "y", "prod");
  const requirement = fc.oneof(
    fc.record({
      key,
      operator: fc.constantFrom("In", "NotIn"),
      values: fc.array(value, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ key, operator: fc.constantFrom("Exists", "DoesNotExist") }),
  );
  const selector = fc.record(
    {
      matchLabels: fc.dictionary(key, value, { maxKeys: 3 }),
      matchExpressions: fc.array(requirement, { maxLength: 4 }),
    },
    { requiredKeys: [] },
  );
  const labels = fc.dictionary(key, value, { maxKeys: 4 });

  test("the compiled matcher agrees with the reference model", () => {
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        assert.equal(compile(s).matches(l), referenceMatches(s, l));
      }),
      { numRuns: 5000 },
    );
  });

  test("the order of matchExpressions changes neither the result nor toString()", () => {
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        const reversed = { ...s, matchExpressions: [...(s.matchExpressions ?? [])].reverse() };
        const a = compile(s);
        const b = compile(reversed);
        assert.equal(a.matches(l), b.matches(l));
        assert.equal(a.toString(), b.toString());
      }),
      { numRuns: 2000 },
    );
  });

  test("compiling never throws, whatever the input", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        compileLabelSelector(input as LabelSelector);
      }),
      { numRuns: 2000 },
    );
  });
});
