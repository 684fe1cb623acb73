// Online `migrate` and `audit`: everything the resolver reads, for every namespace at once — Namespaces, the
// CARM ConfigMaps of the system namespace, IAMRoleSelectors, identities — and every existing
// resource of each served kind. GET/LIST only: nothing is written, nothing watched.
import type { ResourceKind } from "../api/kinds.ts";
import type { ResourceObject } from "../resolver/types.ts";
import { createKubeClient } from "../runtime/kube-client.ts";
import { userAgent } from "../version.ts";
import {
  crdNotInstalledNote,
  guard,
  type ListedKind,
  listKind,
  namespaceFromMetadata,
  readCarmConfigMaps,
} from "./cluster-source.ts";
import { type ConfigurationObjects, iamRoleSelectorKind, identityKinds, type KubeObject } from "./inputs.ts";
import type { LoadedKubeconfig } from "./kubeconfig.ts";

export interface AllInputs {
  readonly objects: ConfigurationObjects;
  readonly resources: readonly ResourceObject[];
  /** What the CLI had to assume or could not see. */
  readonly notes: readonly string[];
}

interface Listed {
  readonly items?: readonly Record<string, unknown>[];
}

export async function collectAllFromCluster(
  loaded: LoadedKubeconfig,
  query: { readonly systemNamespace: string; readonly kinds: readonly ResourceKind[] },
): Promise<AllInputs> {
  const kube = createKubeClient(loaded.kubeConfig, { userAgent });
  const get = <T>(description: string, path: string) =>
    guard(loaded, description, () => kube.request<T>({ method: "GET", path }));
  const notes: string[] = [];
  /** Every object of a kind, in every namespace; a 404 means its CRD is not installed. */
  const listAll = async (kind: ListedKind): Promise<KubeObject[]> => {
    const listed = await listKind(loaded, kube, kind, null);
    if (!listed.notFound) return listed.value;
    notes.push(crdNotInstalledNote(kind, "none"));
    return [];
  };

  const [namespaceList, configMaps, selectors, identityLists, resourceLists] = await Promise.all([
    get<Listed>("list Namespaces", "/api/v1/namespaces"),
    readCarmConfigMaps(loaded, kube, query.systemNamespace),
    listAll(iamRoleSelectorKind),
    Promise.all(identityKinds.map(listAll)),
    Promise.all(query.kinds.map(listAll)),
  ]);

  const namespaces = namespaceList.notFound
    ? []
    : (namespaceList.value.items ?? []).map((item) =>
        namespaceFromMetadata(item["metadata"] as Record<string, unknown> | undefined),
      );
  return {
    objects: {
      namespaces,
      configMaps,
      iamRoleSelectors: selectors,
      identities: identityLists.flat(),
    },
    resources: resourceLists.flat() as unknown as ResourceObject[],
    notes,
  };
}
