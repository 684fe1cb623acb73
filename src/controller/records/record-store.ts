// The controller's own records: ConfigMaps in the system namespace labelled crossrole.dev/record,
// which only the controller and the administrator may write. They share the namespace (and its
// informer) with the administrator's CARM ConfigMaps: nothing here reads, writes or deletes a
// ConfigMap without the label. What the controller must remember
// about a resource where its tenant cannot write it (status, labels and annotations are the
// tenant's) lives here: which referrers used a reference in AWS (reference-uses.ts), the creates released
// while they could still land (tombstones.ts), and whose the objects AWS cannot tag are
// (owned-objects.ts). One informer caches them all;
// writes are JSON merge patches of data keys, so two replicas adding keys to one record never
// conflict, and a key set to null is removed.
import type { Informer } from "../../runtime/informer.ts";
import { isAlreadyExists, isNotFound, type KubeClient, patchTypes } from "../../runtime/kube-client.ts";
import { collectionPath, type KubeObject, objectPath } from "../../runtime/kube-object.ts";
import { configMapType } from "../config-types.ts";

export const recordLabel = "crossrole.dev/record";

/** What a record is: the value of its crossrole.dev/record label. */
export type RecordType = "referrers" | "tombstone" | "owned";

export type RecordObject = KubeObject & { data?: Record<string, string> };

export interface RecordStore {
  /** Whether the cache has listed the records once. */
  hasSynced(): boolean;
  /** A record as the cache holds it (a ConfigMap without the record label is none). */
  cached(name: string): RecordObject | undefined;
  /** Every cached record of a type. */
  list(type: RecordType): readonly RecordObject[];
  /** A record as the apiserver holds it now: for decisions that must not act on a lagging cache. */
  live(name: string, signal?: AbortSignal): Promise<RecordObject | undefined>;
  /**
   * Sets (string) or removes (null) data keys of a record, creating it with `annotations` when it
   * does not exist yet. Removing keys of a record that does not exist does nothing.
   */
  put(
    name: string,
    type: RecordType,
    data: Readonly<Record<string, string | null>>,
    annotations?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<void>;
  /**
   * Creates a record, only if none of the name exists (one request): "exists" when one does,
   * which is then left as it is.
   */
  create(
    name: string,
    type: RecordType,
    data: Readonly<Record<string, string>>,
    annotations?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<"created" | "exists">;
  /** Deletes a record; one already gone is fine. */
  delete(name: string, signal?: AbortSignal): Promise<void>;
}

/** The store over the Kubernetes client and an informer of the system namespace's records. */
export function kubeRecordStore(
  kube: KubeClient,
  systemNamespace: string,
  informer: Informer<RecordObject>,
): RecordStore {
  const path = (name: string) => objectPath(configMapType, systemNamespace, name);
  const withSignal = (signal: AbortSignal | undefined) => (signal ? { signal } : {});
  const create: RecordStore["create"] = async (name, type, data, annotations = {}, signal) => {
    try {
      await kube.request({
        method: "POST",
        path: collectionPath(configMapType, systemNamespace),
        body: {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name, namespace: systemNamespace, labels: { [recordLabel]: type }, annotations },
          data,
        },
        ...withSignal(signal),
      });
      return "created";
    } catch (err) {
      if (isAlreadyExists(err)) return "exists";
      throw err;
    }
  };
  return {
    hasSynced: () => informer.hasSynced(),
    cached: (name) => {
      const obj = informer.get(systemNamespace, name);
      return obj?.metadata.labels?.[recordLabel] === undefined ? undefined : obj;
    },
    list: (type) => informer.list(systemNamespace).filter((r) => r.metadata.labels?.[recordLabel] === type),
    async live(name, signal) {
      try {
        return await kube.request<RecordObject>({ method: "GET", path: path(name), ...withSignal(signal) });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async put(name, type, data, annotations = {}, signal) {
      const patch = () =>
        kube.request({
          method: "PATCH",
          path: path(name),
          contentType: patchTypes.merge,
          body: { data },
          ...withSignal(signal),
        });
      try {
        await patch();
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const kept = Object.fromEntries(
        Object.entries(data).filter((e): e is [string, string] => e[1] !== null),
      );
      if (Object.keys(kept).length === 0) return;
      // Another replica created it meanwhile: add ours to it.
      if ((await create(name, type, kept, annotations, signal)) === "exists") await patch();
    },
    create,
    async delete(name, signal) {
      try {
        await kube.request({ method: "DELETE", path: path(name), ...withSignal(signal) });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
