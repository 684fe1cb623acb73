// Status conditions (metav1.Condition) with apimachinery's SetStatusCondition semantics:
// lastTransitionTime changes only when `status` flips; reason, message and observedGeneration
// always take the new values; existing conditions keep their place and new ones are appended,
// so a status patch does not reorder the list. Pure: the time is passed in.

export type ConditionStatus = "True" | "False" | "Unknown";

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  /** RFC 3339, second precision (metav1.Time). */
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** What a caller sets; the transition time is computed. */
export interface ConditionUpdate {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason?: string;
  readonly message?: string;
  readonly observedGeneration?: number;
}

/** metav1.Time's wire format: RFC 3339 in UTC without fractional seconds. */
export function formatTime(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z");
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === "True";
}

/**
 * Returns a new list with `update` applied. The input is not modified. `now` stamps
 * lastTransitionTime for a new condition or a status flip; otherwise the old time is kept.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  now: Date,
): Condition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === update.type);
  const existing = i >= 0 ? list[i] : undefined;
  const next: Condition = {
    type: update.type,
    status: update.status,
    lastTransitionTime:
      existing && existing.status === update.status && existing.lastTransitionTime
        ? existing.lastTransitionTime
        : formatTime(now),
  };
  if (update.reason !== undefined) next.reason = update.reason;
  if (update.message !== undefined) next.message = update.message;
  const generation = update.observedGeneration ?? existing?.observedGeneration;
  if (generation !== undefined) next.observedGeneration = generation;
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}

/** Applies several updates in order (same semantics as setCondition). */
export function setConditions(
  conditions: readonly Condition[] | undefined,
  updates: readonly ConditionUpdate[],
  now: Date,
): Condition[] {
  let list = [...(conditions ?? [])];
  for (const u of updates) list = setCondition(list, u, now);
  return list;
}

/** Returns a new list without the condition of `type`. */
export function removeCondition(conditions: readonly Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/**
 * True if the two lists say the same thing (same conditions in the same order, all fields
 * equal) — lets a controller skip a status write that would change nothing.
 */
export function conditionsEqual(
  a: readonly Condition[] | undefined,
  b: readonly Condition[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  return x.every((c, i) => {
    const d = y[i]!;
    return (
      c.type === d.type &&
      c.status === d.status &&
      c.reason === d.reason &&
      c.message === d.message &&
      c.lastTransitionTime === d.lastTransitionTime &&
      c.observedGeneration === d.observedGeneration
    );
  });
}
