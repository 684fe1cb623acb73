// `explain`'s problems for the resource's own policy documents: principals in accounts its
// namespace is not granted, or every account (src/audit/ungranted-principals.ts), as the controller
// warns of them (or refuses them with --ungranted-principals=refuse).
import { namespaceAccounts } from "../audit/namespace-accounts.ts";
import { ungrantedPrincipals } from "../audit/ungranted-principals.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, ResourceObject, Settings, SnapshotProblem } from "../resolver/types.ts";
import { servedKindCatalog } from "../services/catalog.ts";
import { isServed, servedResourceKinds } from "../services/served.ts";

export async function principalProblems(
  resource: ResourceObject,
  decision: Decision,
  snapshot: Snapshot,
  settings: Settings,
): Promise<SnapshotProblem[]> {
  if (!isServed(resource.kind)) return [];
  const fields =
    (await servedKindCatalog[resource.kind as keyof typeof servedKindCatalog].module()).principalFields ?? [];
  if (fields.length === 0) return [];
  const namespace = resource.metadata.namespace ?? "";
  const granted = namespaceAccounts({ snapshot, settings, kinds: servedResourceKinds }, namespace);
  const spec = (resource.spec ?? {}) as Record<string, unknown>;
  return ungrantedPrincipals(spec, fields, namespace, granted, decision.account).map((f) => ({
    object: { kind: resource.kind, namespace, name: resource.metadata.name },
    field: `spec.${f.field}`,
    severity: "warning",
    message: `${resource.kind} ${namespace}/${resource.metadata.name}: ${f.why}`,
    fix: `${f.fix}; a controller run with --ungranted-principals=refuse refuses it`,
    reason: "PrincipalNotGranted",
  }));
}
