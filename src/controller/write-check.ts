// What the reconciler writes to a managed resource must satisfy the schema its own CRD is
// generated from. AWS may hand back values that schema refuses (a default beside a field the
// spec set, a limit AWS raised since, an attribute the emulator reports where AWS would not):
// copied into spec or status as they are, the apiserver answered 422 to every write, and the
// reconcile retried the same write forever (issue 19, item 6). These checks find such a value
// before the write, so that it becomes one clear condition — the field, the value, the problem
// and the fix — and nothing is written. Pure.
import type { ParseResult } from "../services/service-module.ts";
import type { FailureState } from "./ack-conditions.ts";

/** The condition reason of a value the kind's schema cannot record. */
export const unrecordableReason = "UnrecordableValue";

/** A write the kind's schema refuses: the reconciler reports `state` instead, and writes nothing. */
export class WriteRefused extends Error {
  readonly state: FailureState;
  constructor(state: FailureState) {
    super(state.message);
    this.name = "WriteRefused";
    this.state = state;
  }
}

type Parse = (value: unknown) => ParseResult<unknown>;

/**
 * A value as the apiserver will hold it once written: JSON (a Date becomes its string, undefined
 * members vanish) without null members, which a merge patch deletes rather than stores.
 */
export function asStored(value: unknown): unknown {
  if (value === undefined) return undefined;
  return dropNulls(JSON.parse(JSON.stringify(value)));
}

function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, member]) => member !== null)
      .map(([k, member]) => [k, dropNulls(member)]),
  );
}

/** `value` for a message: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function pathText(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : `${text}.${String(key)}`),
    root,
  );
}

/** "status.a = 1, status.b = "x"": the values at the paths a failed parse names. */
function refusedValues(root: string, stored: unknown, paths: readonly (readonly PropertyKey[])[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const path of paths) {
    const where = pathText(root, path);
    if (seen.has(where)) continue;
    seen.add(where);
    out.push(`${where} = ${shown(valueAt(stored, path))}`);
  }
  return out.join(", ");
}

export interface SpecWrite {
  /** The kind as users write it. */
  readonly kind: string;
  readonly parseSpec: Parse;
  /** The spec as it is now. */
  readonly current: object;
  /** The spec about to be written. */
  readonly next: object;
  /** The spec paths AWS's values filled in ("spec.visibilityTimeout"). */
  readonly filled: readonly string[];
  /** The spec is AWS's whole configuration (services.k8s.aws/adoption-policy: adopt). */
  readonly strictAdoption: boolean;
}

/**
 * Late initialisation, or a strict adoption, is about to write `next` as the spec: undefined
 * when the kind's schema accepts it; otherwise the Terminal state naming the fields AWS filled
 * in that the schema refuses (each tried alone on the current spec), their values, why, and the
 * fix. Terminal: the same AWS answer would be refused again until the spec changes.
 */
export function checkSpecWrite(w: SpecWrite): FailureState | undefined {
  const whole = w.parseSpec(asStored(w.next));
  if (whole.ok) return undefined;
  const next = w.next as Record<string, unknown>;
  if (w.strictAdoption) {
    const values = refusedValues("spec", asStored(next), whole.paths ?? []);
    return refused(
      `The configuration of the adopted AWS object cannot be recorded as this ${w.kind}'s spec${values ? ` (${values})` : ""}: ${whole.message}. Nothing was written to the spec. Fix: adopt it with services.k8s.aws/adoption-policy: adopt-or-create and a spec that sets these fields to values the ${w.kind} schema accepts (crossrole then brings AWS to the spec), or change the object in AWS`,
    );
  }
  const fields = w.filled.map((path) => path.replace(/^spec\./, ""));
  const alone = fields.filter((field) => !w.parseSpec(asStored({ ...w.current, [field]: next[field] })).ok);
  // Refused only together (no field alone is): name them all.
  const culprits = alone.length > 0 ? alone : fields;
  const values = culprits.map((field) => `spec.${field} (${shown(next[field])})`).join(", ");
  const paths = culprits.map((field) => `spec.${field}`).join(", ");
  const one = culprits.length === 1;
  return refused(
    `AWS's ${one ? "value" : "values"} for ${values} cannot be recorded in this ${w.kind}'s spec: ${whole.message}. crossrole copies AWS's value into a field the spec leaves out (late initialisation), but the ${w.kind} schema refuses ${one ? "this one" : "these"}, so nothing was written to the spec. Fix: set ${paths} in the spec to the value you want; crossrole then brings AWS to it`,
  );
}

export interface StatusWrite {
  readonly kind: string;
  readonly parseStatus: Parse;
  /** The status fields about to be written (a merge patch: null deletes). */
  readonly status: Readonly<Record<string, unknown>>;
}

/**
 * A status write: undefined when the kind's status schema accepts it; otherwise the Terminal
 * state naming the fields, their values and why. Status only records what AWS reports, so a
 * refusal is a mismatch between AWS's answer and crossrole's schema, for its maintainers to fix.
 */
export function checkStatusWrite(w: StatusWrite): FailureState | undefined {
  const stored = asStored(w.status);
  const r = w.parseStatus(stored);
  if (r.ok) return undefined;
  const values = refusedValues("status", stored, r.paths ?? []);
  return refused(
    `What AWS reports cannot be recorded in this ${w.kind}'s status${values ? ` (${values})` : ""}: ${r.message}. Status was not updated. This is a mismatch between AWS's answer and crossrole's ${w.kind} schema: report it to crossrole's maintainers with this message`,
  );
}

function refused(message: string): FailureState {
  return { kind: "terminal", reason: unrecordableReason, message };
}
