// A long-running object's states (runtime.states): whether what AWS answered about it (its read
// answer, or the answer of a call that changed it) may be written to now, and if not, why, in
// AWS's words — the object's own state, or that of one of its parts (an index, a replica). Pure.
import type { RuntimeDeclaration } from "../../codegen/declaration.ts";

type States = NonNullable<RuntimeDeclaration["states"]>;
type Fields = Readonly<Record<string, unknown>>;

/** Whether a state holds writes: it is not a ready one, or (an open list of states) a busy one. */
function holds(states: States, state: unknown): state is string {
  if (typeof state !== "string") return false;
  if (states.busy !== undefined) return states.busy.includes(state);
  return !states.ready.includes(state) && states.alsoWritable?.includes(state) !== true;
}

/**
 * The state that holds writes to the object `item` describes ("UPDATING", "CREATING (index g)"),
 * or undefined when it may be written to.
 */
export function heldBy(states: States, item: Fields): string | undefined {
  for (const member of membersOf(states)) {
    const own = item[member];
    if (holds(states, own)) return own;
  }
  for (const part of states.parts ?? []) {
    for (const p of (item[part.list] as Fields[] | undefined) ?? []) {
      if (holds(states, p[part.member]))
        return `${p[part.member]} (${part.noun} ${String(p[part.name] ?? "")})`;
    }
  }
  return undefined;
}

/** The members holding the object's state (Lambda has two: State, LastUpdateStatus). */
export function membersOf(states: States): readonly string[] {
  return typeof states.member === "string" ? [states.member] : states.member;
}

/** What the reconciler is told while a state holds writes: the reason, the words, when to look again. */
export function waitFor(states: States, what: string, service: string, state: string) {
  const stuck = states.stuck?.includes(state) === true;
  const until = states.ready === undefined ? "" : ` until it is ${states.ready.join(" or ")}`;
  const advice = states.advice?.[state];
  return {
    reason: membersOf(states)[0] ?? "State",
    message: stuck
      ? `${what} is ${state} in AWS, a state ${service} does not leave on its own${advice === undefined ? "" : ` (${advice})`}; crossrole changes nothing${until}`
      : `${what} is ${state} in AWS; waiting${until}`,
    requeueAfterMs: (states.pollSeconds ?? 10) * 1000 * (stuck ? 4 : 1),
  };
}
