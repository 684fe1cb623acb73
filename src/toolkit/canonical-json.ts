// Canonical JSON: one spelling per value, whatever the order its object keys were written in.
// Cache keys (credentials), "are these two listed copies the same object" (resolver) and "is
// this what the apiserver already stores" compare or hash this text; `sortKeysDeep` is the same
// order as data (CRD YAML, services' JSON documents). Pure and import-free, so the pure resolver
// and src/api may use it.

/** Plain JSON data, for callers that want the compiler to keep other things out. */
export type Json =
  | null
  | boolean
  | number
  | string
  | readonly Json[]
  | { readonly [k: string]: Json | undefined };

export interface CanonicalJsonOptions {
  /**
   * Leave out object members whose value is null, as the apiserver prunes them from objects it
   * stores (default false: null is spelled `null`).
   */
  readonly omitNullMembers?: boolean;
}

/**
 * JSON as `JSON.stringify` spells it, with object keys sorted (by UTF-16 code unit) at every
 * level: members whose value is undefined (or a function or symbol) are left out, and are
 * `null` in arrays; `undefined` itself is `null`. Total on anything, because it also runs on
 * unvalidated input: a bigint is the string `"<n>n"`, a reference back to an enclosing object or
 * array is `"(cycle)"`. `toJSON` is not called (plain data only: a Date is `{}`).
 */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  return canonical(value, [], options.omitNullMembers === true) ?? "null";
}

/** The text of `value`, or undefined for what JSON cannot spell (left out of objects). */
function canonical(value: unknown, stack: unknown[], omitNulls: boolean): string | undefined {
  if (typeof value === "bigint") return `"${value}n"`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (stack.includes(value)) return '"(cycle)"';
  stack.push(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((v: unknown) => canonical(v, stack, omitNulls) ?? "null").join(",")}]`;
  } else {
    const record = value as Readonly<Record<string, unknown>>;
    const parts: string[] = [];
    for (const k of Object.keys(record).sort()) {
      const v = record[k];
      if (v === null && omitNulls) continue;
      const member = canonical(v, stack, omitNulls);
      if (member !== undefined) parts.push(`${JSON.stringify(k)}:${member}`);
    }
    text = `{${parts.join(",")}}`;
  }
  stack.pop();
  return text;
}

/**
 * `value` with every object's keys sorted (by UTF-16 code unit, as `canonicalJson` spells them)
 * at any depth, as data rather than text: for output whose key order must not depend on how it
 * was built (CRD YAML) and for comparing JSON documents. `leaf` may rewrite the values that are
 * neither objects nor arrays (SQS: a number written as a string). Plain data only, no cycles.
 */
export function sortKeysDeep(value: unknown, leaf: (value: unknown) => unknown = (v) => v): unknown {
  if (Array.isArray(value)) return value.map((v: unknown) => sortKeysDeep(v, leaf));
  if (typeof value === "object" && value !== null) {
    const record = value as Readonly<Record<string, unknown>>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, sortKeysDeep(record[k], leaf)]),
    );
  }
  return leaf(value);
}
