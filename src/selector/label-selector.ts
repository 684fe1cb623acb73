// Kubernetes label selectors (metav1.LabelSelector) with apimachinery's semantics:
// - matchLabels and matchExpressions are ANDed; each matchLabels entry is an equality test;
// - In: the key is present with one of the values; NotIn: the key is absent or has none of them;
//   Exists / DoesNotExist: the key is present / absent;
// - `{}` (no requirements) matches every label set; a null/undefined selector matches nothing
//   (metav1.LabelSelectorAsSelector(nil) is labels.Nothing()).
// Compiling validates once and builds a matcher that allocates nothing, because the resolver
// evaluates selectors for every resource against every candidate.

import { labelKeyErrors, labelValueErrors } from "./label-syntax.ts";

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | null;
}

export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorRequirement[] | null;
}

/** An object's labels. Values are strings, as the Kubernetes API guarantees. */
export type Labels = Readonly<Record<string, string>> | undefined;

export type RequirementOperator = "In" | "NotIn" | "Exists" | "DoesNotExist";

/**
 * One normalised requirement. A matchLabels entry `k: v` becomes `{key: k, operator: "In",
 * values: {v}}` (same meaning as apimachinery's Equals), so an index on key=value equality
 * only has to look at `In` requirements with one value.
 */
export interface Requirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  /** Empty for Exists / DoesNotExist. */
  readonly values: ReadonlySet<string>;
  /** apimachinery's String() of this requirement: `k=v`, `k in (a,b)`, `k notin (a)`, `k`, `!k`. */
  readonly text: string;
}

export interface CompiledSelector {
  matches(labels: Labels): boolean;
  /** The first requirement (in `requirements` order) `labels` does not meet; undefined if all are met. */
  firstUnmet(labels: Labels): Requirement | undefined;
  /** True for `{}`: no requirements, matches every label set. */
  readonly empty: boolean;
  /** True for a null/undefined selector: matches no label set (apimachinery's labels.Nothing()). */
  readonly matchesNothing: boolean;
  /** Sorted by key (then text), as apimachinery sorts them; deterministic whatever the input order. */
  readonly requirements: readonly Requirement[];
  /** apimachinery's String(): requirements joined with ",", e.g. `a=b,c in (x,y),!d`; "" when it has none. */
  toString(): string;
}

export type CompileSelectorResult =
  | { readonly ok: true; readonly selector: CompiledSelector }
  | { readonly ok: false; readonly errors: readonly string[] };

const OPERATORS: readonly RequirementOperator[] = ["In", "NotIn", "Exists", "DoesNotExist"];

// Numeric operator codes keep the matching loop a monomorphic switch on small integers.
const OP_IN = 0;
const OP_NOT_IN = 1;
const OP_EXISTS = 2;
const OP_DOES_NOT_EXIST = 3;
const OP_CODE: Readonly<Record<RequirementOperator, number>> = {
  In: OP_IN,
  NotIn: OP_NOT_IN,
  Exists: OP_EXISTS,
  DoesNotExist: OP_DOES_NOT_EXIST,
};

/** What the matcher evaluates per requirement; every check has the same shape. */
interface Check {
  readonly key: string;
  readonly op: number;
  /** The value when the set has exactly one (string compare beats Set.has), else null. */
  readonly single: string | null;
  readonly set: ReadonlySet<string>;
}

class Compiled implements CompiledSelector {
  readonly empty: boolean;
  readonly matchesNothing: boolean;
  readonly requirements: readonly Requirement[];
  readonly #checks: readonly Check[];
  readonly #text: string;

  constructor(requirements: readonly Requirement[], matchesNothing: boolean) {
    this.requirements = requirements;
    this.matchesNothing = matchesNothing;
    this.empty = !matchesNothing && requirements.length === 0;
    this.#checks = requirements.map((r) => ({
      key: r.key,
      op: OP_CODE[r.operator],
      single: r.values.size === 1 ? (r.values.values().next().value as string) : null,
      set: r.values,
    }));
    this.#text = requirements.map((r) => r.text).join(",");
  }

  matches(labels: Labels): boolean {
    if (this.matchesNothing) return false;
    return this.#firstUnmetIndex(labels) < 0;
  }

  firstUnmet(labels: Labels): Requirement | undefined {
    if (this.matchesNothing) return undefined;
    const i = this.#firstUnmetIndex(labels);
    return i < 0 ? undefined : this.requirements[i];
  }

  toString(): string {
    return this.#text;
  }

  #firstUnmetIndex(labels: Labels): number {
    const checks = this.#checks;
    for (let i = 0; i < checks.length; i++) {
      const c = checks[i]!;
      // `typeof === "string"` rather than `!== undefined`: a label key such as `constructor`
      // must not find Object.prototype's members on a plain-object label map.
      const raw = labels == null ? undefined : labels[c.key];
      const value = typeof raw === "string" ? raw : undefined;
      let met: boolean;
      switch (c.op) {
        case OP_IN:
          met = value !== undefined && (c.single !== null ? value === c.single : c.set.has(value));
          break;
        case OP_NOT_IN:
          met = value === undefined || (c.single !== null ? value !== c.single : !c.set.has(value));
          break;
        case OP_EXISTS:
          met = value !== undefined;
          break;
        default:
          met = value === undefined;
      }
      if (!met) return i;
    }
    return -1;
  }
}

const NOTHING = new Compiled([], true);
const EVERYTHING = new Compiled([], false);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function join(path: string, field: string): string {
  return path === "" ? field : `${path}.${field}`;
}

function requirementText(
  key: string,
  operator: RequirementOperator,
  values: ReadonlySet<string>,
  eq: boolean,
): string {
  if (operator === "Exists") return key;
  if (operator === "DoesNotExist") return `!${key}`;
  const sorted = [...values].sort();
  if (eq) return `${key}=${sorted[0]}`;
  return `${key} ${operator === "In" ? "in" : "notin"} (${sorted.join(",")})`;
}

function byKeyThenText(a: Requirement, b: Requirement): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

/**
 * Validates and compiles a label selector. `path` prefixes every error's field path
 * (e.g. `spec.namespaceSelector.labelSelector`). Never throws, whatever `s` holds (it may come
 * straight from an unvalidated YAML file).
 */
export function compileLabelSelector(s: LabelSelector | null | undefined, path = ""): CompileSelectorResult {
  if (s === null || s === undefined) return { ok: true, selector: NOTHING };
  if (!isPlainObject(s)) {
    return {
      ok: false,
      errors: [`${path || "selector"}: must be an object with matchLabels and/or matchExpressions`],
    };
  }
  const errors: string[] = [];
  const requirements: Requirement[] = [];

  const labelsPath = join(path, "matchLabels");
  const matchLabels: unknown = s.matchLabels;
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isPlainObject(matchLabels)) {
      errors.push(`${labelsPath}: must be a map of label keys to label values`);
    } else {
      for (const key of Object.keys(matchLabels)) {
        const value = matchLabels[key];
        let valid = true;
        for (const e of labelKeyErrors(key)) {
          errors.push(`${labelsPath}: invalid label key ${JSON.stringify(key)}: ${e}`);
          valid = false;
        }
        if (typeof value !== "string") {
          errors.push(`${labelsPath}[${key}]: must be a string`);
          continue;
        }
        for (const e of labelValueErrors(value)) {
          errors.push(`${labelsPath}[${key}]: invalid label value ${JSON.stringify(value)}: ${e}`);
          valid = false;
        }
        if (valid) {
          const values = new Set([value]);
          requirements.push({ key, operator: "In", values, text: requirementText(key, "In", values, true) });
        }
      }
    }
  }

  const exprsPath = join(path, "matchExpressions");
  const matchExpressions: unknown = s.matchExpressions;
  if (matchExpressions !== undefined && matchExpressions !== null) {
    if (!Array.isArray(matchExpressions)) {
      errors.push(`${exprsPath}: must be a list of requirements`);
    } else {
      matchExpressions.forEach((expr: unknown, i) => {
        const r = compileRequirement(expr, `${exprsPath}[${i}]`, errors);
        if (r !== undefined) requirements.push(r);
      });
    }
  }

  if (errors.length > 0) return { ok: false, errors };
  if (requirements.length === 0) return { ok: true, selector: EVERYTHING };
  requirements.sort(byKeyThenText);
  return { ok: true, selector: new Compiled(requirements, false) };
}

/** Validates one matchExpressions entry, appending errors; returns it normalised when valid. */
function compileRequirement(expr: unknown, path: string, errors: string[]): Requirement | undefined {
  if (!isPlainObject(expr)) {
    errors.push(`${path}: must be an object with key, operator and values`);
    return undefined;
  }
  const before = errors.length;
  const { key, operator, values } = expr;

  if (typeof key !== "string") {
    errors.push(`${path}.key: must be a string`);
  } else {
    for (const e of labelKeyErrors(key)) {
      errors.push(`${path}.key: invalid label key ${JSON.stringify(key)}: ${e}`);
    }
  }

  const valuesPath = `${path}.values`;
  let list: readonly string[] = [];
  if (values !== undefined && values !== null) {
    if (!Array.isArray(values)) {
      errors.push(`${valuesPath}: must be a list of strings`);
    } else {
      list = values.filter((v, j) => {
        if (typeof v !== "string") {
          errors.push(`${valuesPath}[${j}]: must be a string`);
          return false;
        }
        for (const e of labelValueErrors(v)) {
          errors.push(`${valuesPath}[${j}]: invalid label value ${JSON.stringify(v)}: ${e}`);
        }
        return true;
      });
    }
  }

  // `count` is what the user wrote, so a list of non-strings is not also reported as empty.
  const count = Array.isArray(values) ? values.length : 0;
  const malformed = values !== undefined && values !== null && !Array.isArray(values);
  const op = OPERATORS.find((o) => o === operator);
  if (op === undefined) {
    errors.push(
      `${path}.operator: ${JSON.stringify(operator ?? null)} is not a valid selector operator ` +
        `(must be one of ${OPERATORS.join(", ")})`,
    );
  } else if ((op === "In" || op === "NotIn") && count === 0 && !malformed) {
    errors.push(`${valuesPath}: must be non-empty for operator ${op}`);
  } else if ((op === "Exists" || op === "DoesNotExist") && count > 0) {
    errors.push(`${valuesPath}: must be empty for operator ${op}`);
  }

  if (errors.length > before || op === undefined || typeof key !== "string") return undefined;
  const set = new Set(list);
  return { key, operator: op, values: set, text: requirementText(key, op, set, false) };
}
