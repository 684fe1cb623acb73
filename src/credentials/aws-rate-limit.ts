// Client-side rate limits for AWS calls, one token bucket per (service, region, account): AWS
// throttles each account's calls per service and region, so that is where crossrole keeps its
// own pace. Every resource of an account shares its bucket, whatever role or identity it acts
// with, and a burst in one account never slows another. A call waits (FIFO) for a token before
// it is sent; the SDK's adaptive retry (client-pool.ts) backs off further when AWS throttles
// anyway. STS is limited on its own, process-wide (protected-sts.ts).
//
// Defaults: 100 calls/s, burst 300, per service, region and account; a service may have its
// own (`--aws-api-rate-limit rds=10:100`). Buckets of accounts idle for a while are dropped.
import type {
  HandlerExecutionContext,
  InitializeHandler,
  InitializeHandlerArguments,
  MetadataBearer,
} from "@smithy/types";
import { LRUCache } from "lru-cache";
import { Counter, type Registry } from "prom-client";
import { type Clock, type Sleep, systemClock } from "../toolkit/clock.ts";
import { type RateLimit, TokenBucket } from "../toolkit/token-bucket.ts";
import { BoundedLabel, noAccount } from "./account-labels.ts";
import type { ObservableClient } from "./aws-call-observer.ts";
import { currentCallSubject } from "./aws-call-subject.ts";

export const defaultAwsRateLimit: RateLimit = { ratePerSecond: 100, burst: 300 };

export interface AwsRateLimits {
  /** For every service without its own. */
  readonly default: RateLimit;
  /** By service name as the client pool names it ("s3", "rds", ...). */
  readonly byService?: Readonly<Record<string, RateLimit>>;
}

export interface AwsRateLimiterOptions {
  readonly limits?: AwsRateLimits;
  readonly clock?: Clock;
  /** How a waiting call sleeps (must keep the process alive in the controller). */
  readonly sleep?: Sleep;
  readonly registry?: Registry;
  /** Most buckets kept (default 2,000); the least recently used is dropped beyond that. */
  readonly maxBuckets?: number;
  /** The account label's bounded values, shared with the call metrics' (account-labels.ts). */
  readonly accountLabel?: BoundedLabel;
}

/** The buckets, and the middleware that waits on them. */
export class AwsRateLimiter {
  readonly #limits: AwsRateLimits;
  readonly #clock: Clock;
  readonly #sleep: Sleep | undefined;
  readonly #buckets: LRUCache<string, TokenBucket>;
  readonly #waited: Counter<"service" | "account"> | undefined;
  readonly #accounts: BoundedLabel;

  constructor(opts: AwsRateLimiterOptions = {}) {
    this.#limits = opts.limits ?? { default: defaultAwsRateLimit };
    this.#clock = opts.clock ?? systemClock;
    this.#sleep = opts.sleep;
    this.#buckets = new LRUCache({ max: opts.maxBuckets ?? 2_000 });
    this.#accounts = opts.accountLabel ?? new BoundedLabel();
    this.#waited = opts.registry
      ? new Counter({
          name: "crossrole_aws_rate_limit_wait_seconds_total",
          help: "Seconds AWS calls waited for the client-side rate limit of their service, region and account",
          labelNames: ["service", "account"] as const,
          registers: [opts.registry],
        })
      : undefined;
  }

  /** The limit a service's calls keep. */
  limitOf(service: string): RateLimit {
    return this.#limits.byService?.[service] ?? this.#limits.default;
  }

  /** Resolves when a call of `service` in `region` for `account` may be sent; the ms it waited. */
  async take(service: string, region: string, account: string): Promise<number> {
    const key = `${service}\u0000${region}\u0000${account}`;
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.limitOf(service), this.#clock, this.#sleep);
      this.#buckets.set(key, bucket);
    }
    const waited = await bucket.take();
    if (waited > 0) {
      // A call made for no resource waits on its credentials' bucket: no account to name.
      const label = account.startsWith("key:") ? noAccount : this.#accounts.of(account);
      this.#waited?.inc({ service, account: label }, waited / 1000);
    }
    return waited;
  }

  /** Buckets held now. */
  get size(): number {
    return this.#buckets.size;
  }

  /**
   * Adds the waiting middleware to a client of `service` built for `region`. The account is the
   * call's subject's (aws-call-subject.ts); a call made for no resource shares one bucket per
   * client credentials key.
   */
  limit(client: ObservableClient, service: string, region: string, credentialsKey: string): void {
    client.middlewareStack.add(
      (next: InitializeHandler<object, MetadataBearer>, _context: HandlerExecutionContext) =>
        async (args: InitializeHandlerArguments<object>) => {
          await this.take(service, region, currentCallSubject()?.account ?? `key:${credentialsKey}`);
          return next(args);
        },
      { step: "initialize", name: "crossroleAwsRateLimit", priority: "high" },
    );
  }
}
