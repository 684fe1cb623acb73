// Building Decisions: the refusal shapes (deny / wait / conflict) and the reason each maps to
// (DESIGN §3.3), plus the trace a resolution writes as it goes.

import type {
  Decision,
  DecisionReason,
  DecisionSource,
  DecisionWarning,
  Outcome,
  TraceStep,
} from "./types.ts";

/** Details read as sentences; refusal messages reused as details may start in lower case. */
function sentence(detail: string): string {
  const first = detail.charCodeAt(0);
  return first >= 97 && first <= 122 ? detail[0]!.toUpperCase() + detail.slice(1) : detail;
}

/** The trace of one resolution, in the order rules were consulted. */
export class Trace {
  readonly steps: TraceStep[] = [];
  /** Things the user asked for that are ignored or look wrong; the reconciler turns each into a Warning Event. */
  readonly warnings: DecisionWarning[] = [];

  taken(rule: string, detail: string): void {
    this.steps.push({ rule, result: "taken", detail: sentence(detail) });
  }

  skipped(rule: string, detail: string): void {
    this.steps.push({ rule, result: "skipped", detail: sentence(detail) });
  }

  failed(rule: string, detail: string): void {
    this.steps.push({ rule, result: "failed", detail: sentence(detail) });
  }

  info(rule: string, detail: string): void {
    this.steps.push({ rule, result: "info", detail: sentence(detail) });
  }

  /** A rule that did not apply because something the user wrote is ignored: traced and warned. */
  warn(rule: string, detail: string): void {
    this.steps.push({ rule, result: "skipped", detail: `Warning: ${detail}.` });
    this.warnings.push({ reason: "AnnotationIgnored", message: sentence(detail) });
  }

  /** Something a rule uses although it looks wrong (an unknown region): traced and warned, not refused. */
  caution(rule: string, reason: string, detail: string): void {
    this.steps.push({ rule, result: "info", detail: `Warning: ${detail}.` });
    this.warnings.push({ reason, message: sentence(detail) });
  }
}

const refusalReasons: Readonly<Record<Exclude<Outcome, "use">, DecisionReason>> = {
  wait: "IdentityUnavailable",
  conflict: "IdentityConflict",
  deny: "IdentityNotPermitted",
};

export function reasonOf(outcome: Exclude<Outcome, "use">): DecisionReason {
  return refusalReasons[outcome];
}

/** A rule's refusal, before it becomes a Decision. */
export interface Refusal {
  readonly outcome: Exclude<Outcome, "use">;
  readonly source: DecisionSource | null;
  readonly message: string;
}

export function refusal(
  outcome: Exclude<Outcome, "use">,
  source: DecisionSource | null,
  message: string,
): Refusal {
  return { outcome, source, message };
}

/** A non-`use` decision: nothing may be called in AWS, so no chain, role, account or region. */
export function refusedDecision(r: Refusal, trace: Trace): Decision {
  return {
    outcome: r.outcome,
    source: r.source,
    reason: reasonOf(r.outcome),
    roleARN: null,
    account: null,
    region: null,
    endpoint: null,
    selector: null,
    chain: [],
    message: r.message,
    trace: trace.steps,
    warnings: trace.warnings,
    drift: null,
  };
}
