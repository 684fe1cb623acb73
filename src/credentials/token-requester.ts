// How a service-account identity gets its web-identity token: a narrow interface, and its
// implementation on the Kubernetes TokenRequest API (the same tokens a projected volume holds).
import { ApiException, CoreV1Api, type KubeConfig } from "@kubernetes/client-node";

export interface TokenRequest {
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly audiences: readonly string[];
  /** Requested lifetime; the API server may shorten it (and enforces at least 10 minutes). */
  readonly expirationSeconds: number;
}

export interface ServiceAccountToken {
  readonly token: string;
  readonly expiration: Date;
}

export interface TokenRequester {
  requestToken(request: TokenRequest): Promise<ServiceAccountToken>;
}

/** A TokenRequest the API server refused; `status` is its HTTP status (404: no such ServiceAccount). */
export class TokenRequestFailed extends Error {
  readonly status: number | null;
  constructor(request: TokenRequest, status: number | null, cause: unknown) {
    super(
      `TokenRequest for ServiceAccount ${request.namespace}/${request.serviceAccountName} failed` +
        (status === null ? "" : ` with HTTP ${status}`),
      { cause },
    );
    this.status = status;
  }
}

export function kubeTokenRequester(kubeConfig: KubeConfig): TokenRequester {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async requestToken(r) {
      const out = await core
        .createNamespacedServiceAccountToken({
          name: r.serviceAccountName,
          namespace: r.namespace,
          body: { spec: { audiences: [...r.audiences], expirationSeconds: r.expirationSeconds } },
        })
        .catch((err: unknown) => {
          throw new TokenRequestFailed(r, err instanceof ApiException ? err.code : null, err);
        });
      const token = out.status?.token;
      const expiration = out.status?.expirationTimestamp;
      if (!token || !expiration) {
        throw new Error(
          `TokenRequest for ServiceAccount ${r.namespace}/${r.serviceAccountName} returned no token or expiry`,
        );
      }
      return { token, expiration: new Date(expiration) };
    },
  };
}
