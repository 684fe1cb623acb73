// Existing resources: each is resolved as the controller would, and a `use` decision names it
// on the reach it goes through ("in use by"), a `conflict` adds it to the conflict findings, a
// `deny` to the denied ones (denied.ts).
// A resource that reaches a grant by a route the audit lists under another reach of the same
// namespace and grant (labels, an annotation) is attached there; one whose route is not listed
// at all gets a reach of its own, so nothing in use is ever missing from the report.

import { resourceAnnotations } from "../api/annotations.ts";
import { apiVersionOf } from "../api/kinds.ts";
import { resolve } from "../resolver/resolve.ts";
import { annotationOf } from "../resolver/resource-info.ts";
import type { ResourceObject } from "../resolver/types.ts";
import type { AuditContext } from "./context.ts";
import { grantOfDecision } from "./context.ts";
import type { Denials } from "./denied.ts";
import type { Conflicts } from "./plain.ts";

export function applyExistingResources(
  ctx: AuditContext,
  resources: readonly ResourceObject[],
  conflicts: Conflicts,
  denials: Denials,
): void {
  const { snapshot, settings, kinds, kindSets, reaches } = ctx;
  for (const resource of resources) {
    const namespace = resource.metadata?.namespace ?? "";
    const index = kinds.findIndex((k) => k.kind === resource.kind && apiVersionOf(k) === resource.apiVersion);
    if (index < 0) continue;
    const kind = kinds[index]!;
    const label = `${kind.kind} ${namespace}/${resource.metadata.name}`;
    const bit = kindSets.bit(index);
    const decision = resolve(resource, namespace, snapshot, settings);
    if (decision.outcome === "conflict") {
      conflicts.record(decision, namespace, bit, label);
      continue;
    }
    if (decision.outcome === "deny") {
      denials.record(ctx, resource, decision, label);
      continue;
    }
    const config = snapshot.namespaces.get(namespace);
    if (decision.outcome !== "use" || decision.drift !== null || config === undefined) continue;
    const account = annotationOf(resource.metadata, resourceAnnotations.ownerAccountId);
    const grant = grantOfDecision(ctx, decision, config, kind.service, account);
    if (grant === null) continue;
    const through = reaches.through(namespace, grant).filter((r) => r.kinds.includes(kind.kind));
    const reach =
      through.find((r) => r.actual) ??
      through[0] ??
      reaches.add(
        namespace,
        grant,
        false,
        bit,
        "existing resources use it (through their own labels or annotations)",
      );
    // The audit built this array; it is frozen into the report only once all are attached.
    if (reach.resources === undefined) reach.resources = [label];
    else (reach.resources as string[]).push(label);
  }
}
