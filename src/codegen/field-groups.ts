// A declaration's calls and field groups in spec names, checked against the model and the spec:
// every call is an operation of the service, every top-level spec field is accounted for
// exactly once (changed by one group's call, immutable, or not compared for a stated reason).
// The result is the kind's generated `<prefix>FieldGroups` (the drift comparison's table,
// src/services/declared-drift.ts) and the docs' "how each field is managed" table. Pure.

import { type AwsModel, inputOf } from "./aws-model.ts";
import type { KindDeclaration } from "./declaration.ts";
import type { Absence, DefaultValue, DriftForm } from "./drift-rules.ts";
import type { Field } from "./field-tree.ts";

export interface ComparedField {
  /** The spec name. */
  readonly field: string;
  readonly absent: Absence;
  readonly default?: DefaultValue;
  readonly form: DriftForm;
  readonly custom?: string;
}

export interface ResolvedGroup {
  readonly set: string;
  readonly read: string;
  readonly remove?: string;
  readonly fields: readonly ComparedField[];
}

export interface ResolvedGroups {
  readonly create: string;
  /** The spec fields the create call's input takes, in spec names. */
  readonly createFields: readonly string[];
  readonly groups: readonly ResolvedGroup[];
  /** Spec name → why it is not compared. */
  readonly notCompared: Readonly<Record<string, string>>;
}

export function resolveGroups(
  decl: KindDeclaration,
  fields: readonly Field[],
  model: AwsModel,
): ResolvedGroups {
  const fail = (what: string): never => {
    throw new Error(`${decl.kind}'s declaration: ${what}`);
  };
  const operation = (name: string, role: string): string => {
    if (model.operations[name] === undefined)
      fail(`${role} call ${name} is no operation of ${model.service} ${model.apiVersion}`);
    return name;
  };
  const topLevel = fields.filter((f) => f.type.t !== "reference");
  const specName = (aws: string, where: string): string =>
    topLevel.find((f) => f.aws === aws)?.name ??
    fail(`${where} names ${aws}, which is no top-level spec field`);

  const accounted = new Map<string, string>();
  const account = (name: string, where: string): void => {
    const before = accounted.get(name);
    if (before !== undefined) fail(`spec.${name} is both ${before} and ${where}: say one`);
    accounted.set(name, where);
  };
  const late = new Set(decl.lateInitialized ?? []);

  const groups = decl.groups.map((g): ResolvedGroup => {
    const compared = Object.entries(g.fields).map(([aws, rule]): ComparedField => {
      const field = specName(aws, `group ${g.set}`);
      account(field, `in group ${g.set}`);
      if (rule.custom !== undefined && rule.form !== undefined)
        fail(`${aws} is compared by a hook (custom) and by form ${rule.form}: say one`);
      return {
        field,
        absent: rule.absent ?? (late.has(aws) ? "kept" : "none"),
        ...(rule.default === undefined ? {} : { default: rule.default }),
        form: rule.form ?? "value",
        ...(rule.custom === undefined ? {} : { custom: rule.custom }),
      };
    });
    return {
      set: operation(g.set, "set"),
      read: operation(g.read, "read"),
      ...(g.remove === undefined ? {} : { remove: operation(g.remove, "remove") }),
      fields: compared,
    };
  });
  for (const aws of decl.immutable ?? []) account(specName(aws, "immutable"), "immutable");
  const notCompared: Record<string, string> = {};
  for (const [aws, reason] of Object.entries(decl.notCompared ?? {})) {
    const field = specName(aws, "notCompared");
    account(field, "not compared");
    notCompared[field] = reason;
  }
  const missing = topLevel.filter((f) => !accounted.has(f.name)).map((f) => f.aws);
  if (missing.length > 0)
    fail(
      `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} in no group, not immutable and not in notCompared: say which call changes ${missing.length === 1 ? "it" : "each"}`,
    );
  const create = operation(decl.create, "create");
  const createInput = new Set(Object.keys(inputOf(model, create).members ?? {}));
  const createFields = topLevel.filter((f) => createInput.has(f.aws)).map((f) => f.name);
  if (decl.runtime !== undefined) {
    const r = decl.runtime;
    operation(r.delete, "delete");
    operation(r.read.call, "read");
    // A kind AWS cannot tag (no runtime.tags: a KMS alias) has none; any other has one.
    const tagged = decl.groups.some((g) => Object.values(g.fields).some((rule) => rule.form === "tags"));
    if (r.tags !== undefined && !tagged)
      fail("the generic runtime needs a group of tags (its calls are the tag calls)");
    if (r.tags === undefined && tagged)
      fail("a group of tags needs runtime.tags (how its calls name the object)");
  }
  return { create, createFields, groups, notCompared };
}
