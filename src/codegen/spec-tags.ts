// Where a kind's spec holds its tags, and in which of the three shapes ACK's kinds use: derived
// from the field its declaration compares in form "tags" and that field's AWS shape, and emitted
// into the kind's generated module (`<prefix>Declared.specTags`) for the reconciler's default
// tags (src/controller/spec-default-tags.ts). No kind list to keep: a new kind's shape comes
// from its model.
import type { Field } from "./field-tree.ts";

export interface SpecTagField {
  readonly field: string;
  /** map: {key: value}; list: [{key, value}]; tagSet: {tagSet: [{key, value}]} (S3's Tagging). */
  readonly shape: "map" | "list" | "tagSet";
  /** A list's pair members where they are not `key` and `value` (KMS's `tagKey`, `tagValue`). */
  readonly pair?: { readonly key: string; readonly value: string };
}

/** The spec tag field `field` (compared in form "tags") is, by its type; throws for another shape. */
export function specTagsOf(field: Field): SpecTagField {
  const t = field.type;
  if (t.t === "map" && t.value.t === "string") return { field: field.name, shape: "map" };
  if (t.t === "list" && isTagPair(t.item)) return { field: field.name, shape: "list" };
  const named = t.t === "list" ? namedPair(t.item) : undefined;
  if (named !== undefined) return { field: field.name, shape: "list", pair: named };
  if (t.t === "object") {
    const set = t.fields.find((f) => f.name === "tagSet");
    if (set?.type.t === "list" && isTagPair(set.type.item)) return { field: field.name, shape: "tagSet" };
  }
  throw new Error(
    `spec.${field.name} is compared as tags but is none of a string map, a list of {key, value} or {tagSet: [{key, value}]}`,
  );
}

function isTagPair(t: Field["type"]): boolean {
  if (t.t !== "object") return false;
  const names = new Set(t.fields.map((f) => f.name));
  return names.has("key") && names.has("value");
}

/** A pair of members named `<x>Key` and `<x>Value` (KMS's tagKey, tagValue). */
function namedPair(t: Field["type"]): { key: string; value: string } | undefined {
  if (t.t !== "object" || t.fields.length !== 2) return undefined;
  const key = t.fields.find((f) => /Key$/.test(f.name))?.name;
  const value = t.fields.find((f) => /Value$/.test(f.name))?.name;
  return key === undefined || value === undefined ? undefined : { key, value };
}
