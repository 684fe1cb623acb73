// The comparisons every service's drift check builds its canonical forms from: two values are
// the same when their JSON is, objects compare with their keys sorted, tags compare as a sorted
// map without the ownership tags (they are the controller's, never drift: DESIGN §3.5). Forms,
// not text: toolkit/canonical-json.ts spells a value once for hashing; here the services shape
// what AWS and the spec say (SQS numbers written as strings, tags as sorted pairs) and compare.
import { isReservedTagKey } from "../api/reserved-tag-keys.ts";
import { sortKeysDeep } from "../toolkit/canonical-json.ts";
import { compareText } from "../toolkit/compare-text.ts";

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A JSON document (a policy) in a form that compares equal whatever its whitespace and key
 * order: none (absent or "") is null, text that does not parse stays as written. `leaf` may
 * rewrite the values that are neither objects nor arrays (SQS: a number written as a string).
 */
export function canonicalDocument(document: string | undefined, leaf?: (value: unknown) => unknown): unknown {
  if (document === undefined || document === "") return null;
  try {
    return sortKeysDeep(JSON.parse(document), leaf);
  } catch {
    return document;
  }
}

/** A tag map's user tags as sorted [key, value] pairs. */
export function canonicalTagMap(tags: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(tags)
    .filter(([k]) => !isReservedTagKey(k))
    .sort(([a], [b]) => compareText(a, b));
}

/**
 * A value member by member, keys sorted, with what AWS leaves out of its answers taken as none:
 * absent members, null, empty text, empty lists and empty objects. Undefined when nothing is left.
 */
export function canonicalValue(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return undefined;
  if (Array.isArray(value)) {
    const items = value.map(canonicalValue).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareText)) {
      const v = canonicalValue((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/** A number, or one written as text ("030" and 30 are 30); text that is no number stays. */
export function canonicalNumber(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : value;
}

/** A boolean, or one written as text ("True" is true); none stays none. */
export function canonicalBoolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "boolean" ? value : String(value).toLowerCase() === "true";
}

/** A list whose order and repeats do not matter, as a sorted list of its items' JSON. */
export function canonicalSet(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return [...new Set(items.map((v) => JSON.stringify(canonicalValue(v) ?? null)))].sort(compareText);
}

/** A whole number written as text ("5"; not "05") is the number a service answers with. */
export function numberFromText(value: unknown): unknown {
  return typeof value === "string" && /^(0|[1-9][0-9]{0,14})$/.test(value) ? Number(value) : value;
}

/**
 * Tags in any of the services' shapes — a map, a list of `{key, value}` (or KMS's
 * `{tagKey, tagValue}`), or S3's `{tagSet: [...]}` — as sorted [key, value] pairs without the
 * ownership tags.
 */
export function canonicalTags(tags: unknown): [string, string][] {
  if (tags === undefined || tags === null) return [];
  const list = Array.isArray(tags)
    ? tags
    : typeof tags === "object" && Array.isArray((tags as { tagSet?: unknown }).tagSet)
      ? (tags as { tagSet: unknown[] }).tagSet
      : undefined;
  if (list === undefined) return canonicalTagMap(tags as Record<string, string>);
  // fromEntries, not assignment: a tag may be named "__proto__".
  const map = Object.fromEntries(
    (list as { key?: string; value?: string; tagKey?: string; tagValue?: string }[])
      .map((t) => (t?.tagKey === undefined ? t : { key: t.tagKey, value: t.tagValue }))
      .filter((t) => t?.key !== undefined)
      .map((t): [string, string] => [t.key ?? "", t.value ?? ""]),
  );
  return canonicalTagMap(map);
}
