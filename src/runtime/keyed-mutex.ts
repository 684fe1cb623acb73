// One holder per key at a time, in this process: callers on the same key run one after the
// other, callers on different keys run in parallel. Entries exist only while a key is held or
// awaited, so memory follows the work in flight, not the keys ever seen.
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier holder of `key` is done; resolves or rejects with it. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Keys held or awaited now. */
  get size(): number {
    return this.#tails.size;
  }
}
