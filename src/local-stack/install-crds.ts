// Installs crossrole's generated CRDs (config/crd/) and waits until every kind is served.
import { fileURLToPath } from "node:url";
import type { KubeClient } from "../runtime/kube-client.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { waitFor } from "../runtime/wait-for.ts";
import { applyObjects, readManifests } from "./manifests.ts";

export const crdDir = fileURLToPath(new URL("../../config/crd/", import.meta.url));

export type Crd = KubeObject & {
  spec: {
    group: string;
    scope?: string;
    names: { plural: string; kind?: string };
    versions: { name: string }[];
  };
  status?: { conditions?: { type: string; status: string }[] };
};

/** Applies every CRD in `dir` and resolves once each kind can be listed; returns the CRDs. */
export async function installCrds(client: KubeClient, dir = crdDir, timeoutMs = 60_000): Promise<Crd[]> {
  return installCrdObjects(client, (await readManifests(dir)) as Crd[], timeoutMs);
}

/** Applies the given CRDs and resolves once each kind can be listed (or rejects after `timeoutMs`). */
export async function installCrdObjects(
  client: KubeClient,
  crds: readonly Crd[],
  timeoutMs = 60_000,
): Promise<Crd[]> {
  await applyObjects(client, crds);
  await waitForCrds(client, crds, timeoutMs);
  return [...crds];
}

/** Resolves once each CRD is Established and its kind can be listed (or rejects after `timeoutMs`). */
export async function waitForCrds(
  client: KubeClient,
  crds: readonly Crd[],
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`;
    const list = `/apis/${crd.spec.group}/${crd.spec.versions[0]?.name}/${crd.spec.names.plural}`;
    await waitFor(
      async () => {
        const current = await client.request<Crd>({ method: "GET", path });
        if (!current.status?.conditions?.some((c) => c.type === "Established" && c.status === "True"))
          return false;
        // Established is not yet servable: the storage may still be starting (429).
        await client.request({ method: "GET", path: list, query: { limit: 1 } });
        return true;
      },
      {
        what: `CRD ${crd.metadata.name} to be Established and served`,
        timeoutMs: Math.max(1, deadline - Date.now()),
      },
    );
  }
}
