// The AWS accounts a namespace is granted: every account it reaches, actually or potentially
// (what it could get by writing in its own namespace), as the audit computes it from the same
// snapshot the controller resolves with. What a policy document's principals are compared with
// (src/controller/reconcile/principals.ts). Pure; computed for the one namespace asked (the audit
// of a snapshot holding only it: reaches are per namespace), remembered with the snapshot.
import type { Snapshot } from "../resolver/snapshot-types.ts";
import { computeAudit } from "./compute.ts";
import type { AuditInput } from "./input.ts";

export interface NamespaceAccounts {
  /** The accounts its reaches name, sorted. */
  readonly accounts: readonly string[];
  /** A reach whose account only STS can name (static keys, the controller's unknown account). */
  readonly unknown: boolean;
}

const none: NamespaceAccounts = { accounts: [], unknown: false };
const bySnapshot = new WeakMap<Snapshot, Map<string, NamespaceAccounts>>();

/** `namespace`'s granted accounts under `input`; none for a namespace the snapshot does not hold. */
export function namespaceAccounts(
  input: Pick<AuditInput, "snapshot" | "settings" | "kinds">,
  namespace: string,
): NamespaceAccounts {
  const known = bySnapshot.get(input.snapshot) ?? new Map<string, NamespaceAccounts>();
  bySnapshot.set(input.snapshot, known);
  const remembered = known.get(namespace);
  if (remembered !== undefined) return remembered;
  const config = input.snapshot.namespaces.get(namespace);
  if (config === undefined) return none;
  // The namespace alone: an audit of the whole cluster at every configuration change would cost
  // as much for each namespace as for all of them.
  const alone: Snapshot = { ...input.snapshot, namespaces: new Map([[namespace, config]]) };
  const report = computeAudit({
    ...input,
    snapshot: alone,
    source: { from: "cluster", detail: "the controller's snapshot" },
  });
  const accounts = new Set<string>();
  let unknown = false;
  for (const reach of report.reaches) {
    if (reach.namespace !== namespace) continue;
    if (reach.account === null) unknown = true;
    else accounts.add(reach.account);
  }
  const found = { accounts: [...accounts].sort(), unknown };
  known.set(namespace, found);
  return found;
}
