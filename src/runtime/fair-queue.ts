// The ready keys of a work queue, handed out round-robin across namespaces: FIFO within a
// namespace, one key per namespace in turn. One tenant's burst of thousands of new resources
// then delays another namespace's single resource by at most one reconcile per busy namespace,
// not by the whole burst (client-go's FIFO would make it wait for all of it).
// Keys are "namespace/name"; a key without "/" (cluster-scoped) is its own group "".

/** A FIFO with a moving head, compacted when the dead prefix dominates. */
class Fifo {
  items: string[] = [];
  head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(key: string): void {
    this.items.push(key);
  }

  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined;
    const key = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return key;
  }
}

const groupOf = (key: string): string => {
  const slash = key.indexOf("/");
  return slash < 0 ? "" : key.slice(0, slash);
};

export class FairQueue {
  readonly #byGroup = new Map<string, Fifo>();
  /** Groups with keys, in turn order; `#turn` is whose turn it is. */
  #ring: string[] = [];
  #turn = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(key: string): void {
    const group = groupOf(key);
    let fifo = this.#byGroup.get(group);
    if (fifo === undefined) {
      fifo = new Fifo();
      this.#byGroup.set(group, fifo);
      // A group that comes back goes to the end of the round: it waits for the others' turns.
      this.#ring.push(group);
    }
    fifo.push(key);
    this.#size++;
  }

  shift(): string | undefined {
    if (this.#size === 0) return undefined;
    if (this.#turn >= this.#ring.length) this.#turn = 0;
    const group = this.#ring[this.#turn] ?? "";
    const fifo = this.#byGroup.get(group);
    const key = fifo?.shift();
    this.#size--;
    if (fifo === undefined || fifo.size === 0) {
      // Emptied: leave the round (the next group moves into this turn's slot).
      this.#byGroup.delete(group);
      this.#ring.splice(this.#turn, 1);
    } else {
      this.#turn++;
    }
    return key;
  }

  clear(): void {
    this.#byGroup.clear();
    this.#ring = [];
    this.#turn = 0;
    this.#size = 0;
  }
}
