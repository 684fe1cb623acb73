// Adding and removing a finalizer. Each is one JSON merge patch that replaces
// metadata.finalizers and carries the resourceVersion the change was computed from, so the
// apiserver rejects it (409 Conflict) if the object changed meanwhile — another writer's
// finalizer is never dropped (controller-runtime's MergeFromWithOptimisticLock). On conflict the
// caller's reconcile fails and is retried with the fresh object.
import { isNotFound, type KubeClient, patchTypes } from "./kube-client.ts";
import { type KubeObject, objectPath, type ResourceType } from "./kube-object.ts";

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.finalizers?.includes(finalizer) ?? false;
}

async function patchFinalizers<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType,
  obj: T,
  finalizers: string[],
  signal?: AbortSignal,
): Promise<T> {
  return client.request<T>({
    method: "PATCH",
    path: objectPath(rt, obj.metadata.namespace ?? "", obj.metadata.name),
    contentType: patchTypes.merge,
    body: { metadata: { finalizers, resourceVersion: obj.metadata.resourceVersion } },
    signal,
  });
}

/** Adds `finalizer` if missing; returns the updated object (or `obj` itself if nothing changed). */
export async function addFinalizer<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType,
  obj: T,
  finalizer: string,
  signal?: AbortSignal,
): Promise<T> {
  if (hasFinalizer(obj, finalizer)) return obj;
  return patchFinalizers(client, rt, obj, [...(obj.metadata.finalizers ?? []), finalizer], signal);
}

/**
 * Removes `finalizer` if present; returns the updated object, `obj` itself if nothing changed,
 * or undefined if the object no longer exists.
 */
export async function removeFinalizer<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType,
  obj: T,
  finalizer: string,
  signal?: AbortSignal,
): Promise<T | undefined> {
  if (!hasFinalizer(obj, finalizer)) return obj;
  const rest = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  try {
    return await patchFinalizers(client, rt, obj, rest, signal);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
