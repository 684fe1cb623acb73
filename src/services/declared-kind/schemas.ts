// A served kind's object schema and CRD source, from its generated field schemas.
import type { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import { resourceSchemas, resourceSpecSchema, resourceStatusSchema } from "../../api/resource.ts";
import { immutable } from "../../api/rules.ts";
import { refusingUnservedReferences } from "../references.ts";
import type { GeneratedKind } from "./source.ts";

/**
 * The kind's object schema and CRD source, from the generated schemas: the declared immutable
 * fields refuse a change at admission (CEL `self == oldSelf`), references to unserved kinds are
 * refused with the plain field to set.
 */
export function declaredKindSchemas(kind: ResourceKind, generated: GeneratedKind) {
  const fields: Record<string, z.ZodType> = { ...(generated.fieldSchemas as Record<string, z.ZodType>) };
  for (const field of generated.declared.immutable) {
    const schema = fields[field];
    if (schema === undefined) throw new Error(`${kind.kind}: immutable field ${field} is no spec field`);
    fields[field] = immutable(
      schema,
      `${field} is immutable: AWS sets it at creation; to change it, create a new ${kind.kind}`,
    );
  }
  const spec = refusingUnservedReferences(resourceSpecSchema(fields), generated.references);
  const status = resourceStatusSchema.extend(generated.statusSchemas);
  return { spec, status, ...resourceSchemas(kind, spec, status) };
}
