// The resource versions this controller's own writes produced (finalizer added, spec
// late-initialised, status written), per object. The informer later delivers each of them as
// an update; such an echo is not a change to act on, and reconciling it again cost every new
// resource a second pass (all reads). An update carrying any other resourceVersion, anyone
// else's write, is never taken for an echo: resource versions are unique per write.
import type { KubeObject } from "../runtime/kube-object.ts";

/** Writes remembered per object: a reconcile makes at most a handful before its echoes arrive. */
const perObject = 8;

export class SelfWrites {
  readonly #byKey = new Map<string, string[]>();

  /** Remembers the object a write of ours returned. */
  record(key: string, written: KubeObject | undefined): void {
    const rv = written?.metadata.resourceVersion;
    if (rv === undefined) return;
    const list = this.#byKey.get(key) ?? [];
    list.push(rv);
    if (list.length > perObject) list.shift();
    this.#byKey.set(key, list);
  }

  /** Whether `obj` is exactly what one of our writes produced (consumed: each echo counts once). */
  isEcho(key: string, obj: KubeObject): boolean {
    const list = this.#byKey.get(key);
    const rv = obj.metadata.resourceVersion;
    if (list === undefined || rv === undefined) return false;
    const i = list.indexOf(rv);
    if (i < 0) return false;
    // Only this one: an older write's echo may have arrived before its response was recorded
    // and still be waiting to be checked (resourceController defers updates during a reconcile).
    list.splice(i, 1);
    if (list.length === 0) this.#byKey.delete(key);
    return true;
  }

  /**
   * Whether a write of ours to `key` has not come back through the informer yet: only then can
   * the cached object be older than what this controller itself last wrote.
   */
  awaitingEcho(key: string): boolean {
    return this.#byKey.has(key);
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }

  get size(): number {
    return this.#byKey.size;
  }
}
