// Pure: an IAMRoleSelector's status from what the controller knows about it — its problems in
// the snapshot (invalid selectors are ignored, DESIGN §2.4), whether selectors are in use at all
// (feature gate), and how many resources it decides for. Returns null when the status already
// says exactly that, so the controller never writes a status that would change nothing.
import type { IAMRoleSelectorStatus } from "../api/iam-role-selector.ts";
import type { SnapshotProblem } from "../resolver/types.ts";
import { type Condition, conditionsEqual, setCondition } from "../runtime/conditions.ts";
import { problemMessage } from "./config-problems.ts";

export interface SelectorStatusInput {
  readonly generation?: number;
  readonly status: IAMRoleSelectorStatus | undefined;
  /** The snapshot's problems about this selector (errors make it invalid, hence ignored). */
  readonly problems: readonly SnapshotProblem[];
  /** The IAMRoleSelector feature gate: off, no selector decides anything (CARM mode). */
  readonly enabled: boolean;
  /** Resources whose decision this selector made. */
  readonly matched: number;
}

export const readyCondition = "Ready";

function ready(input: SelectorStatusInput): { status: "True" | "False"; reason: string; message: string } {
  const errors = input.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem(s); see the Events)` : "";
    return {
      status: "False",
      reason: "InvalidSelector",
      message: `The selector is invalid and ignored: ${problemMessage(errors[0]!)}${more}`,
    };
  }
  if (!input.enabled) {
    return {
      status: "False",
      reason: "FeatureGateDisabled",
      message:
        "The controller runs in CARM mode, so no resource uses this selector; start it with --feature-gates=IAMRoleSelector=true --enable-carm=false to use IAMRoleSelectors.",
    };
  }
  return { status: "True", reason: "Valid", message: "The selector is valid and in use." };
}

/** The status to write, or null when the current one already says it. */
export function planSelectorStatus(input: SelectorStatusInput, now: Date): IAMRoleSelectorStatus | null {
  const r = ready(input);
  const matchedResources = r.reason === "Valid" ? input.matched : 0;
  const before = input.status?.conditions as Condition[] | undefined;
  const conditions = setCondition(
    before,
    {
      type: readyCondition,
      ...r,
      ...(input.generation === undefined ? {} : { observedGeneration: input.generation }),
    },
    now,
  );
  if (input.status?.matchedResources === matchedResources && conditionsEqual(before, conditions)) return null;
  return { matchedResources, conditions };
}
