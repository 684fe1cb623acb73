// Online `migrate` and `audit`: everything the resolver reads, for every namespace at once — Namespaces, the
// CARM ConfigMaps of the system namespace, IAMRoleSelectors, identities — and every existing
// resource of each served kind. GET/LIST only: nothing is written, nothing watched.
import type { ResourceKind } from "../api/kinds.ts";
import type { ResourceObject } from "../resolver/types.ts";
import { createKubeClient } from "../runtime/kube-client.ts";
import { userAgent } from "../version.ts";
import { guard, type ListedKind, listKind, plainMetadata } from "./cluster-source.ts";
import {
  type ConfigurationObjects,
  carmConfigMapNames,
  iamRoleSelectorKind,
  identityKinds,
  type KubeObject,
} from "./inputs.ts";
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
    notes.push(`The ${kind.kind} CRD (${kind.plural}.${kind.group}) is not installed; treating it as none.`);
    return [];
  };
  const system = encodeURIComponent(query.systemNamespace);

  const [namespaceList, configMaps, selectors, identityLists, resourceLists] = await Promise.all([
    get<Listed>("list Namespaces", "/api/v1/namespaces"),
    Promise.all(
      carmConfigMapNames.map((name) =>
        get<KubeObject>(
          `get ConfigMap ${query.systemNamespace}/${name}`,
          `/api/v1/namespaces/${system}/configmaps/${encodeURIComponent(name)}`,
        ),
      ),
    ),
    listAll(iamRoleSelectorKind),
    Promise.all(identityKinds.map(listAll)),
    Promise.all(query.kinds.map(listAll)),
  ]);

  const namespaces = namespaceList.notFound
    ? []
    : (namespaceList.value.items ?? []).map(
        (item): KubeObject => ({
          apiVersion: "v1",
          kind: "Namespace",
          metadata: plainMetadata(item["metadata"] as Record<string, unknown> | undefined),
        }),
      );
  const carmMaps: KubeObject[] = [];
  for (const configMap of configMaps) {
    if (configMap.notFound) continue; // a missing map is what the resolver reports
    carmMaps.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: plainMetadata(configMap.value["metadata"] as Record<string, unknown> | undefined),
      data: configMap.value["data"] ?? {},
    });
  }
  return {
    objects: {
      namespaces,
      configMaps: carmMaps,
      iamRoleSelectors: selectors,
      identities: identityLists.flat(),
    },
    resources: resourceLists.flat() as unknown as ResourceObject[],
    notes,
  };
}
