// What the administrator should know that changes no decision the proof covered: map entries
// nothing uses (dropped), selectors the output replaces, team endpoints that resources created
// later would lose, and the new session names CloudTrail will show.

import { namespaceAnnotations } from "../api/annotations.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import { canonicalJson } from "../toolkit/canonical-json.ts";
import type { Cell } from "./classify.ts";
import { namespaceLabelKeys } from "./selectors.ts";
import type { GeneratedSelector, MigrationChange, SelectBy } from "./types.ts";

export interface NotesInput {
  readonly cells: readonly Cell[];
  readonly generated: readonly GeneratedSelector[];
  readonly existing: readonly unknown[];
  readonly carmSnapshot: Snapshot;
  readonly changes: readonly MigrationChange[];
  readonly selectBy: SelectBy;
}

function unusedEntries({ cells, carmSnapshot }: NotesInput): string[] {
  const used = new Set(cells.map((c) => `${c.grant.subject}\u0000${c.grant.id}`));
  const notes = new Set<string>();
  const { accountMap, teamMap, carmMap } = carmSnapshot.carm;
  for (const state of [accountMap, teamMap, carmMap]) {
    for (const entries of state.entries.values()) {
      for (const e of entries) {
        if (e.field !== "role-arn" || e.error !== null || used.has(`${e.subject}\u0000${e.id}`)) continue;
        notes.add(
          `No namespace's annotations choose ConfigMap ${carmSnapshot.systemNamespace}/${e.map} key ${e.key} (${e.value.trim()}) today, so no selector replaces it.`,
        );
      }
    }
  }
  return [...notes].sort();
}

function replacedSelectors({ generated, existing }: NotesInput): string[] {
  const notes: string[] = [];
  for (const { selector } of generated) {
    const name = selector.metadata.name;
    const old = existing.find(
      (raw) => (raw as { metadata?: { name?: unknown } } | null)?.metadata?.name === name,
    ) as { spec?: unknown } | undefined;
    if (old !== undefined && canonicalJson(old.spec) !== canonicalJson(selector.spec)) {
      notes.push(
        `IAMRoleSelector ${name} already exists with another spec; applying the output replaces it.`,
      );
    }
  }
  return notes;
}

function teamEndpoints({ cells, carmSnapshot, changes }: NotesInput): string[] {
  const reported = new Set(changes.filter((c) => c.fields.includes("endpoint")).map((c) => c.namespace));
  const notes = new Set<string>();
  for (const cell of cells) {
    if (cell.teamEndpoint === null || reported.has(cell.namespace)) continue;
    const ns = carmSnapshot.namespaces.get(cell.namespace);
    if (ns?.endpointUrl !== null && ns?.endpointUrl !== undefined) continue;
    notes.add(
      `Namespace ${cell.namespace}: team ${ns?.teamId?.raw ?? "?"}'s endpoint ${cell.teamEndpoint} (ack-carm-map) cannot be carried by an IAMRoleSelector; resources created there after the switch would use the default endpoint unless the namespace is annotated ${namespaceAnnotations.endpointUrl}: ${cell.teamEndpoint}.`,
    );
  }
  return [...notes].sort();
}

/**
 * CARM onboards a namespace by annotation: annotate a new namespace with an owner account (or
 * team) and its resources get that role. A selector that lists names does not: after the
 * switch such a namespace matches nothing. Say so, per selector, and how to keep onboarding.
 */
function onboarding({ generated, selectBy }: NotesInput): string[] {
  const notes: string[] = [];
  const byLabel = generated.filter((g) => g.label !== undefined);
  if (byLabel.length > 0) {
    const keys = [...new Set(byLabel.map((g) => g.label!.key))].join(" or ");
    notes.push(
      `Onboarding: after the switch a new namespace gets a role by being labelled ${keys}=<id> (the selectors' labelSelector) instead of annotated; whoever may label namespaces may choose their role.`,
    );
  }
  const byName = generated.filter((g) => g.label === undefined);
  if (byName.length === 0) return notes;
  const names = byName.map((g) => g.selector.metadata.name);
  const shown =
    names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ");
  const annotations = [...new Set(byName.map((g) => g.grant.subject))]
    .sort()
    .map((subject) =>
      subject === "account" ? namespaceAnnotations.ownerAccountId : namespaceAnnotations.teamId,
    )
    .join(" or ");
  notes.push(
    `Onboarding changes: ${shown} select${byName.length === 1 ? "s" : ""} namespaces by name (namespaceSelector.names), so a namespace created or annotated with ${annotations} after the switch gets no role from ${byName.length === 1 ? "it" : "them"} (the annotation is no longer read); add each new namespace to the selector's names${
      selectBy === "names"
        ? `, or re-run with --select-by labels to select namespaces by a label (${namespaceLabelKeys.account}, ${namespaceLabelKeys.team}) and onboard them by labelling.`
        : " (their kinds differ between namespaces, or the CARM id is not a valid label value, so they cannot select by label)."
    }`,
  );
  return notes;
}

export function collectNotes(input: NotesInput): string[] {
  const notes = [
    ...onboarding(input),
    ...unusedEntries(input),
    ...replacedSelectors(input),
    ...teamEndpoints(input),
  ];
  if (input.generated.length > 0) {
    notes.push(
      "After the switch, AssumeRole session names follow the selectors (crossrole-<selector name>) instead of the CARM keys (crossrole-<key>); CloudTrail shows the new names.",
    );
  }
  return notes;
}
