// The comparisons every service's drift check builds its canonical forms from: two values are
// the same when their JSON is, objects compare with their keys sorted, tags compare as a sorted
// map without the ownership tags (they are the controller's, never drift: DESIGN §3.5). Forms,
// not text: toolkit/canonical-json.ts spells a value once for hashing; here the services shape
// what AWS and the spec say (SQS numbers written as strings, tags as sorted pairs) and compare.
import { isReservedTagKey } from "../api/ownership-tags.ts";
import { compareText } from "../toolkit/compare-text.ts";

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A JSON value with every object's keys sorted, at any depth; `leaf` may rewrite the other
 * values (SQS: a number written as a string).
 */
export function sortKeys(value: unknown, leaf: (value: unknown) => unknown = (v) => v): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, leaf));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => compareText(a, b))
        .map(([k, v]) => [k, sortKeys(v, leaf)]),
    );
  }
  return leaf(value);
}

/** A tag map's user tags as sorted [key, value] pairs. */
export function canonicalTagMap(tags: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(tags)
    .filter(([k]) => !isReservedTagKey(k))
    .sort(([a], [b]) => compareText(a, b));
}
