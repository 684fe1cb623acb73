// Descriptions from a kind's generated field schemas (src/codegen: AWS's documentation) on the
// hand-written schemas that add a field's quirks (its own rules, messages, CEL): the field keeps
// AWS's words in `kubectl explain` whichever schema validates it.
import { z } from "zod";

/** A schema's description, looking through `.optional()`. */
export function descriptionOf(schema: z.ZodType): string | undefined {
  if (schema.description !== undefined) return schema.description;
  return schema instanceof z.ZodOptional ? descriptionOf(schema.unwrap() as z.ZodType) : undefined;
}

/** `schema` described as the generated `documented` is. */
export function documentedAs<S extends z.ZodType>(documented: z.ZodType, schema: S): S {
  const description = descriptionOf(documented);
  return description === undefined ? schema : (schema.describe(description) as S);
}
