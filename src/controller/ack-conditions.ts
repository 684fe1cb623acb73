// ACK's conditions for a managed resource, computed from where a reconcile ended (pure).
//   ACK.ResourceSynced  True once AWS matches the spec
//   ACK.Recoverable     True while something retryable blocks it (identity wait/deny/conflict, AWS error)
//   ACK.Terminal        True when retrying cannot help (drift, invalid spec)
//   ACK.IAMRoleSelected True when an IAMRoleSelector chose the role (DESIGN §3.3)
//   Ready               Terminal > Recoverable > Synced
// While nothing is wrong (synced, or on its way), ResourceSynced and Ready also carry the
// decision's warnings (an unknown region): a Warning Event alone is gone after an hour.
import type { Decision, DecisionWarning } from "../resolver/types.ts";
import {
  type Condition,
  type ConditionUpdate,
  removeCondition,
  setConditions,
} from "../runtime/conditions.ts";

export const conditionTypes = {
  synced: "ACK.ResourceSynced",
  recoverable: "ACK.Recoverable",
  terminal: "ACK.Terminal",
  iamRoleSelected: "ACK.IAMRoleSelected",
  lateInitialized: "ACK.LateInitialized",
  referencesResolved: "ACK.ReferencesResolved",
  ready: "Ready",
} as const;

/** How the reconcile ended, as far as conditions care. */
export type SyncState =
  | { readonly kind: "synced" }
  /** On its way (creating, an AWS status not yet final): not synced, but nothing is wrong. */
  | { readonly kind: "progressing"; readonly reason: string; readonly message: string }
  | { readonly kind: "recoverable"; readonly reason: string; readonly message: string }
  | { readonly kind: "terminal"; readonly reason: string; readonly message: string };

/** A reconcile that did not reach AWS's desired state because something is wrong. */
export type FailureState = Extract<SyncState, { readonly kind: "recoverable" | "terminal" }>;

/** The IAMRoleSelected condition for a decision, or null when no selector is involved. */
export function iamRoleSelectedFor(decision: Decision): ConditionUpdate | null {
  if (decision.source !== "iamRoleSelector") return null;
  if (decision.outcome === "use" && decision.selector) {
    return {
      type: conditionTypes.iamRoleSelected,
      status: "True",
      reason: "Selected",
      message: `IAMRoleSelector ${decision.selector.name} (resourceVersion ${decision.selector.resourceVersion}) selected ${decision.roleARN}`,
    };
  }
  return {
    type: conditionTypes.iamRoleSelected,
    status: "False",
    reason: decision.reason,
    message: decision.message,
  };
}

/** The condition state for a decision that is not `use` (or carries blocking drift). */
export function syncStateForDecision(decision: Decision): FailureState | null {
  if (decision.outcome !== "use") {
    return { kind: "recoverable", reason: decision.reason, message: decision.message };
  }
  if (decision.drift) return { kind: "terminal", reason: decision.reason, message: decision.drift.message };
  return null;
}

/** `message` followed by each warning as "Warning: <sentence>." */
export function withWarnings(message: string, warnings: readonly DecisionWarning[]): string {
  const stop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
  return warnings.length === 0
    ? message
    : [stop(message), ...warnings.map((w) => `Warning: ${stop(w.message)}`)].join(" ");
}

/**
 * The resource's new condition list. Unrelated conditions are kept; Recoverable/Terminal are
 * removed once they no longer apply; transition times change only on a status flip. `warnings`
 * (the decision's) are added to the message of a synced or progressing state; a failure's own
 * message stands alone.
 */
export function nextConditions(
  current: readonly Condition[] | undefined,
  state: SyncState,
  iamRoleSelected: ConditionUpdate | null,
  generation: number | undefined,
  now: Date,
  warnings: readonly DecisionWarning[] = [],
  /** The kind copies AWS's values into fields the spec leaves out: once synced, that is done (ACK's condition). */
  lateInitializes = false,
  /**
   * How the spec's references went (ACK.ReferencesResolved): every one resolved, one refused (the
   * state says why), none set (no condition); undefined: not reached, the condition stays.
   */
  references?: "none" | "resolved" | "refused",
): Condition[] {
  const g = generation === undefined ? {} : { observedGeneration: generation };
  const synced = state.kind === "synced";
  const reason = synced ? "Synced" : state.reason;
  const message = fitted(
    state.kind === "synced"
      ? withWarnings("Resource synced with AWS", warnings)
      : state.kind === "progressing"
        ? withWarnings(state.message, warnings)
        : state.message,
  );
  // The condition that explains a failure (Recoverable or Terminal); the other one no longer applies.
  const failure =
    state.kind === "terminal"
      ? conditionTypes.terminal
      : state.kind === "recoverable"
        ? conditionTypes.recoverable
        : null;
  let list = current ? [...current] : [];
  for (const type of [conditionTypes.recoverable, conditionTypes.terminal]) {
    if (type !== failure) list = removeCondition(list, type);
  }
  const status = synced ? "True" : "False";
  const updates: ConditionUpdate[] = [
    ...(failure === null ? [] : [{ type: failure, status: "True" as const, reason, message, ...g }]),
    { type: conditionTypes.synced, status, reason, message, ...g },
    { type: conditionTypes.ready, status, reason, message, ...g },
  ];
  if (synced && lateInitializes) {
    const done = "Late initialization successful";
    updates.push({ type: conditionTypes.lateInitialized, status: "True", reason: done, message: done, ...g });
  }
  if (references === "none") list = removeCondition(list, conditionTypes.referencesResolved);
  if (references === "resolved") {
    const resolved = "Every reference is resolved";
    updates.push({
      type: conditionTypes.referencesResolved,
      status: "True",
      reason: "Resolved",
      message: resolved,
      ...g,
    });
  }
  if (references === "refused")
    updates.push({ type: conditionTypes.referencesResolved, status: "False", reason, message, ...g });
  if (iamRoleSelected) updates.push({ ...iamRoleSelected, ...g });
  else list = removeCondition(list, conditionTypes.iamRoleSelected);
  return setConditions(list, updates, now);
}

/** The longest condition message the CRD stores (metav1.Condition's limit). */
export const maxConditionMessage = 32768;

/**
 * `message`, cut to what the CRD stores: an AWS message or a list of problems can be longer,
 * and a status write the apiserver refuses would fail the very report of the failure.
 */
function fitted(message: string): string {
  if (message.length <= maxConditionMessage) return message;
  const more = "… (cut: too long for a condition)";
  return message.slice(0, maxConditionMessage - more.length) + more;
}
