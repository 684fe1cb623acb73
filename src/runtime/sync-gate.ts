// "Is it ready yet?" as one small interface: informers implement it (their cache has synced),
// and callers create plain gates for anything else a controller must wait for (for example
// "the resolver snapshot is complete"). Controllers start their workers only when all their
// gates are open; /readyz reports them.

export interface SyncGate {
  readonly name: string;
  hasSynced(): boolean;
  /** Resolves true once synced, or false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean>;
}

/** A gate opened by hand, once. */
export class Gate implements SyncGate {
  readonly name: string;
  #open = false;
  #waiters: (() => void)[] = [];

  constructor(name: string) {
    this.name = name;
  }

  open(): void {
    if (this.#open) return;
    this.#open = true;
    for (const w of this.#waiters.splice(0)) w();
  }

  hasSynced(): boolean {
    return this.#open;
  }

  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return waitUntilOpen(this.#open, (w) => this.#waiters.push(w), signal);
  }
}

/**
 * Shared helper for gates: resolves true at once if `open`, otherwise when the registered
 * waiter is called, or false when `signal` aborts.
 */
export function waitUntilOpen(
  open: boolean,
  register: (waiter: () => void) => void,
  signal?: AbortSignal,
): Promise<boolean> {
  if (open) return Promise.resolve(true);
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal?.addEventListener("abort", onAbort, { once: true });
    register(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    });
  });
}

/** Waits for every gate; true if all synced, false if `signal` aborted first. */
export async function waitForAll(gates: readonly SyncGate[], signal?: AbortSignal): Promise<boolean> {
  const results = await Promise.all(gates.map((g) => g.waitForSync(signal)));
  return results.every(Boolean);
}
