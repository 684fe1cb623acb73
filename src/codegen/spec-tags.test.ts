import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Field, FieldType } from "./field-tree.ts";
import { specTagsOf } from "./spec-tags.ts";

const string: FieldType = { t: "string" };
const field = (name: string, type: FieldType): Field => ({ name, aws: name, doc: "", type, required: false });
const pair: FieldType = { t: "object", shape: "Tag", fields: [field("key", string), field("value", string)] };

describe("where a spec holds its tags, from the tag field's type", () => {
  test("a string map (SQS), a list of {key, value} (SNS, RDS), S3's {tagSet: [...]}", () => {
    assert.deepEqual(specTagsOf(field("tags", { t: "map", value: string })), { field: "tags", shape: "map" });
    assert.deepEqual(specTagsOf(field("tags", { t: "list", item: pair })), { field: "tags", shape: "list" });
    const tagging: FieldType = {
      t: "object",
      shape: "Tagging",
      fields: [field("tagSet", { t: "list", item: pair })],
    };
    assert.deepEqual(specTagsOf(field("tagging", tagging)), { field: "tagging", shape: "tagSet" });
  });

  test("any other shape is a generator error naming the field", () => {
    assert.throws(
      () => specTagsOf(field("labels", { t: "list", item: string })),
      /spec\.labels is compared as tags/,
    );
    assert.throws(() => specTagsOf(field("tags", { t: "map", value: { t: "integer" } })), /spec\.tags/);
  });
});
