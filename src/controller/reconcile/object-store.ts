// Every Kubernetes read and write the reconciler makes, behind one small interface: the object
// from the informer's cache or, when that may lag, from the apiserver; a referenced Secret;
// status, spec and finalizer writes; Events. The steps never see a Kubernetes client, so the
// orchestration is tested with an in-memory store (test/support/memory-object-store.ts) and runs here over the real
// client (kubeObjectStore).
//
// Writes return the object as the apiserver stored it: its new resourceVersion is what the next
// write is checked against. A write to an object that no longer exists fails with a 404
// KubeApiError, and a write whose precondition failed with a 409 one, whichever store it is.
import type { Condition } from "../../runtime/conditions.ts";
import type { EventRecorder, EventType } from "../../runtime/events.ts";
import { addFinalizer, removeFinalizer } from "../../runtime/finalizers.ts";
import type { Informer } from "../../runtime/informer.ts";
import { getIfExists, type KubeClient, patchTypes } from "../../runtime/kube-client.ts";
import { type KubeObject, objectPath, type ResourceType } from "../../runtime/kube-object.ts";
import { secretType } from "../config-types.ts";
import type { SecretGetter, SecretObject } from "../secret-inputs.ts";

/** A managed resource as it sits in the informer cache. */
export type ManagedObject = KubeObject & {
  spec?: Record<string, unknown>;
  status?: {
    ackResourceMetadata?: AckResourceMetadata;
    conditions?: Condition[];
    [k: string]: unknown;
  };
};

export interface AckResourceMetadata {
  arn?: string;
  ownerAccountID?: string;
  region?: string;
  partition?: string;
  iamRoleSelector?: { selectorName: string; resourceVersion: string };
  identity?: { source: string; roleARN: string | null; sessionName: string | null };
}

export interface ObjectStore {
  /** The object as the informer caches it; undefined when it is not there. */
  cached(namespace: string, name: string): ManagedObject | undefined;
  /** The object as the apiserver has it now (a GET), for when the cache may lag our own writes. */
  live(namespace: string, name: string, signal?: AbortSignal): Promise<ManagedObject | undefined>;
  /** A Secret of the object's namespace that a spec field references (never from a cache). */
  secret(namespace: string, name: string): Promise<SecretObject | undefined>;
  /** An object of another kind a spec references (ACK's `*Ref`), as the apiserver has it now. */
  referenced(
    type: ResourceType,
    namespace: string,
    name: string,
    signal?: AbortSignal,
  ): Promise<ManagedObject | undefined>;
  /**
   * Merges `status` into the object's status (JSON merge patch). `ifUnchanged`: only if the
   * object is still the version `obj` is (409 Conflict otherwise).
   */
  writeStatus(
    obj: ManagedObject,
    status: Record<string, unknown>,
    ifUnchanged: boolean,
    signal?: AbortSignal,
  ): Promise<ManagedObject>;
  /**
   * Merges `spec` into the object's spec (JSON merge patch): late initialisation, adoption; and
   * `annotations` into its annotations in the same write (null removes one).
   */
  writeSpec(
    obj: ManagedObject,
    spec: unknown,
    signal?: AbortSignal,
    annotations?: Readonly<Record<string, string | null>>,
  ): Promise<ManagedObject>;
  /**
   * One write of the object's metadata: `finalizer` added if missing, `annotations` merged (null
   * removes one). With a finalizer, only on the version `obj` is (409 Conflict otherwise). What a
   * create's intent is recorded with: the finalizer and the intent in one request.
   */
  writeMetadata(
    obj: ManagedObject,
    change: { readonly finalizer?: string; readonly annotations?: Readonly<Record<string, string | null>> },
    signal?: AbortSignal,
  ): Promise<ManagedObject>;
  /** Adds `finalizer` if missing, only on the version `obj` is; returns `obj` itself if present. */
  addFinalizer(obj: ManagedObject, finalizer: string, signal?: AbortSignal): Promise<ManagedObject>;
  /** Removes `finalizer` if present; undefined when the object is gone already. */
  removeFinalizer(
    obj: ManagedObject,
    finalizer: string,
    signal?: AbortSignal,
  ): Promise<ManagedObject | undefined>;
  /** Records an Event about `obj`. Never fails the reconcile, and is not waited for. */
  event(obj: ManagedObject, type: EventType, reason: string, message: string): void;
}

export interface KubeObjectStoreOptions {
  readonly kube: KubeClient;
  readonly resourceType: ResourceType;
  readonly informer: Pick<Informer<ManagedObject>, "get">;
  readonly events: EventRecorder;
  /** Reads a Secret a spec field references (default: a GET through `kube`). */
  readonly getSecret?: SecretGetter;
}

/** The store over the Kubernetes client, the kind's informer and the Event recorder. */
export function kubeObjectStore(o: KubeObjectStoreOptions): ObjectStore {
  const { kube, resourceType } = o;
  const pathOf = (obj: ManagedObject, subresource?: string): string =>
    objectPath(resourceType, obj.metadata.namespace ?? "", obj.metadata.name, subresource);
  const getSecret: SecretGetter =
    o.getSecret ??
    ((namespace, name) => getIfExists<SecretObject>(kube, objectPath(secretType, namespace, name)));
  return {
    cached: (namespace, name) => o.informer.get(namespace, name),
    live: (namespace, name, signal) =>
      getIfExists<ManagedObject>(kube, objectPath(resourceType, namespace, name), signal),
    secret: getSecret,
    referenced: (type, namespace, name, signal) =>
      getIfExists<ManagedObject>(kube, objectPath(type, namespace, name), signal),
    writeStatus(obj, status, ifUnchanged, signal) {
      const precondition = ifUnchanged ? { metadata: { resourceVersion: obj.metadata.resourceVersion } } : {};
      return kube.request<ManagedObject>({
        method: "PATCH",
        path: pathOf(obj, "status"),
        contentType: patchTypes.merge,
        body: { ...precondition, status },
        ...(signal ? { signal } : {}),
      });
    },
    writeSpec(obj, spec, signal, annotations) {
      return kube.request<ManagedObject>({
        method: "PATCH",
        path: pathOf(obj),
        contentType: patchTypes.merge,
        body: { spec, ...(annotations ? { metadata: { annotations } } : {}) },
        ...(signal ? { signal } : {}),
      });
    },
    writeMetadata(obj, change, signal) {
      const current = obj.metadata.finalizers ?? [];
      const finalizers =
        change.finalizer === undefined || current.includes(change.finalizer)
          ? undefined
          : [...current, change.finalizer];
      return kube.request<ManagedObject>({
        method: "PATCH",
        path: pathOf(obj),
        contentType: patchTypes.merge,
        body: {
          metadata: {
            // The finalizer list replaces the stored one: only on the version it was computed
            // from, as is a write that records an intent (on the object as it was read).
            ...(finalizers || change.finalizer !== undefined
              ? { resourceVersion: obj.metadata.resourceVersion }
              : {}),
            ...(finalizers ? { finalizers } : {}),
            ...(change.annotations ? { annotations: change.annotations } : {}),
          },
        },
        ...(signal ? { signal } : {}),
      });
    },
    addFinalizer: (obj, finalizer, signal) => addFinalizer(kube, resourceType, obj, finalizer, signal),
    removeFinalizer: (obj, finalizer, signal) => removeFinalizer(kube, resourceType, obj, finalizer, signal),
    event(obj, type, reason, message) {
      void o.events.event(obj, type, reason, message);
    },
  };
}
