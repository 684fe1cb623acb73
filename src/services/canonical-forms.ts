// The comparisons every service's drift check builds its canonical forms from: two values are
// the same when their JSON is, objects compare with their keys sorted, tags compare as a sorted
// map without the ownership tags (they are the controller's, never drift: DESIGN §3.5). Forms,
// not text: toolkit/canonical-json.ts spells a value once for hashing; here the services shape
// what AWS and the spec say (SQS numbers written as strings, tags as sorted pairs) and compare.
import { isReservedTagKey } from "../api/ownership-tags.ts";
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
