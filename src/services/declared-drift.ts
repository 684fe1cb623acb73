// The drift comparison every kind gets from its declaration (CONTRIBUTING.md, "How a kind is made"): the generated
// `<prefix>FieldGroups` says, field by field in the order updates apply them, what leaving the
// field out means and in which form spec and AWS compare (src/codegen/drift-rules.ts).
// A kind adds hooks only for its genuine quirks (RDS's one-way engine version, DynamoDB's
// indexes); the types make a hook for each field declared `custom`, and nothing else. Pure.

import type { DeclaredField, DeclaredFieldGroups, DefaultValue, DriftForm } from "../codegen/drift-rules.ts";
import {
  canonicalBoolean,
  canonicalDocument,
  canonicalNumber,
  canonicalSet,
  canonicalTags,
  canonicalValue,
  numberFromText,
  sameJson,
} from "./canonical-forms.ts";
import type { FieldDifferenceOf } from "./field-drift.ts";

type FieldsOf<G extends DeclaredFieldGroups> = G["groups"][number]["fields"][number];
/** The spec names of a kind's compared fields. */
export type ComparedField<G extends DeclaredFieldGroups> = FieldsOf<G>["field"];
/** The spec names of the fields the declaration gives to a hook. */
export type CustomField<G extends DeclaredFieldGroups> = Extract<FieldsOf<G>, { custom: string }>["field"];

/** Whether spec and AWS agree on a field, as the kind's hook judges. */
export type EqualHook<Fields> = (desired: Fields, observed: Fields) => boolean;

/** The compared fields in the order updates apply them. */
export function comparedFields<G extends DeclaredFieldGroups>(declared: G): ComparedField<G>[] {
  return declared.groups.flatMap((g) => g.fields.map((f) => f.field)) as ComparedField<G>[];
}

/** The spec names of the fields the call `S` changes. */
export type FieldSetBy<G extends DeclaredFieldGroups, S extends string> = Extract<
  G["groups"][number],
  { set: S }
>["fields"][number]["field"];

/** The fields of the group that `set` changes, in order. */
export function fieldsSetBy<G extends DeclaredFieldGroups, S extends G["groups"][number]["set"]>(
  declared: G,
  set: S,
): FieldSetBy<G, S>[] {
  const group = declared.groups.find((g) => g.set === set);
  if (group === undefined) throw new Error(`no field group is changed by ${set}`);
  return group.fields.map((f) => f.field) as FieldSetBy<G, S>[];
}

/** How a compared field compares (its declared absence, default and form). */
export function ruleOf<G extends DeclaredFieldGroups>(declared: G, field: ComparedField<G>): DeclaredField {
  const rule = declared.groups.flatMap((g) => g.fields).find((f) => f.field === field);
  if (rule === undefined) throw new Error(`spec.${field} is no compared field`);
  return rule;
}

/**
 * What an attribute map (SQS's, SNS's) is sent for a field the spec leaves out: nothing for a
 * kept field (AWS keeps its value), its default, or "" (none).
 */
export function attributeWhenAbsent(rule: DeclaredField): string | undefined {
  return rule.absent === "kept" ? undefined : String(rule.default ?? "");
}

/** The value a field the spec leaves out stands for, where its absence means its default (ECR's MUTABLE). */
export function defaultWhenAbsent(rule: DeclaredField | undefined): DefaultValue | undefined {
  return rule?.absent === "none" ? rule.default : undefined;
}

/**
 * The drift comparison of a kind: the compared fields (in order) that differ between the spec
 * (`desired`) and AWS's value in spec form (`observed`).
 */
export function declaredDrift<Fields extends object, G extends DeclaredFieldGroups>(
  declared: G,
  hooks: { readonly [K in CustomField<G>]: EqualHook<Fields> },
): (desired: Fields, observed: Fields) => FieldDifferenceOf<ComparedField<G>>[] {
  const rules = declared.groups.flatMap((g) => g.fields);
  const hookOf = hooks as Readonly<Record<string, EqualHook<Fields>>>;
  for (const rule of rules) {
    if (rule.custom !== undefined && typeof hookOf[rule.field] !== "function")
      throw new Error(`spec.${rule.field} is declared custom but has no hook`);
  }
  return (desired, observed) => {
    const out: FieldDifferenceOf<ComparedField<G>>[] = [];
    for (const rule of rules) {
      const d = (desired as Record<string, unknown>)[rule.field];
      const o = (observed as Record<string, unknown>)[rule.field];
      const hook = rule.custom === undefined ? undefined : hookOf[rule.field];
      const equal = hook === undefined ? sameByRule(rule, d, o) : hook(desired, observed);
      if (!equal) {
        out.push({
          field: rule.field as ComparedField<G>,
          path: `spec.${rule.field}`,
          desired: d,
          observed: o,
        });
      }
    }
    return out;
  };
}

/** Whether two values of a field are the same, by the field's declared absence and form. */
export function sameByRule(
  rule: Pick<DeclaredField, "absent" | "default" | "form">,
  desired: unknown,
  observed: unknown,
): boolean {
  if (desired === undefined && rule.absent === "kept") return true;
  return sameJson(
    canonicalForm(rule.form, desired ?? rule.default),
    canonicalForm(rule.form, observed ?? rule.default),
  );
}

/** A value in the form it compares in (see DriftForm). */
export function canonicalForm(form: DriftForm, value: unknown): unknown {
  switch (form) {
    case "value":
      return canonicalValue(value) ?? null;
    case "document":
      return canonicalDocument(typeof value === "string" ? value : undefined, numberFromText);
    case "documents": {
      const entries = Object.entries((value ?? {}) as Record<string, unknown>).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      return entries.length === 0 ? null : entries.map(([k, v]) => [k, canonicalForm("document", v)]);
    }
    case "number":
      return canonicalNumber(value) ?? null;
    case "boolean":
      return canonicalBoolean(value) ?? null;
    case "set":
      return canonicalSet(value);
    case "caseInsensitive":
      return typeof value === "string" && value !== "" ? value.toLowerCase() : null;
    case "tags":
      return canonicalTags(value);
  }
}
