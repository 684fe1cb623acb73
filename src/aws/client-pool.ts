// AWS SDK clients are not cheap (each holds its config, middleware stack and a connection
// pool), so crossrole builds one per (service, region, endpoint, credentials key) and reuses
// it. The credentials key is the credential cache's key for the identity chain: same key,
// same credentials, same client. The pool is bounded; evicted clients are destroyed.
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import { STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentityProvider } from "@smithy/types";
import { LRUCache } from "lru-cache";

export type AwsServiceName = "sts" | "sqs" | "s3";

/** What a client is specific to. */
export interface ClientKey {
  readonly region: string;
  /** Endpoint override (emulator, VPC endpoint, FIPS); null = the SDK's regional endpoint. */
  readonly endpoint: string | null;
  /** Identifies the credentials; clients with equal keys must use equal credentials. */
  readonly credentialsKey: string;
}

export interface AwsClientPoolOptions {
  /** Most clients kept (default 1,000); the least recently used is destroyed beyond that. */
  readonly maxClients?: number;
  /** Connection timeout per request (ms, default 3,000). */
  readonly connectionTimeoutMs?: number;
  /** Socket idle timeout per request (ms, default 10,000): an AWS call that goes quiet fails. */
  readonly requestTimeoutMs?: number;
}

interface Destroyable {
  destroy(): void;
}

export class AwsClientPool {
  readonly #clients: LRUCache<string, Destroyable>;
  readonly #requestHandler: {
    connectionTimeout: number;
    requestTimeout: number;
    throwOnRequestTimeout: boolean;
  };

  constructor(opts: AwsClientPoolOptions = {}) {
    this.#clients = new LRUCache<string, Destroyable>({
      max: opts.maxClients ?? 1_000,
      dispose: (client) => client.destroy(),
    });
    this.#requestHandler = {
      connectionTimeout: opts.connectionTimeoutMs ?? 3_000,
      requestTimeout: opts.requestTimeoutMs ?? 10_000,
      // Without it the SDK only logs a warning when the timeout passes and keeps waiting: a call
      // AWS never answers would hold a reconcile worker (and its per-object lock) forever.
      throwOnRequestTimeout: true,
    };
  }

  /**
   * STS client. The SDK's own retries are off (maxAttempts 1): crossrole retries STS itself so
   * every attempt passes its rate limiter and is counted. Regional endpoints, never the global one.
   * `credentials` may be omitted for AssumeRoleWithWebIdentity, which is unsigned.
   */
  sts(key: ClientKey, credentials?: AwsCredentialIdentityProvider): STSClient {
    return this.#get("sts", key, () => {
      const config = {
        region: key.region,
        maxAttempts: 1,
        useGlobalEndpoint: false,
        requestHandler: this.#requestHandler,
        ...(key.endpoint ? { endpoint: key.endpoint } : {}),
        ...(credentials ? { credentials } : {}),
      };
      return new STSClient(config);
    });
  }

  sqs(key: ClientKey, credentials: AwsCredentialIdentityProvider): SQSClient {
    return this.#get(
      "sqs",
      key,
      () =>
        new SQSClient({
          region: key.region,
          credentials,
          requestHandler: this.#requestHandler,
          ...(key.endpoint ? { endpoint: key.endpoint } : {}),
        }),
    );
  }

  /** S3 client; path-style addressing with an endpoint override, since emulators and VPC endpoints need it. */
  s3(key: ClientKey, credentials: AwsCredentialIdentityProvider): S3Client {
    return this.#get(
      "s3",
      key,
      () =>
        new S3Client({
          region: key.region,
          credentials,
          requestHandler: this.#requestHandler,
          ...(key.endpoint ? { endpoint: key.endpoint, forcePathStyle: true } : {}),
        }),
    );
  }

  /** Clients currently held. */
  get size(): number {
    return this.#clients.size;
  }

  /** Destroys every client (their sockets close). */
  close(): void {
    this.#clients.clear();
  }

  #get<C extends Destroyable>(service: AwsServiceName, key: ClientKey, create: () => C): C {
    const id = `${service}\u0000${key.region}\u0000${key.endpoint ?? ""}\u0000${key.credentialsKey}`;
    let client = this.#clients.get(id) as C | undefined;
    if (client === undefined) {
      client = create();
      this.#clients.set(id, client);
    }
    return client;
  }
}
