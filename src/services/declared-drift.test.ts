import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DeclaredFieldGroups } from "../codegen/drift-rules.ts";
import {
  attributeWhenAbsent,
  canonicalForm,
  comparedFields,
  declaredDrift,
  fieldsSetBy,
  ruleOf,
  sameByRule,
} from "./declared-drift.ts";

// A kind's generated table, as scripts/generate-kinds.ts writes one.
const groups = {
  create: "CreateThing",
  createFields: [],
  groups: [
    {
      set: "SetThingAttributes",
      read: "GetThingAttributes",
      fields: [
        { field: "delay", absent: "kept", form: "number" },
        { field: "policy", absent: "none", form: "document" },
        { field: "dedupe", absent: "none", default: "false", form: "boolean" },
        { field: "keyID", absent: "none", form: "value" },
        { field: "window", absent: "kept", form: "caseInsensitive" },
        { field: "groups", absent: "kept", form: "set" },
        { field: "version", absent: "kept", form: "value", custom: "one-way" },
      ],
    },
    {
      set: "TagThing",
      read: "ListThingTags",
      remove: "UntagThing",
      fields: [{ field: "tags", absent: "none", form: "tags" }],
    },
  ],
  notCompared: { password: "a Secret" },
} as const satisfies DeclaredFieldGroups;

interface Thing {
  delay?: string;
  policy?: string;
  dedupe?: string;
  keyID?: string;
  window?: string;
  groups?: string[];
  version?: string;
  tags?: Record<string, string> | { key: string; value: string }[];
}

const diff = declaredDrift<Thing, typeof groups>(groups, {
  version: (d, o) => d.version === undefined || (o.version ?? "").startsWith(d.version),
});
const fields = (d: Thing, o: Thing) => diff(d, o).map((x) => x.field);

describe("declaredDrift", () => {
  it("finds nothing when spec and AWS agree in their forms", () => {
    assert.deepEqual(
      fields(
        {
          delay: "030",
          policy: '{"b": 1, "a": "5"}',
          dedupe: "true",
          keyID: "k",
          window: "Mon:03:00-Mon:04:00",
          groups: ["sg-2", "sg-1", "sg-1"],
          version: "16",
          tags: { team: "a" },
        },
        {
          delay: "30",
          policy: '{"a":5,"b":1}',
          dedupe: "True",
          keyID: "k",
          window: "mon:03:00-mon:04:00",
          groups: ["sg-1", "sg-2"],
          version: "16.4",
          tags: [
            { key: "team", value: "a" },
            { key: "services.k8s.aws/namespace", value: "x" },
          ],
        },
      ),
      [],
    );
  });

  it("reports each differing field in the declared order, with its path and both values", () => {
    assert.deepEqual(diff({ delay: "5", keyID: "k" }, { delay: "6" }), [
      { field: "delay", path: "spec.delay", desired: "5", observed: "6" },
      { field: "keyID", path: "spec.keyID", desired: "k", observed: undefined },
    ]);
  });

  it("kept: a field the spec leaves out is never drift; none: AWS's value is", () => {
    assert.deepEqual(fields({}, { delay: "6", window: "x", groups: ["a"], keyID: "k", policy: "{}" }), [
      "policy",
      "keyID",
    ]);
  });

  it("a default stands for either side's silence", () => {
    assert.deepEqual(fields({}, { dedupe: "false" }), []);
    assert.deepEqual(fields({ dedupe: "false" }, {}), []);
    assert.deepEqual(fields({}, { dedupe: "true" }), ["dedupe"]);
  });

  it("a custom field is the hook's to judge", () => {
    assert.deepEqual(fields({ version: "16" }, { version: "17.1" }), ["version"]);
    assert.deepEqual(fields({ version: "16" }, { version: "16.9" }), []);
  });

  it("tags are user tags: the ownership tags are never drift, a tag the spec lacks is", () => {
    assert.deepEqual(fields({}, { tags: { "services.k8s.aws/namespace": "x" } }), []);
    assert.deepEqual(fields({}, { tags: { extra: "1" } }), ["tags"]);
  });

  it("refuses to build without a hook for a custom field", () => {
    assert.throws(
      () => declaredDrift<Thing, typeof groups>(groups, {} as never),
      /spec.version is declared custom but has no hook/,
    );
  });
});

describe("the table's views", () => {
  it("lists the compared fields in order, and a call's fields", () => {
    assert.deepEqual(comparedFields(groups), [
      "delay",
      "policy",
      "dedupe",
      "keyID",
      "window",
      "groups",
      "version",
      "tags",
    ]);
    assert.deepEqual(fieldsSetBy(groups, "TagThing"), ["tags"]);
  });

  it("says what an attribute map is sent for a field the spec leaves out", () => {
    assert.equal(attributeWhenAbsent(ruleOf(groups, "delay")), undefined);
    assert.equal(attributeWhenAbsent(ruleOf(groups, "dedupe")), "false");
    assert.equal(attributeWhenAbsent(ruleOf(groups, "keyID")), "");
  });
});

describe("canonical forms", () => {
  it("value: absent members, empty text, lists and objects are none; key order does not matter", () => {
    assert.equal(sameByRule({ absent: "none", form: "value" }, { a: { b: [] }, c: "" }, undefined), true);
    assert.equal(sameByRule({ absent: "none", form: "value" }, { x: 1, y: 2 }, { y: 2, x: 1 }), true);
    assert.equal(sameByRule({ absent: "none", form: "value" }, [1, 2], [2, 1]), false);
  });

  it("document: text that is no JSON compares as written", () => {
    assert.deepEqual(canonicalForm("document", "not json"), "not json");
    assert.deepEqual(canonicalForm("document", ""), null);
    // A leading zero is no number: account IDs stay text.
    assert.deepEqual(canonicalForm("document", '{"a":"012"}'), { a: "012" });
  });

  it("number and boolean accept the text forms", () => {
    assert.equal(canonicalForm("number", "030"), 30);
    assert.equal(canonicalForm("number", "x"), "x");
    assert.equal(canonicalForm("boolean", "TRUE"), true);
    assert.equal(canonicalForm("boolean", false), false);
    assert.equal(canonicalForm("boolean", undefined), null);
  });

  it("set: order and repeats do not matter", () => {
    assert.deepEqual(canonicalForm("set", ["b", "a", "b"]), canonicalForm("set", ["a", "b"]));
    assert.deepEqual(canonicalForm("set", undefined), []);
  });

  it("tags: a map, a list and S3's tagSet compare alike", () => {
    const want = [["k", "v"]];
    assert.deepEqual(canonicalForm("tags", { k: "v" }), want);
    assert.deepEqual(canonicalForm("tags", [{ key: "k", value: "v" }]), want);
    assert.deepEqual(canonicalForm("tags", { tagSet: [{ key: "k", value: "v" }] }), want);
  });
});

describe("tags named like Object's own members", () => {
  it("a tag named __proto__ is a tag like any other", () => {
    const rule = { absent: "none", form: "tags" } as const;
    assert.equal(sameByRule(rule, [{ key: "__proto__", value: "" }], undefined), false);
    assert.equal(
      sameByRule(rule, { tagSet: [{ key: "__proto__", value: "x" }] }, [{ key: "__proto__", value: "x" }]),
      true,
    );
  });
});
