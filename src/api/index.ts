// Public API of src/api: the schemas (zod, with TypeScript types) of everything an
// administrator or user writes, the annotation parsers, and the CRD generator.
export * from "./annotations.ts";
export * from "./carm.ts";
export * from "./config-crd-sources.ts";
export * from "./crd.ts";
export * from "./crd-yaml.ts";
export * from "./iam-role-selector.ts";
export * from "./identities.ts";
export * from "./identity-ref.ts";
export * from "./kinds.ts";
export * from "./label-selector.ts";
export * from "./object-meta.ts";
export * from "./resource.ts";
export * from "./rules.ts";
export * from "./session.ts";
export * from "./structural.ts";
export * from "./validation.ts";
