// A served kind's spec, status, object schema and CRD source: its generated field schemas (AWS's
// types, constraints and words), with the value rules the AWS model cannot state, where a kind
// has them (its schema.ts: SQS's attribute ranges, DynamoDB's key rules, S3's bucket names).
import { z } from "zod";
import { documentedAs } from "../../api/documented.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import { resourceSchemas, resourceSpecSchema, resourceStatusSchema } from "../../api/resource.ts";
import { type CelValidation, celRulesOf, immutable, type Rule, withRules } from "../../api/rules.ts";
import { refusingUnservedReferences } from "../references.ts";
import { withTransitionRules } from "../transition-rules.ts";
import type { GeneratedKind } from "./source.ts";

type Shape = Readonly<Record<string, z.ZodType>>;

/** A kind's own schema for some fields, each replacing the generated one (keeping its description). */
type Values<F extends Shape> = { readonly [K in keyof F]?: z.ZodType };

/** The spec's fields: the generated ones, with the kind's own where it has them. */
export type KindFields<F extends Shape, V extends Values<F>> = {
  -readonly [K in keyof F]: K extends keyof V ? Exclude<V[K], undefined> : F[K];
};

type SpecOf<F extends Shape, V extends Values<F>> = ReturnType<typeof resourceSpecSchema<KindFields<F, V>>>;

/** What a kind adds to its generated schemas: only what the AWS model cannot say. */
export interface KindValueRules<F extends Shape, V extends Values<F>, S extends z.ZodRawShape> {
  /** Fields whose values have rules the model lacks (ranges in a string, names, messages that say the fix). */
  readonly values?: V;
  /** Rules across fields, both halves (zod and CEL). */
  readonly rules?: readonly Rule<z.output<SpecOf<F, V>>>[];
  /** CEL transition rules (`oldSelf`) on the whole spec. */
  readonly transitions?: readonly CelValidation[];
  /** A check CEL cannot state within its cost budget (a sum across lists), in zod only. */
  readonly refine?: (spec: z.output<SpecOf<F, V>>, ctx: z.RefinementCtx) => void;
  /** Status fields beyond the generated ones. */
  readonly status?: S;
}

/** The parts of a kind's source its schemas come from (messages name the service as its runtime section does: "RDS"). */
export interface KindSchemaParts<F extends Shape> {
  readonly kind: ResourceKind;
  readonly declaration: { readonly runtime: { readonly service: string } };
  readonly generated: GeneratedKind<F>;
}

/** Whether the schema (or the one it makes optional) already refuses a change, in its own words. */
const changeless = (schema: z.ZodType): boolean =>
  celRulesOf(schema).some((r) => r.rule === "self == oldSelf") ||
  (schema instanceof z.ZodOptional && changeless(schema.unwrap() as z.ZodType));

/**
 * The kind's object schema and CRD source: the generated field schemas with the kind's value rules;
 * each declared immutable field refuses a change at admission (CEL `self == oldSelf`) unless its own
 * schema already says why; references to unserved kinds are refused with the plain field to set.
 */
export function declaredKindSchemas<
  F extends Shape,
  V extends Values<F> = Record<never, never>,
  S extends z.ZodRawShape = Record<never, never>,
>(parts: KindSchemaParts<F>, quirks: KindValueRules<F, V, S> = {}) {
  const { kind, generated } = parts;
  const service = parts.declaration.runtime.service;
  const values: Values<F> = quirks.values ?? {};
  const fields: Record<string, z.ZodType> = {};
  for (const [field, schema] of Object.entries(generated.fieldSchemas)) {
    const own = values[field];
    fields[field] = own === undefined ? schema : documentedAs(schema, own);
  }
  for (const field of generated.declared.immutable) {
    const schema = fields[field];
    if (schema === undefined) throw new Error(`${kind.kind}: immutable field ${field} is no spec field`);
    if (changeless(schema)) continue;
    fields[field] = immutable(
      schema,
      `${field} is immutable: ${service} sets it at creation and cannot change it; create a new ${kind.kind} resource instead`,
    );
  }
  let spec = resourceSpecSchema(fields as KindFields<F, V>) as z.ZodType as SpecOf<F, V>;
  if (quirks.refine !== undefined) spec = spec.superRefine(quirks.refine) as unknown as SpecOf<F, V>;
  if (quirks.rules !== undefined) spec = withRules(spec, ...quirks.rules);
  if (quirks.transitions !== undefined) spec = withTransitionRules(spec, ...quirks.transitions);
  spec = refusingUnservedReferences(spec, generated.references);
  const status = resourceStatusSchema.extend({
    ...(generated.statusSchemas as Record<never, never>),
    ...(quirks.status ?? ({} as S)),
  });
  return { spec, status, ...resourceSchemas(kind, spec, status) };
}
