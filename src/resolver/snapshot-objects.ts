// Helpers for turning listed raw objects into trustworthy input: reading names from objects of
// unknown shape, collapsing repeated listings, and turning schema issues into problems.
// The snapshot must not depend on list order, so "which copy wins" is never decided by order:
// identical copies collapse, differing copies are all excluded and reported. Copies are compared
// by canonical JSON (src/toolkit/canonical-json.ts: pure, and total on anything a YAML or JSON
// parser can produce, self-references and bigints included).

import type { z } from "zod";
import { canonicalJson } from "../toolkit/canonical-json.ts";
import { compareText } from "../toolkit/compare-text.ts";
import type { ObjectRef, SnapshotProblem } from "./types.ts";

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads kind/name/namespace from anything; fields that are not strings come back empty. */
export function objectRefOf(raw: unknown, fallbackKind: string): ObjectRef {
  const obj = isRecord(raw) ? raw : {};
  const meta = isRecord(obj["metadata"]) ? obj["metadata"] : {};
  const kind = typeof obj["kind"] === "string" && obj["kind"] !== "" ? obj["kind"] : fallbackKind;
  const name = typeof meta["name"] === "string" ? meta["name"] : "";
  const namespace =
    typeof meta["namespace"] === "string" && meta["namespace"] !== "" ? meta["namespace"] : undefined;
  return namespace === undefined ? { kind, name } : { kind, name, namespace };
}

export function describeRef(ref: ObjectRef): string {
  const name = ref.name === "" ? "(unnamed)" : ref.name;
  return ref.namespace === undefined ? `${ref.kind} ${name}` : `${ref.kind} ${ref.namespace}/${name}`;
}

export interface Deduplicated {
  /** One object per key, sorted by key. */
  readonly unique: readonly unknown[];
  /** Keys listed more than once with different content → the ref to report. */
  readonly conflicting: readonly ObjectRef[];
}

/**
 * Groups objects by `keyOf` (null = unreadable, dropped by the caller beforehand). Copies with
 * identical content collapse to one; a key whose copies differ is dropped entirely, because
 * picking one would make the result depend on the order of the list.
 */
function deduplicate(
  objects: readonly unknown[],
  keyOf: (raw: unknown) => string,
  refOf: (raw: unknown) => ObjectRef,
): Deduplicated {
  const groups = new Map<string, unknown[]>();
  for (const raw of objects) {
    const key = keyOf(raw);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [raw]);
    else group.push(raw);
  }
  const unique: unknown[] = [];
  const conflicting: ObjectRef[] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    if (group.length === 1) {
      unique.push(group[0]);
      continue;
    }
    const first = canonicalJson(group[0]);
    if (group.every((raw) => canonicalJson(raw) === first)) unique.push(group[0]);
    else conflicting.push(refOf(group[0]));
  }
  return { unique, conflicting };
}

/** The problem for an object listed twice with different content. */
function duplicateProblem(ref: ObjectRef, consequence: string): SnapshotProblem {
  return {
    object: ref,
    field: "metadata.name",
    severity: "error",
    message: `${describeRef(ref)} is listed more than once with different content; ${consequence}`,
    fix: `keep exactly one ${ref.kind} named ${ref.name || "(unnamed)"}`,
  };
}

/**
 * `deduplicate`, reporting each key whose copies differ as a problem that ends in `consequence`
 * (what happens to the object meanwhile).
 */
export function deduplicateReporting(
  objects: readonly unknown[],
  keyOf: (raw: unknown) => string,
  refOf: (raw: unknown) => ObjectRef,
  consequence: string,
  problems: SnapshotProblem[],
): Deduplicated {
  const deduplicated = deduplicate(objects, keyOf, refOf);
  for (const ref of deduplicated.conflicting) problems.push(duplicateProblem(ref, consequence));
  return deduplicated;
}

/** Why an object whose copies differ is invalid, as the `invalid` maps of the snapshot say it. */
export const listedTwiceReason = "it is listed more than once with different content";

/** Why an object that failed to compile is invalid: the first problem compiling it added, if any. */
export function invalidReason(problems: readonly SnapshotProblem[], before: number): string {
  const first = problems[before];
  return first === undefined ? "it is invalid" : `it is invalid (${first.message})`;
}

/** Longest value a problem quotes; a whole spec pasted into an Event helps nobody. */
const maxValueLength = 256;

/** A problem's `value`: strings as written, anything else as canonical JSON, bounded. */
export function problemValue(value: unknown): string {
  const text = typeof value === "string" ? value : canonicalJson(value);
  return text.length <= maxValueLength ? text : `${text.slice(0, maxValueLength - 1)}…`;
}

/** The value at a schema issue's path in the raw object, or undefined when the path is absent. */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let node = raw;
  for (const segment of path) {
    if (typeof node !== "object" || node === null || typeof segment === "symbol") return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function pathText(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/**
 * One problem per schema issue, naming the field and quoting the value found there (from `raw`,
 * the object that failed); `consequence` says what happens to the object.
 */
export function issueProblems(
  ref: ObjectRef,
  error: z.ZodError,
  consequence: string,
  raw?: unknown,
): SnapshotProblem[] {
  return error.issues.map((issue) => {
    const field = pathText(issue.path);
    const value = field === "" ? undefined : valueAt(raw, issue.path);
    return {
      object: ref,
      field: field === "" ? "(object)" : field,
      severity: "error",
      message: `${describeRef(ref)}: ${field === "" ? "" : `${field}: `}${issue.message}`,
      fix: `correct ${field === "" ? "the object" : field}; ${consequence}`,
      ...(value === undefined ? {} : { value: problemValue(value) }),
    };
  });
}

/** Total order on problems, so the list reads the same whatever the input order. */
export function compareProblems(a: SnapshotProblem, b: SnapshotProblem): number {
  return (
    compareText(a.object.kind, b.object.kind) ||
    compareText(a.object.namespace ?? "", b.object.namespace ?? "") ||
    compareText(a.object.name, b.object.name) ||
    compareText(a.field, b.field) ||
    compareText(a.severity, b.severity) ||
    compareText(a.message, b.message) ||
    compareText(a.fix, b.fix) ||
    compareText(a.value ?? "", b.value ?? "") ||
    compareText(a.reason ?? "", b.reason ?? "")
  );
}
