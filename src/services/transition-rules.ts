// CEL transition rules (`oldSelf`): what a field may become given what it was. Only the apiserver
// sees the old object, so unlike withRules (src/api/rules.ts) there is no zod half.
import type { z } from "zod";
import { type CelValidation, celMetadataKey, celRulesOf } from "../api/rules.ts";

/** `schema` with `rules` added after the CEL rules it already carries. */
export function withTransitionRules<S extends z.ZodType>(schema: S, ...rules: readonly CelValidation[]): S {
  return schema.meta({ [celMetadataKey]: [...celRulesOf(schema), ...rules] }) as S;
}
