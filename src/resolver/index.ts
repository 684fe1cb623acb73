// Public API of the resolver: build a snapshot of the administrator's objects once, then ask
// resolve() about any number of resources. See README.md for the rules and their order.

export { resolve } from "./resolve.ts";
export { conflictingSelectorsMessage } from "./rule-iam-role-selector.ts";
export { defaultSessionName, isValidSessionName, sanitizeSessionName } from "./session-name.ts";
export {
  defaultFeatureGates,
  defaultSettings,
  defaultSystemNamespace,
  featureGateNames,
  type ParseResult,
  parseFeatureGates,
  type SettingsError,
  validateSettings,
} from "./settings.ts";
export { buildSnapshot } from "./snapshot.ts";
export type {
  AnnotationValue,
  CarmMapState,
  CarmSnapshot,
  IdentityConfig,
  IdentityIndex,
  NamespaceConfig,
  SelectorConfig,
  SelectorIndex,
  Snapshot,
} from "./snapshot-types.ts";
export type * from "./types.ts";
