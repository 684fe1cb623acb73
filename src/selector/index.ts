// Public API of the selector package: Kubernetes label selectors and CAPA's allowedNamespaces.
export {
  type AllowedNamespaces,
  type AllowedNamespacesKind,
  type CompileAllowedNamespacesResult,
  type CompiledAllowedNamespaces,
  compileAllowedNamespaces,
} from "./allowed-namespaces.ts";
export {
  type CompiledSelector,
  type CompileSelectorResult,
  compileLabelSelector,
  type LabelSelector,
  type LabelSelectorRequirement,
  type Labels,
  type Requirement,
  type RequirementOperator,
} from "./label-selector.ts";
export {
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  labelKeyErrors,
  labelValueErrors,
} from "./label-syntax.ts";
