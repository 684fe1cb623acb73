// Potential reaches through a resource's own owner-account-id annotation (CARM mode with
// ResourceLevelCARM): for each account the namespace's allowed-owner-account-ids lists, the
// resolver is asked about a resource of each kind carrying that annotation. Namespaces with an
// allowed list are few and their lists short, so every case goes through resolve() itself.

import { namespaceAnnotations, resourceAnnotations } from "../api/annotations.ts";
import { type AuditContext, carmActive, decide, grantOfDecision } from "./context.ts";
import type { Conflicts } from "./plain.ts";

export function addResourceAccountReaches(ctx: AuditContext, conflicts: Conflicts): void {
  const { settings, namespaces, kinds, kindSets, reaches } = ctx;
  if (!carmActive(settings) || !settings.featureGates.ResourceLevelCARM) return;
  for (const ns of namespaces.all) {
    const allowed = ns.allowedOwnerAccountIds;
    if (allowed === null || !allowed.ok) continue;
    for (const account of allowed.value) {
      const annotations = { [resourceAnnotations.ownerAccountId]: account };
      const how = `resources annotated ${resourceAnnotations.ownerAccountId}=${account} (listed in the namespace's ${namespaceAnnotations.allowedOwnerAccountIds})`;
      kinds.forEach((kind, index) => {
        const { identity } = decide(ctx, kind, ns.name, annotations);
        if (identity.outcome === "use" && identity.drift === null) {
          const grant = grantOfDecision(ctx, identity, ns, kind.service, account);
          if (grant !== null) reaches.add(ns.name, grant, false, kindSets.bit(index), how);
        } else if (identity.outcome === "conflict") {
          conflicts.record(identity, ns.name, kindSets.bit(index));
        }
      });
    }
  }
}
