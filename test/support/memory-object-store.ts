// An ObjectStore in memory, for tests of the reconciler (reconciler.test.ts), with the rules of
// the apiserver the reconciler relies on: every write gets a new resourceVersion; a write with a
// resourceVersion precondition to an object that changed is a 409 Conflict, a write to an object
// that is gone a 404; status and spec writes are JSON merge patches (a null removes the key); a
// spec change bumps the generation; an object being deleted goes once its last finalizer does.
// Answers are copies, as the apiserver's are; `cached` hands out the stored objects themselves,
// replaced on every write, as an informer that has caught up does.

import type { ManagedObject, ObjectStore } from "../../src/controller/reconcile/object-store.ts";
import type { SecretObject } from "../../src/controller/secret-inputs.ts";
import type { EventType } from "../../src/runtime/events.ts";
import { KubeApiError } from "../../src/runtime/kube-client.ts";
import { objectPath, type ResourceType } from "../../src/runtime/kube-object.ts";

export interface RecordedEvent {
  readonly object: string;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

export interface RecordedWrite {
  readonly object: string;
  readonly what: "status" | "spec" | "finalizers" | "metadata";
  readonly body: unknown;
}

export class MemoryObjectStore implements ObjectStore {
  readonly #rt: ResourceType;
  readonly #objects = new Map<string, ManagedObject>();
  readonly #secrets = new Map<string, SecretObject>();
  /** Objects of other kinds, by `<kind>/<namespace>/<name>` (what a spec's references name). */
  readonly #others = new Map<string, ManagedObject>();
  #version = 0;
  #uids = 0;
  readonly events: RecordedEvent[] = [];
  readonly writes: RecordedWrite[] = [];

  constructor(resourceType: ResourceType) {
    this.#rt = resourceType;
  }

  // ---- what a user or another controller does ----

  /** Creates or replaces an object as `kubectl apply` would; returns it as stored. */
  apply(obj: ManagedObject): ManagedObject {
    const key = keyOf(obj.metadata.namespace ?? "", obj.metadata.name);
    const old = this.#objects.get(key);
    const next = clone(obj);
    next.metadata.uid ??= old?.metadata.uid ?? `uid-${++this.#uids}`;
    next.metadata.creationTimestamp ??= old?.metadata.creationTimestamp ?? new Date(0).toISOString();
    const specChanged = JSON.stringify(old?.spec) !== JSON.stringify(next.spec);
    next.metadata.generation = (old?.metadata.generation ?? 0) + (old === undefined || specChanged ? 1 : 0);
    if (old && next.status === undefined && old.status !== undefined) next.status = old.status;
    return this.#commit(key, next);
  }

  /** `kubectl delete`: marks the object deleted, and removes it when it holds no finalizer. */
  delete(namespace: string, name: string): void {
    const key = keyOf(namespace, name);
    const obj = this.#objects.get(key);
    if (!obj) return;
    if ((obj.metadata.finalizers ?? []).length === 0) {
      this.#remove(key);
      return;
    }
    const next = clone(obj);
    next.metadata.deletionTimestamp ??= new Date(0).toISOString();
    this.#commit(key, next);
  }

  /** Stores a Secret of `namespace` with `data` (values as given: base64 is the caller's). */
  /** Puts an object of another kind, as the apiserver would hold it (a referenced object). */
  putOther(obj: ManagedObject): void {
    this.#others.set(`${obj.kind}/${keyOf(obj.metadata.namespace ?? "", obj.metadata.name)}`, clone(obj));
  }

  putSecret(namespace: string, name: string, data: Record<string, string>): void {
    this.#secrets.set(keyOf(namespace, name), {
      metadata: { uid: `secret-${name}`, resourceVersion: `${++this.#version}` },
      data,
    });
  }

  /** The object as stored now (a copy); undefined when it is gone. */
  stored(namespace: string, name: string): ManagedObject | undefined {
    const obj = this.#objects.get(keyOf(namespace, name));
    return obj === undefined ? undefined : clone(obj);
  }

  // ---- ObjectStore ----

  /** The cached object itself, as an informer hands it out: the same one until it is replaced. */
  cached(namespace: string, name: string): ManagedObject | undefined {
    return this.#objects.get(keyOf(namespace, name));
  }

  async live(namespace: string, name: string): Promise<ManagedObject | undefined> {
    return this.stored(namespace, name);
  }

  async secret(namespace: string, name: string): Promise<SecretObject | undefined> {
    return this.#secrets.get(keyOf(namespace, name));
  }

  async referenced(type: ResourceType, namespace: string, name: string): Promise<ManagedObject | undefined> {
    const obj = this.#others.get(`${type.kind}/${keyOf(namespace, name)}`);
    return obj === undefined ? undefined : clone(obj);
  }

  async writeStatus(
    obj: ManagedObject,
    status: Record<string, unknown>,
    ifUnchanged: boolean,
  ): Promise<ManagedObject> {
    const [key, current] = this.#current(obj, "status", ifUnchanged);
    this.writes.push({ object: key, what: "status", body: clone(status) });
    const next = clone(current);
    next.status = mergePatch(next.status, status) as ManagedObject["status"];
    return clone(this.#commit(key, next));
  }

  async writeSpec(
    obj: ManagedObject,
    spec: unknown,
    _signal?: AbortSignal,
    annotations?: Readonly<Record<string, string | null>>,
  ): Promise<ManagedObject> {
    const [key, current] = this.#current(obj, "spec", false);
    this.writes.push({ object: key, what: "spec", body: clone(spec) });
    const next = clone(current);
    next.spec = mergePatch(next.spec, spec) as ManagedObject["spec"];
    if (annotations) next.metadata.annotations = mergeAnnotations(next.metadata.annotations, annotations);
    if (JSON.stringify(next.spec) !== JSON.stringify(current.spec)) {
      next.metadata.generation = (current.metadata.generation ?? 0) + 1;
    }
    return clone(this.#commit(key, next));
  }

  async writeMetadata(
    obj: ManagedObject,
    change: { readonly finalizer?: string; readonly annotations?: Readonly<Record<string, string | null>> },
  ): Promise<ManagedObject> {
    const [key, current] = this.#current(obj, "metadata", change.finalizer !== undefined);
    this.writes.push({ object: key, what: "metadata", body: clone(change) });
    const next = clone(current);
    const finalizers = current.metadata.finalizers ?? [];
    if (change.finalizer !== undefined && !finalizers.includes(change.finalizer)) {
      next.metadata.finalizers = [...finalizers, change.finalizer];
    }
    if (change.annotations) {
      next.metadata.annotations = mergeAnnotations(next.metadata.annotations, change.annotations);
    }
    return clone(this.#commit(key, next));
  }

  async addFinalizer(obj: ManagedObject, finalizer: string): Promise<ManagedObject> {
    if (obj.metadata.finalizers?.includes(finalizer)) return obj;
    return this.#setFinalizers(obj, [...(obj.metadata.finalizers ?? []), finalizer]);
  }

  async removeFinalizer(obj: ManagedObject, finalizer: string): Promise<ManagedObject | undefined> {
    if (!obj.metadata.finalizers?.includes(finalizer)) return obj;
    try {
      return await this.#setFinalizers(
        obj,
        obj.metadata.finalizers.filter((f) => f !== finalizer),
      );
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  event(obj: ManagedObject, type: EventType, reason: string, message: string): void {
    this.events.push({
      object: keyOf(obj.metadata.namespace ?? "", obj.metadata.name),
      type,
      reason,
      message,
    });
  }

  // ---- the apiserver's rules ----

  async #setFinalizers(obj: ManagedObject, finalizers: string[]): Promise<ManagedObject> {
    // As runtime/finalizers.ts sends it: the list computed from `obj`, checked against its version.
    const [key, current] = this.#current(obj, "metadata", true);
    this.writes.push({ object: key, what: "finalizers", body: [...finalizers] });
    const next = clone(current);
    next.metadata.finalizers = finalizers;
    const stored = this.#commit(key, next);
    if (finalizers.length === 0 && stored.metadata.deletionTimestamp !== undefined) this.#remove(key);
    return clone(stored);
  }

  /** The stored object `obj` names, or the apiserver's 404 / 409 for a write to it. */
  #current(obj: ManagedObject, part: string, ifUnchanged: boolean): [string, ManagedObject] {
    const namespace = obj.metadata.namespace ?? "";
    const key = keyOf(namespace, obj.metadata.name);
    const path = objectPath(this.#rt, namespace, obj.metadata.name, part === "status" ? "status" : undefined);
    const call = { method: "PATCH", path, fields: [part] };
    const current = this.#objects.get(key);
    if (current === undefined) {
      const message = `${this.#rt.plural}.${this.#rt.group} "${obj.metadata.name}" not found`;
      throw new KubeApiError(404, "NotFound", message, { message }, undefined, call);
    }
    if (ifUnchanged && current.metadata.resourceVersion !== obj.metadata.resourceVersion) {
      const message = `Operation cannot be fulfilled on ${this.#rt.plural}.${this.#rt.group} "${obj.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`;
      throw new KubeApiError(409, "Conflict", message, { message }, undefined, call);
    }
    return [key, current];
  }

  #commit(key: string, obj: ManagedObject): ManagedObject {
    obj.metadata.resourceVersion = `${++this.#version}`;
    this.#objects.set(key, obj);
    return obj;
  }

  #remove(key: string): void {
    this.#objects.delete(key);
  }
}

const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

/** Annotations after a merge patch of them (null removes one); none left: none. */
function mergeAnnotations(
  current: Readonly<Record<string, string>> | undefined,
  change: Readonly<Record<string, string | null>>,
): Record<string, string> | undefined {
  const out = mergePatch(current ?? {}, change) as Record<string, string>;
  return Object.keys(out).length === 0 ? undefined : out;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** RFC 7386, as the apiserver applies a merge patch (nulls removed, objects merged, the rest replaced). */
function mergePatch(target: unknown, patch: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
