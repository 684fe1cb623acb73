// One copy of each short string value the caches hold. Objects from the apiserver arrive as
// fresh JSON, so ten thousand cached resources carry ten thousand copies of "ACK.ResourceSynced",
// their apiVersion, finalizer, region, role ARN, condition messages: about a third of what a
// cached object costs. The informers pass every object they cache through one pool, which
// replaces each such string with the copy it already holds.
// Bounded without weak references (strings cannot be held weakly): when the pool reaches
// `maxEntries` it starts afresh; the objects already cached keep the copies they were given.

export class StringPool {
  readonly #maxEntries: number;
  readonly #maxLength: number;
  #strings = new Map<string, string>();

  /** `maxLength`: longer strings (a last-applied manifest, a long message) are left as they are. */
  constructor(opts: { readonly maxEntries?: number; readonly maxLength?: number } = {}) {
    this.#maxEntries = opts.maxEntries ?? 50_000;
    this.#maxLength = opts.maxLength ?? 200;
  }

  /** The pooled copy of `s`. */
  string(s: string): string {
    if (s.length > this.#maxLength) return s;
    const pooled = this.#strings.get(s);
    if (pooled !== undefined) return pooled;
    if (this.#strings.size >= this.#maxEntries) this.#strings = new Map();
    this.#strings.set(s, s);
    return s;
  }

  /** Replaces, in place, every string value in `value` (objects and arrays, recursively). */
  internValues<T>(value: T): T {
    this.#walk(value as unknown);
    return value;
  }

  /** Strings held now. */
  get size(): number {
    return this.#strings.size;
  }

  #walk(v: unknown): void {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === "string") v[i] = this.string(item);
        else if (typeof item === "object" && item !== null) this.#walk(item);
      }
      return;
    }
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    for (const key in o) {
      const item = o[key];
      if (typeof item === "string") o[key] = this.string(item);
      else if (typeof item === "object" && item !== null) this.#walk(item);
    }
  }
}
