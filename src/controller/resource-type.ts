// The API resource of a managed kind, from the kind alone (its service module need not be
// loaded): what informers watch and what the reconciler reads a referenced object through.
import type { ResourceKind } from "../api/kinds.ts";
import type { ResourceType } from "../runtime/kube-object.ts";

export function resourceTypeOf(k: ResourceKind): ResourceType {
  return { group: k.group, version: k.version, plural: k.plural, kind: k.kind, namespaced: true };
}
