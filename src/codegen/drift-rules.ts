// The drift table a kind's declaration generates (`<prefix>FieldGroups`): for each field group,
// the calls that set, read and remove it, and for each field what leaving it out means and in
// which form spec and AWS compare. Generated here (field-groups.ts, emit-kind.ts); the
// comparison that reads it is src/services/declared-drift.ts. Types only.

/**
 * How the spec's and AWS's values of a compared field are brought to one form before they are
 * compared (src/services/declared-drift.ts): equal forms are no drift.
 * - `value`: member by member; members left out, empty text and empty lists are none.
 * - `document`: JSON text (a policy): whitespace, key order and numbers written as text ignored.
 * - `number`: a number, or one written as text ("030" is 30).
 * - `boolean`: a boolean, or one written as text ("True" is true).
 * - `set`: a list whose order and repeats do not matter.
 * - `caseInsensitive`: text AWS stores in its own case.
 * - `tags`: a tag map or list, without the controller's ownership tags (DESIGN §3.5).
 * - `documents`: a map of names to JSON documents (IAM's inline policies), each as `document`.
 */
export type DriftForm =
  | "value"
  | "document"
  | "documents"
  | "number"
  | "boolean"
  | "set"
  | "caseInsensitive"
  | "tags";

/**
 * What leaving a compared field out of the spec means: `none` (AWS's value is drift unless it is
 * none, or the field's default) or `kept` (never drift until the spec sets it). Declarations
 * default to `kept` for late-initialised fields (the spec gets AWS's value), else `none`.
 */
export type Absence = "none" | "kept";

/** A scalar a field's default may be: the value AWS takes when a side has none. */
export type DefaultValue = string | number | boolean;

export interface DeclaredField {
  readonly field: string;
  readonly absent: Absence;
  /** What AWS's silence (or the spec's, when absent is none) means: SQS's "false", DynamoDB's STANDARD. */
  readonly default?: DefaultValue;
  readonly form: DriftForm;
  /** Why the kind compares it with a hook of its own. */
  readonly custom?: string;
}

export interface DeclaredGroup {
  /** The AWS call that changes the group's fields after creation. */
  readonly set: string;
  readonly read: string;
  /** The call that removes them, where removing is not `set` with the none value. */
  readonly remove?: string;
  readonly fields: readonly DeclaredField[];
}

/** A kind's generated `<prefix>FieldGroups`. */
export interface DeclaredFieldGroups {
  readonly create: string;
  /** The spec fields the create call's input takes. */
  readonly createFields: readonly string[];
  readonly groups: readonly DeclaredGroup[];
  readonly notCompared: Readonly<Record<string, string>>;
}
