// Every CRD crossrole ships, in a stable order: `npm run generate` writes one YAML per entry into
// config/crd/, and the admission tests install them all. A composition root: the API kinds come
// from src/api, each resource kind's CRD from the catalog of served kinds (src/services/catalog.ts,
// which the compiler keeps complete: a kind without a module has no entry, and no CRD).
// Loaded, not imported: the controller itself never needs the kinds' CRD sources.

import { iamRoleSelectorCrdSource, identityCrdSources } from "./api/config-crd-sources.ts";
import type { CrdSource } from "./api/crd.ts";
import { resourceKinds } from "./api/kinds.ts";
import { servedKindCatalog } from "./services/catalog.ts";

/** Each resource kind's CRD source, in the order of src/api/kinds.ts. */
export async function loadResourceCrdSources(): Promise<CrdSource[]> {
  return Promise.all(resourceKinds.map((k) => servedKindCatalog[k.kind].crd()));
}

/** Every CRD source: crossrole's own API kinds, then the resource kinds. */
export async function loadCrdSources(): Promise<CrdSource[]> {
  return [iamRoleSelectorCrdSource, ...identityCrdSources, ...(await loadResourceCrdSources())];
}

/** The CRD source (and so the zod schema) for an object's apiVersion and kind, among `sources`. */
export function crdSourceFor(
  sources: readonly CrdSource[],
  apiVersion: string,
  kind: string,
): CrdSource | undefined {
  return sources.find((s) => `${s.names.group}/${s.names.version}` === apiVersion && s.names.kind === kind);
}
