// Installs crossrole's generated CRDs (config/crd/) and waits until every kind is served.
import { fileURLToPath } from "node:url";
import type { KubeClient } from "../runtime/kubeClient.ts";
import type { KubeObject } from "../runtime/kubeObject.ts";
import { applyObjects, readManifests } from "./manifests.ts";

export const crdDir = fileURLToPath(new URL("../../config/crd/", import.meta.url));

type Crd = KubeObject & {
  spec: { group: string; names: { plural: string }; versions: { name: string }[] };
  status?: { conditions?: { type: string; status: string }[] };
};

/** Applies every CRD in `dir` and resolves once each kind can be listed (or rejects after `timeoutMs`). */
export async function installCrds(client: KubeClient, dir = crdDir, timeoutMs = 60_000): Promise<string[]> {
  const crds = (await readManifests(dir)) as Crd[];
  await applyObjects(client, crds);
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`;
    const list = `/apis/${crd.spec.group}/${crd.spec.versions[0]?.name}/${crd.spec.names.plural}`;
    let lastError = "";
    for (let interval = 20; ; interval = Math.min(interval * 2, 500)) {
      try {
        const current = await client.request<Crd>({ method: "GET", path });
        if (current.status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) {
          // Established is not yet servable: the storage may still be starting (429).
          await client.request({ method: "GET", path: list, query: { limit: 1 } });
          break;
        }
        lastError = "not Established yet";
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
      if (Date.now() > deadline)
        throw new Error(`CRD ${crd.metadata.name} was not served within ${timeoutMs} ms: ${lastError}`);
      await new Promise((r) => setTimeout(r, interval));
    }
  }
  return crds.map((c) => c.metadata.name);
}
