// What `crossrole migrate` prints: the selectors as multi-document YAML (stdout, ready for
// `kubectl apply -f -`), the `-o json` object, and the proof summary (stderr, for a person).
import { Document } from "yaml";
import type { ComparedField, MigrationChange, MigrationResult, ModeDecision } from "../migrate/types.ts";

/** One YAML document per selector, each introduced by a comment saying what it replaces. */
export function selectorsYaml(result: MigrationResult): string {
  if (result.selectors.length === 0) return "";
  return result.selectors
    .map(({ selector, grant, kinds, namespaces, label }) => {
      const doc = new Document(selector);
      const types = selector.spec.resourceTypeSelector === undefined ? "every kind" : kinds.join(", ");
      const by = label === undefined ? "" : `, and any namespace labelled ${label.key}=${label.value}`;
      // On the contents, not the document: a document comment is followed by a blank line.
      if (doc.contents !== null) {
        doc.contents.commentBefore = ` Replaces ${grant.origin} for namespace${namespaces.length === 1 ? "" : "s"} ${namespaces.join(", ")}${by} (${types}).`;
      }
      return doc.toString({ lineWidth: 0 });
    })
    .join("---\n");
}

/** `-o json`: the selectors as objects to apply, then the proof. */
export function jsonReport(result: MigrationResult): string {
  return `${JSON.stringify(
    {
      selectors: result.selectors.map((g) => g.selector),
      changes: result.changes,
      decided: result.decided,
      proofOver: result.proofOver,
      notes: result.notes,
      selectBy: result.selectBy,
      namespaceLabels: result.namespaceLabels,
    },
    null,
    2,
  )}\n`;
}

const fieldNames: Readonly<Record<ComparedField, string>> = {
  outcome: "outcome",
  roleARN: "role",
  account: "account",
  region: "region",
  endpoint: "endpoint",
  externalID: "external ID",
};

function valueText(field: ComparedField, d: ModeDecision): string {
  if (field === "outcome") {
    // The refusal's message is in `why`; for `use`, say with what.
    if (d.outcome !== "use") return d.outcome;
    return d.roleARN === null ? "use (the controller's own credentials)" : `use (role ${d.roleARN})`;
  }
  const value = d[field];
  if (value !== null) return value;
  if (d.outcome !== "use") return "(none: nothing is done in AWS)";
  switch (field) {
    case "roleARN":
      return "(the controller's own credentials)";
    case "account":
      return "(the controller's own)";
    case "endpoint":
      return "(the AWS SDK's regional endpoint)";
    default:
      return "(none)";
  }
}

/** `account 111111111111 → 222222222222; role … → …`: what changes, old value first. */
function whatChanges(change: MigrationChange): string {
  // Once the outcome differs, the other fields only repeat it.
  const fields: readonly ComparedField[] = change.fields.includes("outcome") ? ["outcome"] : change.fields;
  return fields
    .map((f) => `${fieldNames[f]} ${valueText(f, change.from)} → ${valueText(f, change.to)}`)
    .join("; ");
}

function subjectText(c: { kind: string; namespace: string; name: string; synthetic: boolean }): string {
  return c.synthetic
    ? `${c.kind} ${c.namespace}/* (any ${c.kind} in ${c.namespace})`
    : `${c.kind} ${c.namespace}/${c.name}`;
}

export interface SummaryOptions {
  readonly allowChanges: boolean;
  /** The CLI's own notes (what it assumed or could not see), shown with the migration's. */
  readonly inputNotes: readonly string[];
}

/** The proof as a person reads it (stderr). */
export function proofSummary(result: MigrationResult, opts: SummaryOptions): string {
  const lines: string[] = [];
  const n = result.selectors.length;
  lines.push(
    n === 0
      ? "No CARM map entry decides any namespace today: no IAMRoleSelector is needed."
      : n === 1
        ? "1 IAMRoleSelector replaces the CARM map entry in use (stdout)."
        : `${n} IAMRoleSelectors replace the CARM map entries in use (stdout).`,
  );
  const decided = result.decided.length;
  const what =
    result.proofOver === "resources"
      ? `${decided} resource${decided === 1 ? "" : "s"}`
      : `${decided} namespace × kind combination${decided === 1 ? "" : "s"} (no resources exist yet)`;
  const m = result.changes.length;
  lines.push(
    m === 0
      ? `${what} decided in both modes, none would change.`
      : `${what} decided in both modes, ${m} would change:`,
  );
  for (const change of result.changes) {
    lines.push(`  ${subjectText(change)}: ${whatChanges(change)}`);
    lines.push(`    why: ${change.why}`);
    lines.push(`    fix: ${change.fix}`);
  }
  const labels = result.namespaceLabels;
  if (labels.length > 0) {
    // One line per namespace, all its labels at once: what to run before applying.
    lines.push("First label the namespaces the selectors select (the proof assumes these labels):");
    const byNamespace = new Map<string, string[]>();
    for (const l of labels)
      byNamespace.set(l.namespace, [...(byNamespace.get(l.namespace) ?? []), `${l.key}=${l.value}`]);
    for (const [namespace, pairs] of byNamespace)
      lines.push(`  kubectl label namespace ${namespace} ${pairs.join(" ")}`);
  }
  const notes = [...opts.inputNotes, ...result.notes];
  if (notes.length > 0) {
    lines.push("Notes:");
    for (const note of notes) lines.push(`  - ${note}`);
  }
  const next =
    (labels.length > 0 ? "label the namespaces (above), " : "") +
    "apply the selectors (kubectl apply -f <the output>), then restart the controller with --feature-gates IAMRoleSelector=true --enable-carm=false";
  if (m === 0) lines.push(`Next: ${next}.`);
  else if (opts.allowChanges)
    lines.push(`--allow-changes: accepting ${m} change${m === 1 ? "" : "s"}. Next: ${next}.`);
  else {
    lines.push(
      `Not safe to switch yet: ${m} would change (exit 3). Apply the fixes and re-run, or pass --allow-changes to accept them.`,
    );
  }
  return `${lines.join("\n")}\n`;
}
