// Offline `migrate` (--from): the whole configuration and every managed resource in a set of
// manifests, as if they had been applied to an otherwise empty cluster.
import type { ResourceKind } from "../api/kinds.ts";
import type { ResourceObject } from "../resolver/types.ts";
import type { AllInputs } from "./all-from-cluster.ts";
import { assumedNamespace, type KubeObject, metadataString } from "./inputs.ts";
import { sortManifests } from "./manifest-source.ts";
import type { ManifestObject } from "./manifests.ts";

/** Where a manifest without metadata.namespace lands (`kubectl apply` without -n). */
const defaultNamespace = "default";

export function collectAllFromManifests(
  manifests: readonly ManifestObject[],
  query: { readonly systemNamespace: string; readonly kinds: readonly ResourceKind[] },
): AllInputs {
  const notes: string[] = [];
  const resources: ResourceObject[] = [];
  const objects = sortManifests(
    manifests,
    query.systemNamespace,
    notes,
    ({ object, origin }, group, kind) => {
      if (query.kinds.some((k) => k.group === group && k.kind === kind))
        resources.push(placed(object, origin, notes));
    },
  );
  const { namespaces } = objects;
  const known = new Set(namespaces.map((ns) => metadataString(ns, "name")));
  for (const namespace of [...new Set(resources.map((r) => r.metadata.namespace ?? ""))].sort()) {
    if (known.has(namespace)) continue;
    namespaces.push(assumedNamespace(namespace));
    notes.push(
      `Namespace ${namespace} is not in the manifests; assuming it exists without labels or annotations.`,
    );
  }
  return { objects, resources, notes };
}

/** The resource, in `default` when its manifest names no namespace. */
function placed(object: KubeObject, origin: string, notes: string[]): ResourceObject {
  if (metadataString(object, "namespace") !== undefined) return object as unknown as ResourceObject;
  notes.push(
    `${String(object["kind"])} ${metadataString(object, "name")} in ${origin} has no metadata.namespace; taking it as applied to namespace ${defaultNamespace}.`,
  );
  const metadata = object["metadata"] as Record<string, unknown>;
  return { ...object, metadata: { ...metadata, namespace: defaultNamespace } } as unknown as ResourceObject;
}
