// The resourceVersion of an object's spec: the version at which its current generation was first
// seen, kept across later status-only writes. Why: a resource records the IAMRoleSelector it was
// decided by as {selectorName, resourceVersion} (DESIGN §2.1, ACK's field), and the decision
// compares it. The controller itself writes each selector's status (matchedResources), and every
// such write bumps resourceVersion; without this, each count change would change the decision of
// every resource the selector matches and re-reconcile (and re-write) all of them. The generation
// only moves when the spec does, so "same uid and generation" means "same configuration".
import type { KubeObject } from "../runtime/kube-object.ts";

interface Seen {
  readonly uid: string | undefined;
  readonly generation: number | undefined;
  readonly resourceVersion: string | undefined;
}

export class SpecVersions {
  readonly #seen = new Map<string, Seen>();

  /** Notes an object as listed or updated; a new uid or generation starts a new spec version. */
  observe(obj: KubeObject): void {
    const m = obj.metadata;
    const seen = this.#seen.get(m.name);
    // Without a generation nothing says the spec is unchanged: take every version as new.
    if (seen && m.generation !== undefined && seen.uid === m.uid && seen.generation === m.generation) return;
    this.#seen.set(m.name, { uid: m.uid, generation: m.generation, resourceVersion: m.resourceVersion });
  }

  forget(obj: KubeObject): void {
    this.#seen.delete(obj.metadata.name);
  }

  /** The object with its spec's resourceVersion (a copy when it differs; the cache is not touched). */
  stable<T extends KubeObject>(obj: T): T {
    const m = obj.metadata;
    const seen = this.#seen.get(m.name);
    if (!seen || m.generation === undefined || seen.uid !== m.uid || seen.generation !== m.generation)
      return obj;
    if (seen.resourceVersion === m.resourceVersion || seen.resourceVersion === undefined) return obj;
    return { ...obj, metadata: { ...m, resourceVersion: seen.resourceVersion } };
  }
}
