// Builds an apiextensions.k8s.io/v1 CustomResourceDefinition from the zod schema of a whole
// object (apiVersion, kind, metadata, spec, status): the CRD's validation is generated from
// the same schema the controller parses with, CEL rules included.
import type { z } from "zod";
import { type OpenApiSchema, toStructuralSchema } from "./structural.ts";

export interface CrdNames {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  /** Default: kind in lower case. */
  readonly singular?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: "string" | "integer" | "number" | "boolean" | "date";
  readonly jsonPath: string;
  readonly description?: string;
  /** 0 = shown by `kubectl get`; higher = only with `-o wide`. */
  readonly priority?: number;
}

/** Everything needed to generate one CRD. Register new ones in src/crd-sources.ts (a resource kind: in src/services/catalog.ts). */
export interface CrdSource {
  readonly names: CrdNames;
  readonly scope: "Cluster" | "Namespaced";
  /** The whole object's schema; its `spec`/`status` become the CRD's validation. */
  readonly schema: z.ZodType;
  readonly description: string;
  readonly printerColumns?: readonly PrinterColumn[];
  /** Serve `status` as a subresource (writes to spec and status are then separate). */
  readonly statusSubresource: boolean;
  /**
   * A schema of `spec` whose descriptions fill the CRD's wherever the object's own schema has
   * none, path by path (a kind's fields generated from the AWS API models, src/codegen).
   */
  readonly specDocumentation?: z.ZodType;
}

/** The subset of apiextensions.k8s.io/v1 CustomResourceDefinition crossrole generates. */
export interface CustomResourceDefinition {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: "Cluster" | "Namespaced";
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: OpenApiSchema };
      subresources?: { status?: Record<string, never> };
      additionalPrinterColumns?: PrinterColumn[];
    }[];
  };
}

/** `<plural>.<group>`, the CRD's required name. */
export function crdName(names: CrdNames): string {
  return `${names.plural}.${names.group}`;
}

const ageColumn: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };

export function buildCrd(source: CrdSource): CustomResourceDefinition {
  const { names } = source;
  const version: CustomResourceDefinition["spec"]["versions"][number] = {
    name: names.version,
    served: true,
    storage: true,
    schema: { openAPIV3Schema: rootSchema(source) },
    additionalPrinterColumns: [...(source.printerColumns ?? []), ageColumn],
  };
  if (source.statusSubresource) version.subresources = { status: {} };
  const crdNames: CustomResourceDefinition["spec"]["names"] = {
    kind: names.kind,
    listKind: `${names.kind}List`,
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
  };
  if (names.shortNames !== undefined && names.shortNames.length > 0)
    crdNames.shortNames = [...names.shortNames];
  if (names.categories !== undefined && names.categories.length > 0)
    crdNames.categories = [...names.categories];
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: crdName(names) },
    spec: { group: names.group, names: crdNames, scope: source.scope, versions: [version] },
  };
}

/**
 * The object schema with the parts the apiserver owns made generic: apiVersion and kind are
 * plain strings (the apiserver sets and checks them) and metadata is `type: object` (the only
 * form a CRD may give it).
 */
function rootSchema(source: CrdSource): OpenApiSchema {
  const schema = toStructuralSchema(source.schema);
  const properties = { ...schema.properties };
  if (source.specDocumentation !== undefined && properties["spec"] !== undefined) {
    properties["spec"] = withDescriptions(properties["spec"], toStructuralSchema(source.specDocumentation));
  }
  properties["apiVersion"] = {
    type: "string",
    description: "APIVersion defines the versioned schema of this representation of an object.",
  };
  properties["kind"] = {
    type: "string",
    description: "Kind is a string value representing the REST resource.",
  };
  properties["metadata"] = { type: "object" };
  const required = (schema.required ?? []).filter(
    (name) => !["apiVersion", "kind", "metadata"].includes(name),
  );
  const root: OpenApiSchema = { ...schema, description: source.description, properties };
  if (required.length > 0) root.required = required;
  else delete root.required;
  return root;
}

/** `schema` with each node lacking a description given the one at the same path of `docs`. */
export function withDescriptions(schema: OpenApiSchema, docs: OpenApiSchema): OpenApiSchema {
  const out: OpenApiSchema = { ...schema };
  if (out.description === undefined && docs.description !== undefined) out.description = docs.description;
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, child]) => {
        const doc = docs.properties?.[name];
        return [name, doc === undefined ? child : withDescriptions(child, doc)];
      }),
    );
  }
  if (schema.items !== undefined && docs.items !== undefined)
    out.items = withDescriptions(schema.items, docs.items);
  if (typeof schema.additionalProperties === "object" && typeof docs.additionalProperties === "object") {
    out.additionalProperties = withDescriptions(schema.additionalProperties, docs.additionalProperties);
  }
  return out;
}
