// A binary min-heap ordered by a numeric priority, for the work queue's delayed adds: the
// earliest-due item is always at the top, so one timer covers all waiting items.

export interface HeapEntry<T> {
  readonly priority: number;
  readonly value: T;
}

export class MinHeap<T> {
  readonly #items: HeapEntry<T>[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): HeapEntry<T> | undefined {
    return this.#items[0];
  }

  push(priority: number, value: T): void {
    const items = this.#items;
    items.push({ priority, value });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.priority <= items[i]!.priority) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  pop(): HeapEntry<T> | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < items.length && items[l]!.priority < items[smallest]!.priority) smallest = l;
      if (r < items.length && items[r]!.priority < items[smallest]!.priority) smallest = r;
      if (smallest === i) break;
      [items[smallest], items[i]] = [items[i]!, items[smallest]!];
      i = smallest;
    }
    return top;
  }
}
