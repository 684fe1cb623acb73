// The credential cache: one entry per hop key (see chain-key.ts), each holding the hop's
// provider, its last credentials, the fetch in flight, and the last failure.
//   - single-flight: while a fetch runs, every request for the key joins it;
//   - refresh ahead: credentials within `refreshBeforeMs` of expiry are refetched (once);
//   - failures are remembered with growing backoff; while it runs, requests get the same
//     error (or the old credentials while they are still usable) without calling STS;
//   - idle entries expire, and the number of entries is bounded (LRU).
// Time comes from the injected clock, including lru-cache's idle timer.
import { LRUCache } from "lru-cache";
import { type BackoffPolicy, backoffDelay, type Random } from "../toolkit/backoff.ts";
import type { Clock } from "../toolkit/clock.ts";
import { CredentialError } from "./errors.ts";
import type { CredentialMetrics } from "./metrics.ts";
import type { CredentialProvider, Credentials } from "./types.ts";

/** Remembered chain failures: 1 s, 2 s, 4 s ... capped at 5 min, 20 % jitter (shortening). */
export const defaultFailureBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 300_000, jitter: 0.2 };

export interface CredentialCacheOptions {
  readonly clock: Clock;
  readonly random?: Random;
  /** Most entries kept (default 10,000). */
  readonly maxEntries?: number;
  /** An entry unused this long is dropped (default 30 min). */
  readonly idleMs?: number;
  /** Refetch credentials this long before they expire (default 5 min, as the AWS SDK). */
  readonly refreshBeforeMs?: number;
  /**
   * While a refresh fails, the old credentials are still handed out until this much of their
   * life is left (default 1 min), so a short STS outage does not stop reconciliation.
   */
  readonly minRemainingMs?: number;
  /** Credentials without an expiry (static keys) are re-read this often (default 1 h). */
  readonly recheckMs?: number;
  readonly failureBackoff?: BackoffPolicy;
  readonly metrics?: Pick<CredentialMetrics, "cacheHits" | "cacheMisses" | "cacheRememberedFailures">;
}

/** What a test or an operator may look at in an entry (never the credentials themselves). */
export interface CacheEntryState {
  readonly hasCredentials: boolean;
  readonly expiration: Date | undefined;
  readonly fetching: boolean;
  readonly failures: number;
  readonly retryAt: number | null;
}

interface Entry {
  readonly provider: CredentialProvider;
  credentials: Credentials | undefined;
  fetchedAt: number;
  inFlight: Promise<Credentials> | undefined;
  failures: number;
  lastError: unknown;
  retryAt: number;
}

export class CredentialCache {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #entries: LRUCache<string, Entry>;
  readonly #refreshBeforeMs: number;
  readonly #minRemainingMs: number;
  readonly #recheckMs: number;
  readonly #backoff: BackoffPolicy;
  readonly #metrics: CredentialCacheOptions["metrics"];

  constructor(opts: CredentialCacheOptions) {
    this.#clock = opts.clock;
    this.#random = opts.random ?? Math.random;
    this.#refreshBeforeMs = opts.refreshBeforeMs ?? 5 * 60_000;
    this.#minRemainingMs = opts.minRemainingMs ?? 60_000;
    this.#recheckMs = opts.recheckMs ?? 60 * 60_000;
    this.#backoff = opts.failureBackoff ?? defaultFailureBackoff;
    this.#metrics = opts.metrics;
    const clock = opts.clock;
    this.#entries = new LRUCache<string, Entry>({
      max: opts.maxEntries ?? 10_000,
      ttl: opts.idleMs ?? 30 * 60_000,
      updateAgeOnGet: true,
      ttlAutopurge: false,
      // Read the injected clock on every check, so tests moving the clock see idle eviction.
      ttlResolution: 0,
      perf: { now: () => clock.now() },
    });
  }

  /**
   * Credentials for `key`. `createProvider` is called only when the key has no entry yet; the
   * provider it returns is kept with the entry (so per-entry state such as a service-account
   * token survives between refreshes).
   */
  get(key: string, createProvider: () => CredentialProvider): Promise<Credentials> {
    const now = this.#clock.now();
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = {
        provider: createProvider(),
        credentials: undefined,
        fetchedAt: 0,
        inFlight: undefined,
        failures: 0,
        lastError: undefined,
        retryAt: 0,
      };
      this.#entries.set(key, entry);
    } else if (entry.credentials !== undefined && this.#fresh(entry, entry.credentials, now)) {
      this.#metrics?.cacheHits.inc();
      return Promise.resolve(entry.credentials);
    }
    if (entry.inFlight !== undefined) {
      this.#metrics?.cacheHits.inc();
      return entry.inFlight;
    }
    if (entry.failures > 0 && now < entry.retryAt) {
      if (this.#usable(entry, now)) {
        this.#metrics?.cacheHits.inc();
        return Promise.resolve(entry.credentials!);
      }
      this.#metrics?.cacheRememberedFailures.inc();
      return Promise.reject(entry.lastError);
    }
    this.#metrics?.cacheMisses.inc();
    // Misses are rare (each is an STS call), so they also sweep idle entries: the size and
    // the entries gauge then reflect what is really in use, without a timer.
    this.#entries.purgeStale();
    return this.#fetch(entry);
  }

  /** Forgets the credentials of `key` (keeping its provider), so the next request fetches anew. */
  invalidate(key: string): void {
    const entry = this.#entries.peek(key);
    if (entry !== undefined) entry.credentials = undefined;
  }

  peek(key: string): CacheEntryState | undefined {
    const e = this.#entries.peek(key);
    if (e === undefined) return undefined;
    return {
      hasCredentials: e.credentials !== undefined,
      expiration: e.credentials?.expiration,
      fetching: e.inFlight !== undefined,
      failures: e.failures,
      retryAt: e.failures > 0 ? e.retryAt : null,
    };
  }

  /** Entries held (idle ones are dropped lazily, on access or `purgeIdle`). */
  get size(): number {
    return this.#entries.size;
  }

  /** Drops idle entries now instead of on their next access. */
  purgeIdle(): void {
    this.#entries.purgeStale();
  }

  clear(): void {
    this.#entries.clear();
  }

  #fresh(entry: Entry, c: Credentials, now: number): boolean {
    return c.expiration === undefined
      ? now - entry.fetchedAt < this.#recheckMs
      : c.expiration.getTime() - now > this.#refreshBeforeMs;
  }

  #usable(entry: Entry, now: number): boolean {
    const c = entry.credentials;
    if (c === undefined) return false;
    return c.expiration === undefined || c.expiration.getTime() - now > this.#minRemainingMs;
  }

  #fetch(entry: Entry): Promise<Credentials> {
    const run = async (): Promise<Credentials> => {
      try {
        // Through a resolved promise, so even a provider that throws synchronously settles
        // after `inFlight` is set below, and `finally` then clears it.
        const credentials = await Promise.resolve().then(() => entry.provider());
        entry.credentials = credentials;
        entry.fetchedAt = this.#clock.now();
        entry.failures = 0;
        entry.lastError = undefined;
        return credentials;
      } catch (err) {
        const now = this.#clock.now();
        entry.failures += 1;
        entry.lastError = err;
        entry.retryAt = now + backoffDelay(this.#backoff, entry.failures, this.#random);
        if (err instanceof CredentialError) err.retryAt = entry.retryAt;
        if (this.#usable(entry, now)) return entry.credentials!;
        throw err;
      } finally {
        entry.inFlight = undefined;
      }
    };
    const flight = run();
    entry.inFlight = flight;
    return flight;
  }
}
