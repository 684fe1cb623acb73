// Every field path of a CRD's schema with its JSON type (`spec.lifecycle.rules[].id string`):
// what "the same name, JSON type and shape" as another CRD means, path by path. Pure.
import type { OpenApiSchema } from "./structural.ts";

export interface CrdPath {
  readonly path: string;
  readonly type: string;
}

/** The paths of `spec` and `status` of a CRD's first version ([] = list items, {} = map values). */
export function crdPaths(crd: {
  readonly spec: {
    readonly versions: readonly { readonly schema: { readonly openAPIV3Schema: OpenApiSchema } }[];
  };
}): CrdPath[] {
  const root = crd.spec.versions[0]?.schema.openAPIV3Schema;
  const out: CrdPath[] = [];
  const walk = (s: OpenApiSchema, path: string): void => {
    out.push({ path, type: s.type ?? (s["x-kubernetes-int-or-string"] === true ? "int-or-string" : "any") });
    for (const [name, child] of Object.entries(s.properties ?? {})) walk(child, `${path}.${name}`);
    if (s.items !== undefined) walk(s.items, `${path}[]`);
    if (typeof s.additionalProperties === "object") walk(s.additionalProperties, `${path}{}`);
  };
  for (const top of ["spec", "status"] as const) {
    const s = root?.properties?.[top];
    if (s !== undefined) walk(s, top);
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
