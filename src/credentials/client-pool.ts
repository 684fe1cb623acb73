// AWS SDK clients are not cheap (each holds its config, middleware stack and a connection
// pool), so crossrole builds one per (client class, region, endpoint, credentials key) and
// reuses it. The pool knows no service: each module passes the factory of its own client class.
// The credentials key is the credential cache's key for the identity chain: same key, same
// credentials, same client. The pool is bounded; evicted clients are destroyed.
import type { AwsCredentialIdentityProvider } from "@smithy/types";
import { LRUCache } from "lru-cache";
import { userAgent } from "../version.ts";
import type { AwsCallObserver, ObservableClient } from "./aws-call-observer.ts";
import type { AwsRateLimiter } from "./aws-rate-limit.ts";
import { fenceEachAttempt } from "./fenced-attempts.ts";

/** What a client is specific to. */
export interface ClientKey {
  readonly region: string;
  /** Endpoint override (emulator, VPC endpoint, FIPS); null = the SDK's regional endpoint. */
  readonly endpoint: string | null;
  /** Identifies the credentials; clients with equal keys must use equal credentials. */
  readonly credentialsKey: string;
}

/** The configuration every SDK v3 client accepts, as the pool fills it in. */
export interface BaseClientConfig {
  readonly region: string;
  readonly endpoint?: string;
  readonly credentials?: AwsCredentialIdentityProvider;
  /** `crossrole/<version>`, appended to the SDK's user agent (CloudTrail's userAgent field). */
  readonly customUserAgent: string;
  /**
   * "adaptive": the SDK's retries back off on throttling and then pace the client's calls (its
   * client-side rate limiter), on top of crossrole's own buckets (aws-rate-limit.ts).
   */
  readonly retryMode: "adaptive";
  /** Attempts per call, the first included (sdkMaxAttempts). */
  readonly maxAttempts: number;
  readonly requestHandler: {
    readonly connectionTimeout: number;
    readonly requestTimeout: number;
    readonly throwOnRequestTimeout: boolean;
  };
}

export interface Destroyable {
  destroy(): void;
}

/**
 * How one SDK client class is built (each service module owns its own: S3's path-style with an
 * endpoint override, STS without SDK retries, ...). `name` keys the pool, so it must be unique
 * per client class.
 */
export interface ClientFactory<C extends Destroyable> {
  readonly name: string;
  create(config: BaseClientConfig): C;
  /** Its calls keep a limit of their own (STS: process-wide), not the per-account buckets. */
  readonly ownRateLimit?: boolean;
}

/**
 * Attempts per AWS call, the first included (the SDK's own default, set here so that what depends
 * on it, a create intent's window, reads the same number): a client may lower it (STS: 1).
 */
export const sdkMaxAttempts = 3;

export interface AwsClientPoolOptions {
  /** Most clients kept (default 1,000); the least recently used is destroyed beyond that. */
  readonly maxClients?: number;
  /** Connection timeout per request (ms, default 3,000). */
  readonly connectionTimeoutMs?: number;
  /** Socket idle timeout per request (ms, default 10,000): an AWS call that goes quiet fails. */
  readonly requestTimeoutMs?: number;
  /**
   * Added to every client built (its middleware counts and audits each call): the one place all
   * of crossrole's AWS calls pass, whatever the service. `factory.name` is the service label.
   */
  readonly observe?: AwsCallObserver;
  /** Client-side rate limits per service, region and account (aws-rate-limit.ts); none: unlimited. */
  readonly limiter?: AwsRateLimiter;
}

export class AwsClientPool {
  readonly #clients: LRUCache<string, Destroyable>;
  readonly #requestHandler: BaseClientConfig["requestHandler"];
  readonly #observe: AwsCallObserver | undefined;
  readonly #limiter: AwsRateLimiter | undefined;

  constructor(opts: AwsClientPoolOptions = {}) {
    this.#clients = new LRUCache<string, Destroyable>({
      max: opts.maxClients ?? 1_000,
      dispose: (client) => client.destroy(),
    });
    this.#observe = opts.observe;
    this.#limiter = opts.limiter;
    this.#requestHandler = {
      connectionTimeout: opts.connectionTimeoutMs ?? 3_000,
      requestTimeout: opts.requestTimeoutMs ?? 10_000,
      // Without it the SDK only logs a warning when the timeout passes and keeps waiting: a call
      // AWS never answers would hold a reconcile worker (and its per-object lock) forever.
      throwOnRequestTimeout: true,
    };
  }

  /**
   * The client of `factory`'s class for `key`, built on first use. `credentials` may be omitted
   * for unsigned calls (AssumeRoleWithWebIdentity); it must be the same for equal keys.
   */
  client<C extends Destroyable>(
    factory: ClientFactory<C>,
    key: ClientKey,
    credentials?: AwsCredentialIdentityProvider,
  ): C {
    const id = `${factory.name}\u0000${key.region}\u0000${key.endpoint ?? ""}\u0000${key.credentialsKey}`;
    let client = this.#clients.get(id) as C | undefined;
    if (client === undefined) {
      client = factory.create({
        region: key.region,
        customUserAgent: userAgent,
        retryMode: "adaptive",
        maxAttempts: sdkMaxAttempts,
        requestHandler: this.#requestHandler,
        ...(key.endpoint ? { endpoint: key.endpoint } : {}),
        ...(credentials ? { credentials } : {}),
      });
      this.#observe?.(client as unknown as ObservableClient, factory.name, key.region);
      fenceEachAttempt(client);
      if (!factory.ownRateLimit) {
        this.#limiter?.limit(
          client as unknown as ObservableClient,
          factory.name,
          key.region,
          key.credentialsKey,
        );
      }
      this.#clients.set(id, client);
    }
    return client;
  }

  /** Clients currently held. */
  get size(): number {
    return this.#clients.size;
  }

  /** Destroys every client (their sockets close). */
  close(): void {
    this.#clients.clear();
  }
}
