import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  type AllowedNamespaces,
  type CompiledAllowedNamespaces,
  compileAllowedNamespaces,
} from "./allowed-namespaces.ts";
import type { Labels } from "./label-selector.ts";

function compile(a: AllowedNamespaces | null | undefined): CompiledAllowedNamespaces {
  const r = compileAllowedNamespaces(a);
  if (!r.ok) assert.fail(`expected ${JSON.stringify(a)} to compile, got ${JSON.stringify(r.errors)}`);
  return r.allowed;
}

function warningsOf(a: unknown): readonly string[] {
  const r = compileAllowedNamespaces(a as AllowedNamespaces);
  if (!r.ok) assert.fail(`expected ${JSON.stringify(a)} to compile, got ${JSON.stringify(r.errors)}`);
  return r.warnings;
}

function errorsOf(a: unknown, path?: string): readonly string[] {
  const r = compileAllowedNamespaces(a as AllowedNamespaces, path);
  if (r.ok) assert.fail(`expected ${JSON.stringify(a)} to be rejected`);
  return r.errors;
}

// CAPA pkg/cloud/scope/session_test.go TestIsClusterPermittedToUsePrincipal. CAPA's
// `Selector: metav1.LabelSelector{}` (the zero value) is written as an absent selector.
describe("CAPA TestIsClusterPermittedToUsePrincipal", () => {
  const rows: readonly (readonly [string, AllowedNamespaces | null, string, Labels, boolean])[] = [
    [
      "All clusters are permitted to use identity if allowedNamespaces is empty",
      {},
      "default",
      undefined,
      true,
    ],
    [
      "No clusters are permitted to use identity if allowedNamespaces is nil",
      null,
      "default",
      undefined,
      false,
    ],
    [
      "A namespace is permitted if allowedNamespaces list has it",
      { list: ["match"] },
      "match",
      undefined,
      true,
    ],
    [
      "A namespace is not permitted if allowedNamespaces list does not have it",
      { list: ["nomatch"] },
      "default",
      undefined,
      false,
    ],
    [
      "A namespace is not permitted if allowedNamespaces list and selector do not have it",
      { list: ["nomatch"], selector: { matchLabels: { ns: "nomatchlabel" } } },
      "default",
      undefined,
      false,
    ],
    [
      "A namespace is not permitted if allowedNamespaces list (nil) and selector do not have it",
      { list: null, selector: { matchLabels: { ns: "nomatchlabel" } } },
      "default",
      undefined,
      false,
    ],
    [
      "A namespace is permitted if allowedNamespaces list does not have it but selector matches its label",
      { list: ["noMatch"], selector: { matchLabels: { ns: "matchlabel" } } },
      "default",
      { ns: "matchlabel" },
      true,
    ],
  ];
  for (const [name, allowed, namespace, labels, want] of rows) {
    test(name, () => assert.equal(compile(allowed).allows(namespace, labels), want));
  }
});

// The edge cases CAPA's code decides through cmp.Equal(*allowedNs, AllowedNamespaces{}) and
// selector.Empty(): see the comment at the top of allowed-namespaces.ts.
describe("CAPA edge cases: what counts as {} and what matches nothing", () => {
  const labelled: Labels = { team: "a" };
  const rows: readonly (readonly [string, AllowedNamespaces | null | undefined, "none" | "all" | "some"])[] =
    [
      ["absent", undefined, "none"],
      ["null", null, "none"],
      ["{}", {}, "all"],
      ["{list: null}", { list: null }, "all"],
      ["{selector: null}", { selector: null }, "all"],
      ["{list: null, selector: null}", { list: null, selector: null }, "all"],
      [
        "{selector: {}} (DESIGN §2.5: an empty selector matches nothing; CAPA would say all)",
        { selector: {} },
        "none",
      ],
      ["{selector: {matchLabels: null}}", { selector: { matchLabels: null } }, "none"],
      ["{list: []}", { list: [] }, "none"],
      ["{selector: {matchLabels: {}}}", { selector: { matchLabels: {} } }, "none"],
      ["{selector: {matchExpressions: []}}", { selector: { matchExpressions: [] } }, "none"],
      ["{list: [], selector: {}}", { list: [], selector: {} }, "none"],
      ["{list: [], selector: {matchLabels: {}}}", { list: [], selector: { matchLabels: {} } }, "none"],
    ];
  for (const [name, allowed, kind] of rows) {
    test(`${name} admits ${kind === "all" ? "every namespace" : "no namespace"}`, () => {
      const c = compile(allowed);
      assert.equal(c.kind, kind);
      for (const [ns, labels] of [
        ["default", undefined],
        ["shop", labelled],
        ["kube-system", {}],
      ] as const) {
        assert.equal(c.allows(ns, labels), kind === "all", `${ns}`);
      }
    });
  }

  test("an empty selector adds nothing next to a list: only the listed namespaces", () => {
    for (const selector of [{}, { matchLabels: {} }, { matchExpressions: [] }]) {
      const c = compile({ list: ["shop"], selector });
      assert.equal(c.kind, "some");
      assert.equal(c.selector, null);
      assert.equal(c.allows("shop", undefined), true);
      assert.equal(c.allows("other", { team: "a" }), false);
    }
  });

  test("an empty list adds nothing next to a selector: only the matching namespaces", () => {
    const c = compile({ list: [], selector: { matchLabels: { team: "a" } } });
    assert.equal(c.kind, "some");
    assert.deepEqual(c.namespaces, []);
    assert.equal(c.allows("shop", { team: "a" }), true);
    assert.equal(c.allows("shop", { team: "b" }), false);
  });

  test("{selector: {}} alone warns that it admits no namespace (where CAPA would admit all)", () => {
    const warnings = warningsOf({ selector: {} });
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /^allowedNamespaces\.selector: an empty selector \{\} admits NO namespace here/,
    );
    assert.deepEqual(warningsOf({}), []);
  });
});

describe("union of list and selector", () => {
  const c = compile({
    list: ["shop", "billing", "shop"],
    selector: { matchExpressions: [{ key: "team", operator: "In", values: ["a", "b"] }] },
  });

  test("a listed namespace is admitted whatever its labels", () => {
    assert.equal(c.allows("shop", undefined), true);
    assert.equal(c.allows("billing", { team: "z" }), true);
  });

  test("an unlisted namespace is admitted when its labels match the selector", () => {
    assert.equal(c.allows("web", { team: "b" }), true);
    assert.equal(c.allows("web", { team: "c" }), false);
    assert.equal(c.allows("web", undefined), false);
  });

  test("namespace names match exactly (no case folding, no prefixes)", () => {
    assert.equal(c.allows("Shop", undefined), false);
    assert.equal(c.allows("shop-dev", undefined), false);
  });

  test("exposes the parts, sorted and de-duplicated, for indexes and audits", () => {
    assert.equal(c.kind, "some");
    assert.deepEqual(c.namespaces, ["billing", "shop"]);
    assert.equal(c.selector?.toString(), "team in (a,b)");
  });

  test("an unknown Namespace (labels null) can only be admitted by the list", () => {
    const dne = compile({ selector: { matchExpressions: [{ key: "team", operator: "DoesNotExist" }] } });
    assert.equal(dne.allows("ghost", undefined), true, "a namespace without labels has no team label");
    assert.equal(dne.allows("ghost", null), false, "a namespace that is not known is not selected");
    assert.equal(c.allows("shop", null), true);
  });
});

describe("describe()", () => {
  const rows: readonly (readonly [AllowedNamespaces | null, string])[] = [
    [null, "no namespace (allowedNamespaces is not set)"],
    [{}, "every namespace (allowedNamespaces is {})"],
    [
      { selector: {} },
      "no namespace (allowedNamespaces has no list and an empty selector; an empty list or selector admits nothing)",
    ],
    [
      { list: [] },
      "no namespace (allowedNamespaces has an empty list and no selector; an empty list or selector admits nothing)",
    ],
    [
      { selector: { matchLabels: {} } },
      "no namespace (allowedNamespaces has no list and an empty selector; an empty list or selector admits nothing)",
    ],
    [{ list: ["b", "a"] }, "namespaces [a, b]"],
    [{ selector: { matchLabels: { team: "a" } } }, "namespaces with labels team=a"],
    [
      {
        list: ["b", "a"],
        selector: { matchLabels: { team: "a" }, matchExpressions: [{ key: "x", operator: "DoesNotExist" }] },
      },
      "namespaces [a, b] or namespaces with labels team=a,!x",
    ],
  ];
  for (const [allowed, text] of rows) {
    test(text, () => assert.equal(compile(allowed).describe(), text));
  }
});

describe("bad input: errors name the field, never throw", () => {
  test("an invalid selector makes the whole value invalid (fail closed), with the path", () => {
    assert.deepEqual(
      errorsOf(
        { list: ["shop"], selector: { matchExpressions: [{ key: "team", operator: "In" }] } },
        "spec.allowedNamespaces",
      ),
      ["spec.allowedNamespaces.selector.matchExpressions[0].values: must be non-empty for operator In"],
    );
  });

  const rows: readonly (readonly [unknown, readonly string[]])[] = [
    ["shop", ["allowedNamespaces: must be an object with list and/or selector"]],
    [["shop"], ["allowedNamespaces: must be an object with list and/or selector"]],
    [{ list: "shop" }, ["allowedNamespaces.list: must be a list of namespace names"]],
    [{ list: ["shop", 7] }, ["allowedNamespaces.list[1]: must be a string"]],
    [
      { selector: "team=a" },
      ["allowedNamespaces.selector: must be an object with matchLabels and/or matchExpressions"],
    ],
    [
      { selector: { matchLabels: { team: 1 } } },
      ["allowedNamespaces.selector.matchLabels[team]: must be a string"],
    ],
  ];
  for (const [input, errors] of rows) {
    test(`${JSON.stringify(input)} is rejected`, () => assert.deepEqual(errorsOf(input), errors));
  }

  test("a list entry that cannot be a namespace name is a warning: it never matches", () => {
    assert.deepEqual(warningsOf({ list: ["shop", "Shop", "a_b"] }), [
      'allowedNamespaces.list[1]: "Shop" is not a valid namespace name, so it never matches',
      'allowedNamespaces.list[2]: "a_b" is not a valid namespace name, so it never matches',
    ]);
  });

  test("never throws, whatever the input", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        compileAllowedNamespaces(input as AllowedNamespaces);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("properties", () => {
  const ns = fc.constantFrom("a", "b", "shop", "default");
  const labels = fc.option(fc.dictionary(fc.constantFrom("team", "env"), fc.constantFrom("x", "y")), {
    nil: undefined,
  });
  const allowed = fc.record(
    {
      list: fc.option(fc.array(ns, { maxLength: 3 }), { nil: null }),
      selector: fc.option(
        fc.record(
          { matchLabels: fc.dictionary(fc.constantFrom("team", "env"), fc.constantFrom("x", "y")) },
          { requiredKeys: [] },
        ),
        { nil: null },
      ),
    },
    { requiredKeys: [] },
  );

  test("kind agrees with allows(): none admits nothing, all admits everything", () => {
    fc.assert(
      fc.property(allowed, ns, labels, (a, n, l) => {
        const c = compile(a);
        if (c.kind === "none") assert.equal(c.allows(n, l), false);
        if (c.kind === "all") assert.equal(c.allows(n, l), true);
      }),
      { numRuns: 3000 },
    );
  });

  test("the list order does not change the decision or the description", () => {
    fc.assert(
      fc.property(allowed, ns, labels, (a, n, l) => {
        const b = { ...a, list: a.list ? [...a.list].reverse() : a.list };
        assert.equal(compile(a).allows(n, l), compile(b).allows(n, l));
        assert.equal(compile(a).describe(), compile(b).describe());
      }),
      { numRuns: 2000 },
    );
  });
});
