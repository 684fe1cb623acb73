// The one place STS calls are limited, retried and counted: a wrapper around any StsApi.
// Every attempt (retries included) waits for the process-wide token bucket and increments
// crossrole_sts_calls_total{operation,outcome}. Throttling, 5xx and network failures are
// retried with full-jitter exponential backoff; anything else fails at once.
import { type BackoffPolicy, backoffDelay, defaultStsRetryBackoff } from "./backoff.ts";
import { isRetryableStsFailure, StsCallFailed, type StsOperation, stsFailureKind } from "./classify-error.ts";
import type { CredentialMetrics } from "./metrics.ts";
import type { StsApi } from "./sts.ts";
import type { TokenBucket } from "./token-bucket.ts";
import type { Random, Sleep } from "./types.ts";

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
