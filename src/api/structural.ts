// zod schema → STRUCTURAL OpenAPI v3 schema, the only kind apiextensions.k8s.io/v1 accepts
// (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema):
// every node has a type, no $ref, no unions, no `additionalProperties: false`, and unknown
// fields are pruned unless a node says `x-kubernetes-preserve-unknown-fields`.
// `structuralProblems` is the same contract as a check, so tests can prove the output obeys it.
import { z } from "zod";

/** An OpenAPI v3 schema node as the apiserver reads it (JSON names, including x-kubernetes-*). */
export interface OpenApiSchema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  required?: string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  nullable?: boolean;
  "x-kubernetes-validations"?: {
    rule: string;
    message: string;
    messageExpression?: string;
    fieldPath?: string;
    optionalOldSelf?: boolean;
  }[];
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  [key: string]: unknown;
}

/** The keywords a structural schema may use (x-kubernetes-embedded-resource and friends included). */
const allowedKeywords = new Set([
  "type",
  "properties",
  "additionalProperties",
  "items",
  "required",
  "description",
  "title",
  "default",
  "enum",
  "nullable",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "example",
  "x-kubernetes-validations",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  "x-kubernetes-int-or-string",
  "x-kubernetes-embedded-resource",
]);

const types = new Set(["object", "array", "string", "integer", "number", "boolean"]);

/**
 * Converts a zod schema to a structural OpenAPI v3 schema. Throws (naming the path) on
 * anything that cannot be made structural, such as a union: a CRD must never be generated
 * from a schema the apiserver would read differently from zod.
 */
export function toStructuralSchema(schema: z.ZodType): OpenApiSchema {
  const json = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    // The CRD validates what people write, so defaults make fields optional (input side).
    io: "input",
    unrepresentable: "throw",
    reused: "inline",
    cycles: "throw",
  }) as Record<string, unknown>;
  return normalise(json, "");
}

function normalise(node: Record<string, unknown>, path: string): OpenApiSchema {
  const out: OpenApiSchema = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case "$schema":
        break;
      case "properties":
        // An empty structure (S3's SimplePrefix, SSES3, EventBridgeConfiguration: "set it to {}")
        // has no properties key: kubectl's client drops an empty map, and a CRD applied by two
        // managers, one sending `properties: {}` and one not, conflicts on .spec.versions.
        if (Object.keys(value as object).length === 0) break;
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, Record<string, unknown>>).map(([name, child]) => [
            name,
            normalise(child, `${path}.${name}`),
          ]),
        );
        break;
      case "items":
        out.items = normalise(value as Record<string, unknown>, `${path}[]`);
        break;
      case "additionalProperties":
        // `false` (strict objects) is forbidden; unknown fields are pruned anyway.
        if (value === false) break;
        if (isEmptyObject(value)) {
          // A loose object: keep fields zod does not know about.
          out["x-kubernetes-preserve-unknown-fields"] = true;
          break;
        }
        out.additionalProperties = normalise(value as Record<string, unknown>, `${path}.*`);
        break;
      case "required":
        if (Array.isArray(value) && value.length > 0) out.required = value as string[];
        break;
      case "minimum":
      case "maximum":
        // zod's int() bounds are JavaScript's safe integers; the apiserver's are int64's.
        if (Math.abs(value as number) !== Number.MAX_SAFE_INTEGER) out[key] = value;
        break;
      case "const":
        out.enum = [value];
        break;
      case "anyOf":
      case "oneOf":
      case "allOf":
      case "not":
      case "$ref":
      case "$defs":
      case "definitions":
        throw new Error(
          `schema at '${path || "."}' uses ${key}, which a structural CRD schema cannot express; use one object with optional fields and rules instead`,
        );
      default:
        out[key] = value;
    }
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

/**
 * Lists every way `schema` breaks the structural-schema rules the apiserver enforces for
 * apiextensions.k8s.io/v1 CRDs (empty = structural). `root` adds the rules for the top
 * level (type object; metadata may only be `type: object`).
 */
export function structuralProblems(schema: OpenApiSchema, root = true): string[] {
  const problems: string[] = [];
  if (root) {
    if (schema.type !== "object") problems.push(". must have type: object");
    const metadata = schema.properties?.["metadata"];
    if (metadata !== undefined && (metadata.type !== "object" || Object.keys(metadata).length !== 1)) {
      problems.push(".metadata must be exactly {type: object}; the apiserver validates metadata itself");
    }
  }
  walk(schema, "", problems);
  return problems;
}

function walk(node: OpenApiSchema, path: string, problems: string[]): void {
  const at = path === "" ? "." : path;
  for (const key of Object.keys(node)) {
    if (!allowedKeywords.has(key))
      problems.push(`${at}: keyword '${key}' is not allowed in a structural schema`);
  }
  const preserves = node["x-kubernetes-preserve-unknown-fields"] === true;
  const intOrString = node["x-kubernetes-int-or-string"] === true;
  if (node.type === undefined) {
    if (!preserves && !intOrString) problems.push(`${at}: missing type`);
  } else if (!types.has(node.type)) {
    problems.push(`${at}: unknown type '${String(node.type)}'`);
  }
  if (node["x-kubernetes-preserve-unknown-fields"] === false) {
    problems.push(`${at}: x-kubernetes-preserve-unknown-fields may only be true`);
  }
  if (node.enum !== undefined) {
    for (const value of node.enum) {
      if (!valueHasType(value, node.type))
        problems.push(`${at}: enum value ${JSON.stringify(value)} is not a ${node.type}`);
    }
  }
  if (node.type === "array") {
    if (node.items === undefined || typeof node.items !== "object")
      problems.push(`${at}: array without items`);
  } else if (node.items !== undefined) {
    problems.push(`${at}: items on a non-array`);
  }
  if (node.properties !== undefined || node.additionalProperties !== undefined) {
    if (node.type !== "object") problems.push(`${at}: properties on a non-object`);
    if (node.properties !== undefined && node.additionalProperties !== undefined) {
      problems.push(`${at}: properties and additionalProperties are mutually exclusive`);
    }
    if (typeof node.additionalProperties === "boolean") {
      problems.push(`${at}: additionalProperties must be a schema, not ${String(node.additionalProperties)}`);
    }
  }
  for (const name of node.required ?? []) {
    if (node.properties?.[name] === undefined)
      problems.push(`${at}: required field '${name}' is not a property`);
  }
  checkListType(node, at, problems);
  for (const rule of node["x-kubernetes-validations"] ?? []) {
    if (typeof rule.rule !== "string" || rule.rule === "")
      problems.push(`${at}: validation rule without a rule`);
    if (typeof rule.message !== "string" || rule.message === "" || /[\r\n]/.test(rule.message)) {
      problems.push(`${at}: validation rule '${rule.rule}' needs a one-line message`);
    }
  }
  for (const [name, child] of Object.entries(node.properties ?? {})) walk(child, `${path}.${name}`, problems);
  if (typeof node.additionalProperties === "object") walk(node.additionalProperties, `${path}.*`, problems);
  if (node.items !== undefined && typeof node.items === "object") walk(node.items, `${path}[]`, problems);
}

function checkListType(node: OpenApiSchema, at: string, problems: string[]): void {
  const listType = node["x-kubernetes-list-type"];
  const mapKeys = node["x-kubernetes-list-map-keys"];
  if (listType === undefined) {
    if (mapKeys !== undefined)
      problems.push(`${at}: x-kubernetes-list-map-keys without x-kubernetes-list-type: map`);
    return;
  }
  if (node.type !== "array") problems.push(`${at}: x-kubernetes-list-type on a non-array`);
  const itemType = node.items?.type;
  if (listType === "set" && (itemType === "object" || itemType === "array")) {
    problems.push(`${at}: x-kubernetes-list-type: set needs scalar items`);
  }
  if (listType === "map") {
    if (itemType !== "object") problems.push(`${at}: x-kubernetes-list-type: map needs object items`);
    if (mapKeys === undefined || mapKeys.length === 0)
      problems.push(`${at}: x-kubernetes-list-type: map needs list-map-keys`);
    for (const key of mapKeys ?? []) {
      const keySchema = node.items?.properties?.[key];
      if (keySchema === undefined) problems.push(`${at}: list-map-key '${key}' is not an item property`);
      else if (!(node.items?.required ?? []).includes(key) && keySchema.default === undefined) {
        problems.push(`${at}: list-map-key '${key}' must be required or defaulted`);
      }
    }
  }
}

function valueHasType(value: unknown, type: OpenApiSchema["type"]): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    default:
      return true;
  }
}
