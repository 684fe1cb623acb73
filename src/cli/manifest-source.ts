// Offline `explain`: picks the resource and the configuration the resolver reads out of a set
// of manifests, as if they had been applied to an otherwise empty cluster.
import { resourceKinds } from "../api/kinds.ts";
import type { ResourceObject } from "../resolver/types.ts";
import { closestKnown } from "./did-you-mean.ts";
import { badInput } from "./errors.ts";
import {
  assumedNamespace,
  type ConfigurationObjects,
  carmConfigMapNames,
  type ExplainInputs,
  groupOf,
  iamRoleSelectorKind,
  identityKinds,
  type KubeObject,
  metadataString,
} from "./inputs.ts";
import type { ManifestObject } from "./manifests.ts";
import type { Target } from "./target.ts";

export interface ManifestQuery {
  readonly target: Target;
  readonly namespace: string;
  readonly systemNamespace: string;
  /** The --from arguments, to name them in "not found". */
  readonly sources: readonly string[];
}

export function collectFromManifests(
  manifests: readonly ManifestObject[],
  query: ManifestQuery,
): ExplainInputs {
  const notes: string[] = [];
  const targets: ManifestObject[] = [];
  const objects = sortManifests(manifests, query.systemNamespace, notes, (manifest, group, kind) => {
    if (group === query.target.kind.group && kind === query.target.kind.kind) targets.push(manifest);
  });
  const resource = pickResource(targets, query, notes);
  if (!objects.namespaces.some((ns) => metadataString(ns, "name") === query.namespace)) {
    objects.namespaces.push(assumedNamespace(query.namespace));
    notes.push(
      `Namespace ${query.namespace} is not in the manifests; assuming it exists without labels or annotations.`,
    );
  }
  return { objects, resource, notes };
}

export interface SortedConfiguration extends ConfigurationObjects {
  readonly namespaces: KubeObject[];
  readonly configMaps: KubeObject[];
  readonly iamRoleSelectors: KubeObject[];
  readonly identities: KubeObject[];
}

/**
 * Core kinds crossrole reads besides Namespaces and ConfigMaps: Secrets (static identities'
 * keys, database passwords) and ServiceAccounts (AWSServiceAccountIdentity). Offline they
 * decide nothing, but a manifest of them is expected, not a mistake.
 */
const otherCoreKinds: readonly string[] = ["Secret", "ServiceAccount"];

/**
 * The configuration the resolver reads out of `manifests` (Namespaces, ConfigMaps,
 * IAMRoleSelectors, identities), in file order; every manifest of a resource kind crossrole
 * knows goes to `other`. Rejects an object defined twice, notes a CARM map outside the system
 * namespace, and notes every manifest of a kind crossrole neither serves nor reads (a misspelt
 * `Buckets`, an ACK kind it does not serve): silently skipping it would hide the mistake.
 */
export function sortManifests(
  manifests: readonly ManifestObject[],
  systemNamespace: string,
  notes: string[],
  other: (manifest: ManifestObject, group: string | undefined, kind: unknown) => void,
): SortedConfiguration {
  rejectDuplicates(manifests);
  const objects: SortedConfiguration = {
    namespaces: [],
    configMaps: [],
    iamRoleSelectors: [],
    identities: [],
  };
  for (const manifest of manifests) {
    const { object, origin } = manifest;
    const group = groupOf(object["apiVersion"]);
    const kind = object["kind"];
    if (group === "" && kind === "Namespace") {
      objects.namespaces.push(object);
    } else if (group === "" && kind === "ConfigMap") {
      objects.configMaps.push(object);
      noteMisplacedCarmMap(object, origin, systemNamespace, notes);
    } else if (group === iamRoleSelectorKind.group && kind === iamRoleSelectorKind.kind) {
      objects.iamRoleSelectors.push(object);
    } else if (identityKinds.some((k) => k.group === group && k.kind === kind)) {
      objects.identities.push(object);
    } else if (resourceKinds.some((k) => k.group === group && k.kind === kind)) {
      other(manifest, group, kind);
    } else if (!(group === "" && otherCoreKinds.includes(String(kind)))) {
      notes.push(unknownKindNote(origin, group, String(kind)));
    }
  }
  return objects;
}

/** Every kind a manifest may hold without a note, as `kind` + API group. */
const knownKinds: readonly { readonly kind: string; readonly group: string }[] = [
  ...resourceKinds,
  ...identityKinds,
  iamRoleSelectorKind,
  ...["Namespace", "ConfigMap", ...otherCoreKinds].map((kind) => ({ kind, group: "" })),
];

function unknownKindNote(origin: string, group: string | undefined, kind: string): string {
  const what = `${kind}${group === "" || group === undefined ? "" : ` (${group})`}`;
  const sameGroup = resourceKinds.filter((k) => k.group === group).map((k) => k.kind);
  // A kind of a group crossrole serves is most likely a typo of one of that group's kinds.
  const near = closestKnown(kind, sameGroup.length > 0 ? sameGroup : knownKinds.map((k) => k.kind));
  const hint =
    near !== null
      ? ` Did you mean ${near}?`
      : group?.endsWith(".services.k8s.aws") === true
        ? " It is an ACK kind crossrole does not serve: its own ACK controller must manage it."
        : "";
  return `${origin}: kind ${what} is neither a kind crossrole serves nor configuration it reads; it is skipped.${hint}`;
}

function pickResource(
  targets: readonly ManifestObject[],
  query: ManifestQuery,
  notes: string[],
): ResourceObject {
  const { target, namespace } = query;
  const sameName = targets.filter((m) => metadataString(m.object, "name") === target.name);
  const exact = sameName.find((m) => metadataString(m.object, "namespace") === namespace);
  if (exact !== undefined) return exact.object as unknown as ResourceObject;
  // A manifest without a namespace lands in the namespace it is applied to (`kubectl apply -n`).
  const unplaced = sameName.find((m) => metadataString(m.object, "namespace") === undefined);
  if (unplaced !== undefined) {
    notes.push(
      `${target.kind.kind} ${target.name} in ${unplaced.origin} has no metadata.namespace; explaining it as applied to namespace ${namespace}.`,
    );
    const metadata = unplaced.object["metadata"] as Record<string, unknown>;
    return { ...unplaced.object, metadata: { ...metadata, namespace } } as unknown as ResourceObject;
  }
  const others = targets.map(
    (m) => `${metadataString(m.object, "namespace") ?? "(no namespace)"}/${metadataString(m.object, "name")}`,
  );
  throw badInput(
    `${target.kind.kind} ${namespace}/${target.name} not found in ${query.sources.join(", ")}. ` +
      (others.length === 0
        ? `The manifests hold no ${target.kind.kind} at all.`
        : `${target.kind.kind}s found: ${others.join(", ")}.`) +
      " Check the name and -n, or add its manifest to --from.",
  );
}

function noteMisplacedCarmMap(
  object: KubeObject,
  origin: string,
  systemNamespace: string,
  notes: string[],
): void {
  const name = metadataString(object, "name") ?? "";
  const namespace = metadataString(object, "namespace");
  if (!carmConfigMapNames.includes(name) || namespace === systemNamespace) return;
  notes.push(
    `ConfigMap ${name} in ${origin} is ${namespace === undefined ? "without metadata.namespace" : `in namespace ${namespace}`}` +
      ` and is ignored: CARM maps are read only from ${systemNamespace} (--system-namespace).`,
  );
}

/** Two manifests for one object would make the answer depend on the order of the files. */
function rejectDuplicates(manifests: readonly ManifestObject[]): void {
  const seen = new Map<string, string>();
  for (const { object, origin } of manifests) {
    const namespace = metadataString(object, "namespace");
    const name = metadataString(object, "name");
    const key = `${groupOf(object["apiVersion"])}\u0000${String(object["kind"])}\u0000${namespace ?? ""}\u0000${name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw badInput(
        `${String(object["kind"])} ${namespace === undefined ? "" : `${namespace}/`}${name} is defined twice: ` +
          `in ${first} and in ${origin}. Keep one of them.`,
      );
    }
    seen.set(key, origin);
  }
}
