// State a validation rule ONCE and get both halves of it: the zod check the controller and
// the CLI run, and the CEL rule (`x-kubernetes-validations`) the kube-apiserver runs at
// admission. The CEL half travels in the schema's zod metadata, where `z.toJSONSchema` copies
// it into the generated OpenAPI schema (see structural.ts), so the two can never drift apart.
import { z } from "zod";

/** One entry of `x-kubernetes-validations`, exactly as the apiserver reads it. */
export interface CelValidation {
  readonly rule: string;
  readonly message: string;
  /** CEL that words the message from the value; `message` is what the apiserver says if it fails. */
  readonly messageExpression?: string;
  /** Where the apiserver reports the error, relative to the schema carrying the rule (`.a.b`). */
  readonly fieldPath?: string;
  /**
   * A transition rule evaluated on create too, with `oldSelf` an optional (`oldSelf.hasValue()`):
   * for what AWS allows at creation and on a change differently (DynamoDB's index attributes).
   */
  readonly optionalOldSelf?: boolean;
}

/**
 * A rule over values of type T: `cel` is the CEL expression over `self`, `check` is the same
 * rule in TypeScript. `message` must name the field and say how to fix the value, because
 * it is what a person reads from `kubectl apply` and from the controller alike.
 */
export interface Rule<T> {
  readonly cel: string;
  readonly message: string;
  /**
   * A message that names the offending value, in both halves: `cel` is the apiserver's
   * `messageExpression`, `zod` the same words in TypeScript. `message` stays the apiserver's
   * fallback, for the rare value its expression cannot word (too long a message).
   */
  readonly messageOf?: { readonly cel: string; readonly zod: (value: T) => string };
  /** `.field.sub` relative to the schema; also becomes the zod issue's path. */
  readonly fieldPath?: string;
  /**
   * The zod issue's path when CEL cannot point there: a fieldPath may not enter `metadata`,
   * so a root rule about metadata.name is reported by the apiserver at the root.
   */
  readonly issuePath?: readonly string[];
  readonly check: (value: T) => boolean;
}

/** The metadata key zod copies verbatim into the JSON schema. */
export const celMetadataKey = "x-kubernetes-validations";

/** The CEL rules a schema carries (its own and those inherited from the schema it refines). */
export function celRulesOf(schema: z.ZodType): readonly CelValidation[] {
  const meta = z.globalRegistry.get(schema) as Record<string, unknown> | undefined;
  const rules = meta?.[celMetadataKey];
  return Array.isArray(rules) ? (rules as CelValidation[]) : [];
}

/** `.a.b` → ["a", "b"]: the zod issue path for a CEL fieldPath. */
export function fieldPathSegments(fieldPath: string | undefined): string[] {
  if (fieldPath === undefined || fieldPath === "") return [];
  return fieldPath.replace(/^\./, "").split(".");
}

function addCel<S extends z.ZodType>(schema: S, added: readonly CelValidation[]): S {
  return schema.meta({ [celMetadataKey]: [...celRulesOf(schema), ...added] }) as S;
}

function toCel(rule: Rule<never>): CelValidation {
  return {
    rule: rule.cel,
    message: rule.message,
    ...(rule.messageOf === undefined ? {} : { messageExpression: rule.messageOf.cel }),
    ...(rule.fieldPath === undefined ? {} : { fieldPath: rule.fieldPath }),
  };
}

/** Adds rules to a schema: a zod refinement per rule plus the matching CEL rules. */
export function withRules<S extends z.ZodType>(schema: S, ...rules: readonly Rule<z.output<S>>[]): S {
  const refined = schema.superRefine((value, ctx) => {
    for (const rule of rules) {
      if (!rule.check(value)) {
        const path = rule.issuePath === undefined ? fieldPathSegments(rule.fieldPath) : [...rule.issuePath];
        const message = rule.messageOf === undefined ? rule.message : rule.messageOf.zod(value);
        ctx.addIssue({ code: "custom", message, path });
      }
    }
  }) as S;
  return addCel(refined, rules.map(toCel));
}

/**
 * Makes a field immutable once set (`self == oldSelf`). This is a transition rule: only the
 * apiserver sees the old object, so there is no zod half.
 */
export function immutable<S extends z.ZodType>(schema: S, message: string): S {
  return addCel(schema, [{ rule: "self == oldSelf", message }]);
}

/**
 * Marks a list as a set (`x-kubernetes-list-type: set`): the apiserver rejects duplicates
 * natively (and merges it as a set on apply); the zod half rejects them with `message`.
 */
export function listSet<T extends z.ZodType>(schema: z.ZodArray<T>, message: string): z.ZodArray<T> {
  return schema
    .superRefine((items, ctx) => {
      const seen = new Set<unknown>();
      items.forEach((item, index) => {
        if (seen.has(item)) ctx.addIssue({ code: "custom", message, path: [index] });
        seen.add(item);
      });
    })
    .meta({ "x-kubernetes-list-type": "set" });
}

/**
 * Marks a list of objects as a map keyed by `key` (`x-kubernetes-list-type: map`): the
 * apiserver rejects two entries with the same key; the zod half does the same with `message`.
 */
export function listMap<T extends z.ZodObject>(
  schema: z.ZodArray<T>,
  key: keyof z.output<T> & string,
  message: string,
): z.ZodArray<T> {
  return schema
    .superRefine((items, ctx) => {
      const seen = new Set<unknown>();
      items.forEach((item, index) => {
        const value = (item as Record<string, unknown>)[key];
        if (seen.has(value)) ctx.addIssue({ code: "custom", message, path: [index] });
        seen.add(value);
      });
    })
    .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": [key] });
}

/** Renders zod issues the way the apiserver renders field errors: `spec.arn: <message>`. */
export function describeIssues(error: z.ZodError, prefix: readonly (string | number)[] = []): string[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path].map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : index === 0 ? String(segment) : `.${String(segment)}`,
    );
    const where = path.join("");
    return where === "" ? issue.message : `${where}: ${issue.message}`;
  });
}
