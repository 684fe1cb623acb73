// Pure part of "loud configuration" (DESIGN §2.3, §2.4): what the controller says about the
// snapshot's problems. A problem is reported when it appears and once more when it goes away,
// never again while it stays — so the diff against the set already reported decides, and the
// wording (Event reason and message, log fields) is built here once for both Events and logs.
import { accountMapName, carmMapName, teamMapName } from "../api/carm.ts";
import { isIdentityKind } from "../api/identity-ref.ts";
import { describeRef } from "../resolver/snapshot-objects.ts";
import type { SnapshotProblem } from "../resolver/types.ts";

/** core/v1 Event messages are cut at 1 KiB by kubectl and most sinks; stay inside. */
const maxMessageLength = 1024;

/** What identifies a problem across snapshots: everything it says, nothing about when. */
export function problemKey(p: SnapshotProblem): string {
  const o = p.object;
  return JSON.stringify([
    o.kind,
    o.namespace ?? "",
    o.name,
    p.field,
    p.severity,
    p.message,
    p.fix,
    p.value,
    p.reason,
  ]);
}

export interface ProblemDiff {
  /** Problems not reported before, in snapshot order. */
  readonly added: readonly SnapshotProblem[];
  /** Problems reported before that the snapshot no longer has, in their old order. */
  readonly resolved: readonly SnapshotProblem[];
  /** The new "already reported" set, to pass as `previous` next time. */
  readonly reported: ReadonlyMap<string, SnapshotProblem>;
}

export function diffProblems(
  previous: ReadonlyMap<string, SnapshotProblem>,
  current: readonly SnapshotProblem[],
): ProblemDiff {
  const reported = new Map<string, SnapshotProblem>();
  const added: SnapshotProblem[] = [];
  for (const p of current) {
    const key = problemKey(p);
    if (reported.has(key)) continue;
    reported.set(key, p);
    if (!previous.has(key)) added.push(p);
  }
  const resolved = [...previous].filter(([key]) => !reported.has(key)).map(([, p]) => p);
  return { added, resolved, reported };
}

const mapReasons: Readonly<Record<string, string>> = {
  [accountMapName]: "InvalidAccountMapEntry",
  [teamMapName]: "InvalidTeamMapEntry",
  [carmMapName]: "InvalidCarmMapEntry",
};

/** The Warning Event reason for a problem: its own, else by what kind of object it is about. */
export function problemReason(p: SnapshotProblem): string {
  if (p.reason !== undefined) return p.reason;
  const { kind, name } = p.object;
  if (kind === "ConfigMap") return mapReasons[name] ?? "InvalidConfigMap";
  if (kind === "IAMRoleSelector") return "InvalidSelector";
  if (kind === "Namespace") return "InvalidNamespaceConfig";
  if (isIdentityKind(kind) || kind === "(identity)") return "InvalidIdentity";
  return "InvalidConfiguration";
}

/** Reason of the Normal Event when a problem is gone. */
export const resolvedReason = "ConfigProblemResolved";

/**
 * Why the problem is a problem, without the object's name in front: the Event is attached to
 * that object already, and the log line names it in its own fields.
 */
export function problemWhy(p: SnapshotProblem): string {
  const prefix = `${describeRef(p.object)}: `;
  return p.message.startsWith(prefix) ? p.message.slice(prefix.length) : p.message;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A value as a message shows it: quoted, unless it is already JSON (an object or a list). */
function quote(value: string): string {
  return /^[[{]/.test(value) ? value : JSON.stringify(value);
}

/** `<field> = "<value>": <why>. Fix: <fix>.` — everything an administrator needs, in one line. */
export function problemMessage(p: SnapshotProblem): string {
  const where = p.value === undefined ? p.field : `${p.field} = ${quote(p.value)}`;
  const text = `${where}: ${sentence(problemWhy(p))} Fix: ${sentence(p.fix)}`;
  return text.length <= maxMessageLength ? text : `${text.slice(0, maxMessageLength - 1)}…`;
}

/** The message of the Normal Event when the problem is gone. */
export function resolvedMessage(p: SnapshotProblem): string {
  const text = `Resolved: ${p.field}: ${sentence(problemWhy(p))}`;
  return text.length <= maxMessageLength ? text : `${text.slice(0, maxMessageLength - 1)}…`;
}

/**
 * The structured fields of a `config.problem` / `config.problem.resolved` log line. The object
 * is nested: a top-level `name` would collide with the logger's own `name` field.
 */
export function problemLogFields(p: SnapshotProblem): Record<string, unknown> {
  return {
    object: { ...p.object },
    field: p.field,
    ...(p.value === undefined ? {} : { value: p.value }),
    severity: p.severity,
    reason: problemReason(p),
    why: problemWhy(p),
    fix: p.fix,
  };
}
