// Public API of the CARM → IAMRoleSelector migration (`crossrole migrate`). Pure: no I/O.

export { migrate } from "./migrate.ts";
export { notCarmMode, selectorModeSettings } from "./modes.ts";
export { carmEntryAnnotation, migratedLabel } from "./selectors.ts";
export type * from "./types.ts";
export { comparedFields } from "./types.ts";
export { describeDecision } from "./why.ts";
