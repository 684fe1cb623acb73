// The AWS accounts each namespace is granted: every account it reaches, actually or potentially
// (what it could get by writing in its own namespace), as the audit computes it from the same
// snapshot the controller resolves with. What a policy document's principals are compared with
// (src/controller/reconcile/principals.ts). Pure; one audit per snapshot, remembered with it.
import type { Snapshot } from "../resolver/snapshot-types.ts";
import { computeAudit } from "./compute.ts";
import type { AuditInput } from "./input.ts";

export interface NamespaceAccounts {
  /** The accounts its reaches name, sorted. */
  readonly accounts: readonly string[];
  /** A reach whose account only STS can name (static keys, the controller's unknown account). */
  readonly unknown: boolean;
}

const bySnapshot = new WeakMap<Snapshot, ReadonlyMap<string, NamespaceAccounts>>();

/** Every namespace's granted accounts under `input` (its snapshot's namespaces; none: no reach). */
export function namespaceAccounts(
  input: Pick<AuditInput, "snapshot" | "settings" | "kinds">,
): ReadonlyMap<string, NamespaceAccounts> {
  const known = bySnapshot.get(input.snapshot);
  if (known !== undefined) return known;
  const report = computeAudit({ ...input, source: { from: "cluster", detail: "the controller's snapshot" } });
  const accounts = new Map<string, Set<string>>();
  const unknown = new Set<string>();
  for (const reach of report.reaches) {
    const of = accounts.get(reach.namespace) ?? new Set<string>();
    accounts.set(reach.namespace, of);
    if (reach.account === null) unknown.add(reach.namespace);
    else of.add(reach.account);
  }
  const out = new Map(
    [...accounts].map(([ns, set]) => [ns, { accounts: [...set].sort(), unknown: unknown.has(ns) }] as const),
  );
  bySnapshot.set(input.snapshot, out);
  return out;
}
