// Every CRD crossrole ships, in a stable order: `npm run generate` writes one YAML per entry into
// config/crd/, and the admission tests install them all. A composition root: the API kinds come
// from src/api, each resource kind's CRD from its service module (src/services). A kind without
// a module gets no CRD at all: a CRD nobody reconciles would accept objects that silently do
// nothing in AWS, so generating or installing one is an error naming the kind.

import { iamRoleSelectorCrdSource, identityCrdSources } from "./api/config-crd-sources.ts";
import type { CrdSource } from "./api/crd.ts";
import { apiVersionOf, type ResourceKind, resourceKinds } from "./api/kinds.ts";
import { serviceCrdSources } from "./services/crds.ts";

/** Each kind's CRD from its service module; a kind without one is refused, by name. */
export function crdSourcesOf(
  kinds: readonly ResourceKind[],
  sources: Readonly<Record<string, CrdSource>>,
): CrdSource[] {
  const unserved = kinds.filter((k) => sources[k.kind] === undefined);
  if (unserved.length > 0) {
    throw new Error(
      `no service module serves ${unserved.map((k) => `${apiVersionOf(k)} ${k.kind}`).join(", ")}: crossrole installs no CRD for a kind it does not reconcile (add src/services/<service>/ and list it in src/services/registry.ts and crds.ts)`,
    );
  }
  return kinds.map((k) => sources[k.kind] as CrdSource);
}

export const resourceCrdSources: readonly CrdSource[] = crdSourcesOf(resourceKinds, serviceCrdSources);

export const crdSources: readonly CrdSource[] = [
  iamRoleSelectorCrdSource,
  ...identityCrdSources,
  ...resourceCrdSources,
];

/** The CRD source (and so the zod schema) for an object's apiVersion and kind. */
export function crdSourceFor(apiVersion: string, kind: string): CrdSource | undefined {
  return crdSources.find(
    (s) => `${s.names.group}/${s.names.version}` === apiVersion && s.names.kind === kind,
  );
}
