// The one place STS calls are limited, retried and counted: a wrapper around any StsApi.
// Every attempt (retries included) waits for the process-wide token bucket and increments
// crossrole_sts_calls_total{operation,outcome}. Throttling, 5xx and network failures are
// retried with full-jitter exponential backoff; anything else fails at once. The bucket and the
// backoff are the toolkit's; the STS policies for them are here.
import { type BackoffPolicy, backoffDelay, type Random } from "../toolkit/backoff.ts";
import type { Sleep } from "../toolkit/clock.ts";
import type { RateLimit, TokenBucket } from "../toolkit/token-bucket.ts";
import { isRetryableStsFailure, StsCallFailed, type StsOperation, stsFailureKind } from "./classify-error.ts";
import type { CredentialMetrics } from "./metrics.ts";
import type { StsApi } from "./sts.ts";

/** STS's own default quota is far higher; this keeps one controller a polite neighbour. */
export const defaultStsRateLimit: RateLimit = { ratePerSecond: 20, burst: 40 };

/** Retries of one STS call: 100 ms, 200 ms, 400 ms ... capped at 5 s, full jitter (shortening). */
export const defaultStsRetryBackoff: BackoffPolicy = { baseMs: 100, maxMs: 5_000, jitter: 1 };

export interface StsRetryPolicy {
  /** Attempts per call, the first included (default 4). */
  readonly maxAttempts: number;
  readonly backoff: BackoffPolicy;
}

export const defaultStsRetryPolicy: StsRetryPolicy = { maxAttempts: 4, backoff: defaultStsRetryBackoff };

export interface StsProtectionOptions {
  readonly bucket: TokenBucket;
  readonly retry?: StsRetryPolicy;
  readonly metrics?: Pick<CredentialMetrics, "stsCalls" | "stsRateLimitWaitSeconds">;
  readonly sleep: Sleep;
  readonly random: Random;
}

export function protectSts(inner: StsApi, opts: StsProtectionOptions): StsApi {
  const retry = opts.retry ?? defaultStsRetryPolicy;
  async function call<T>(operation: StsOperation, attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      const waited = await opts.bucket.take();
      if (waited > 0) opts.metrics?.stsRateLimitWaitSeconds.inc(waited / 1000);
      try {
        const out = await attempt();
        opts.metrics?.stsCalls.inc({ operation, outcome: "success" });
        return out;
      } catch (err) {
        const kind = stsFailureKind(err);
        opts.metrics?.stsCalls.inc({ operation, outcome: kind });
        if (!isRetryableStsFailure(kind) || n >= retry.maxAttempts)
          throw new StsCallFailed(operation, n, err);
        await opts.sleep(backoffDelay(retry.backoff, n, opts.random));
      }
    }
  }
  return {
    assumeRole: (c) => call("AssumeRole", () => inner.assumeRole(c)),
    assumeRoleWithWebIdentity: (c) =>
      call("AssumeRoleWithWebIdentity", () => inner.assumeRoleWithWebIdentity(c)),
    getCallerIdentity: (c) => call("GetCallerIdentity", () => inner.getCallerIdentity(c)),
  };
}
