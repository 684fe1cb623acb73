// Every CRD crossrole ships, in a stable order: `npm run generate` writes one YAML per entry into
// config/crd/, and the admission tests install them all. A composition root: the API kinds come
// from src/api, each resource kind's CRD from its service module (src/services), and a kind
// without a module yet gets the provisional resource CRD (identityRef validated, rest kept).

import { iamRoleSelectorCrdSource, identityCrdSources } from "./api/config-crd-sources.ts";
import type { CrdSource } from "./api/crd.ts";
import { resourceKinds } from "./api/kinds.ts";
import { resourceCrdSource } from "./api/resource.ts";
import { serviceCrdSources } from "./services/crds.ts";

export const resourceCrdSources: readonly CrdSource[] = resourceKinds.map(
  (kind) => serviceCrdSources[kind.kind] ?? resourceCrdSource(kind),
);

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
