// Reading manifests (files or directories of multi-document YAML) and applying them.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { isAlreadyExists, type KubeClient, patchTypes } from "../runtime/kube-client.ts";
import type { KubeObject } from "../runtime/kube-object.ts";

/** Objects from a file or a directory (files sorted by name, so numbered files apply in order). */
export async function readManifests(path: string): Promise<KubeObject[]> {
  const info = await stat(path);
  const files = info.isDirectory()
    ? (await readdir(path))
        .filter((f) => /\.(ya?ml|json)$/.test(f))
        .sort()
        .map((f) => join(path, f))
    : [path];
  const objects: KubeObject[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(await readFile(file, "utf8"))) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
      const obj = doc.toJS() as KubeObject | null;
      if (obj !== null) objects.push(obj);
    }
  }
  return objects;
}

/** The API path of an object (or of its collection), from apiVersion/kind and a plural. */
export function pathFor(obj: KubeObject, plural: string, namespaced: boolean, withName: boolean): string {
  const apiVersion = obj.apiVersion ?? "v1";
  const base = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const ns = namespaced ? `/namespaces/${encodeURIComponent(obj.metadata.namespace ?? "default")}` : "";
  return `${base}${ns}/${plural}${withName ? `/${encodeURIComponent(obj.metadata.name)}` : ""}`;
}

interface Discovered {
  readonly plural: string;
  readonly namespaced: boolean;
}

/** Finds the plural and scope of a kind through API discovery (cached per apiVersion). */
export function discoverer(client: KubeClient): (apiVersion: string, kind: string) => Promise<Discovered> {
  const cache = new Map<
    string,
    Promise<{ resources: { name: string; kind: string; namespaced: boolean }[] }>
  >();
  return async (apiVersion, kind) => {
    const path = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    let list = cache.get(path);
    if (!list) {
      list = client.request({ method: "GET", path });
      cache.set(path, list);
      list.catch(() => cache.delete(path));
    }
    const found = (await list).resources.find((r) => r.kind === kind && !r.name.includes("/"));
    if (!found) throw new Error(`the API server does not serve ${kind} in ${apiVersion}`);
    return { plural: found.name, namespaced: found.namespaced };
  };
}

/** Creates each object, or replaces it when it exists (keeping nothing of the old one but its resourceVersion). */
export async function applyObjects(client: KubeClient, objects: readonly KubeObject[]): Promise<void> {
  const discover = discoverer(client);
  for (const obj of objects) {
    const { plural, namespaced } = await discover(obj.apiVersion ?? "v1", obj.kind ?? "");
    try {
      await client.request({ method: "POST", path: pathFor(obj, plural, namespaced, false), body: obj });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const path = pathFor(obj, plural, namespaced, true);
      const current = await client.request<KubeObject>({ method: "GET", path });
      const body = {
        ...obj,
        metadata: { ...obj.metadata, resourceVersion: current.metadata.resourceVersion },
      };
      await client.request({ method: "PUT", path, body });
    }
  }
}

/**
 * Server-side apply (`kubectl apply --server-side --force-conflicts`): each object as `fieldManager`
 * owns it, unknown fields rejected (fieldValidation=Strict). Resolves with what the apiserver
 * stored. A CRD's kind is servable only once it is Established (install-crds.ts waits for that).
 */
export async function applyServerSide(
  client: KubeClient,
  objects: readonly KubeObject[],
  fieldManager: string,
): Promise<KubeObject[]> {
  const discover = discoverer(client);
  const stored: KubeObject[] = [];
  for (const obj of objects) {
    const { plural, namespaced } = await discover(obj.apiVersion ?? "v1", obj.kind ?? "");
    stored.push(
      await client.request<KubeObject>({
        method: "PATCH",
        path: pathFor(obj, plural, namespaced, true),
        query: { fieldManager, force: true, fieldValidation: "Strict" },
        body: obj,
        contentType: patchTypes.apply,
      }),
    );
  }
  return stored;
}
