// Prometheus metrics of the credentials module. They register on a registry the caller passes
// (never prom-client's global one), so each test and each process owns its numbers.
import { Counter, Gauge, type Registry } from "prom-client";

export interface CredentialMetrics {
  /** One per STS attempt: operation (AssumeRole, ...) and outcome (success, throttled, ...). */
  readonly stsCalls: Counter<"operation" | "outcome">;
  /** Requests answered from the cache without starting an STS call (including joining one in flight). */
  readonly cacheHits: Counter;
  /** Requests that started fetching credentials (first use, refresh, retry after backoff). */
  readonly cacheMisses: Counter;
  /** Requests answered with a remembered failure while its backoff runs. */
  readonly cacheRememberedFailures: Counter;
  /** Cached chains (one per hop key), sampled at scrape time. */
  readonly cacheEntries: Gauge;
  /** Seconds callers waited for the STS rate limiter. */
  readonly stsRateLimitWaitSeconds: Counter;
}

export function createCredentialMetrics(registry: Registry, cacheSize: () => number): CredentialMetrics {
  const registers = [registry];
  return {
    stsCalls: new Counter({
      name: "crossrole_sts_calls_total",
      help: "STS calls made by crossrole, by operation and outcome (one per attempt, retries included)",
      labelNames: ["operation", "outcome"] as const,
      registers,
    }),
    cacheHits: new Counter({
      name: "crossrole_credential_cache_hits_total",
      help: "Credential requests answered from the cache without a new STS call",
      registers,
    }),
    cacheMisses: new Counter({
      name: "crossrole_credential_cache_misses_total",
      help: "Credential requests that started fetching credentials",
      registers,
    }),
    cacheRememberedFailures: new Counter({
      name: "crossrole_credential_cache_remembered_failures_total",
      help: "Credential requests answered with a remembered failure while its backoff runs",
      registers,
    }),
    cacheEntries: new Gauge({
      name: "crossrole_credential_cache_entries",
      help: "Credential cache entries (one per identity-chain hop key)",
      registers,
      collect() {
        this.set(cacheSize());
      },
    }),
    stsRateLimitWaitSeconds: new Counter({
      name: "crossrole_sts_rate_limit_wait_seconds_total",
      help: "Seconds STS calls waited for the process-wide STS rate limiter",
      registers,
    }),
  };
}
