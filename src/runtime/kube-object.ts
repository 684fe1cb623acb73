// The minimal, kind-agnostic view of a Kubernetes object the runtime works with, plus how a
// resource type maps to REST paths and how objects map to work-queue keys.

export interface KubeObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  creationTimestamp?: string;
  deletionTimestamp?: string;
  ownerReferences?: unknown[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: KubeObjectMeta;
  [field: string]: unknown;
}

/** A list response (`kind: XList`). */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** A REST resource: where objects of one kind live. */
export interface ResourceType {
  /** API group; "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** Lower-case plural, as in the URL ("buckets", "configmaps"). */
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** `apiVersion` of a resource type: "v1" for core, "group/version" otherwise. */
export function apiVersionOf(rt: ResourceType): string {
  return rt.group === "" ? rt.version : `${rt.group}/${rt.version}`;
}

function prefix(rt: ResourceType): string {
  return rt.group === "" ? `/api/${rt.version}` : `/apis/${rt.group}/${rt.version}`;
}

/**
 * The collection path: namespaced types with a namespace list that namespace only; without
 * one, across all namespaces (cluster-wide).
 */
export function collectionPath(rt: ResourceType, namespace?: string): string {
  if (rt.namespaced && namespace !== undefined && namespace !== "") {
    return `${prefix(rt)}/namespaces/${encodeURIComponent(namespace)}/${rt.plural}`;
  }
  return `${prefix(rt)}/${rt.plural}`;
}

/** The path of one object, or of one of its subresources ("status"). */
export function objectPath(rt: ResourceType, namespace: string, name: string, subresource?: string): string {
  const base = `${collectionPath(rt, rt.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
  return subresource === undefined ? base : `${base}/${subresource}`;
}

/** Work-queue key: "namespace/name", or "name" for cluster-scoped objects (client-go's MetaNamespaceKey). */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export function keyOf(obj: KubeObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name);
}

export interface NamespacedName {
  readonly namespace: string;
  readonly name: string;
}

/** Inverse of objectKey; the namespace is "" for cluster-scoped keys. */
export function splitKey(key: string): NamespacedName {
  const slash = key.indexOf("/");
  return slash < 0
    ? { namespace: "", name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
