// How a service-account identity gets its web-identity token: a narrow interface, and its
// implementation on the Kubernetes TokenRequest API (the same tokens a projected volume holds).
import { KubeApiError, type KubeClient } from "../runtime/kube-client.ts";

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

interface TokenRequestObject {
  readonly status?: { readonly token?: string; readonly expirationTimestamp?: string };
}

/** TokenRequests through the runtime's client (POST .../serviceaccounts/<name>/token). */
export function kubeTokenRequester(client: KubeClient): TokenRequester {
  return {
    async requestToken(r) {
      const out = await client
        .request<TokenRequestObject>({
          method: "POST",
          path: `/api/v1/namespaces/${encodeURIComponent(r.namespace)}/serviceaccounts/${encodeURIComponent(r.serviceAccountName)}/token`,
          body: {
            apiVersion: "authentication.k8s.io/v1",
            kind: "TokenRequest",
            spec: { audiences: [...r.audiences], expirationSeconds: r.expirationSeconds },
          },
        })
        .catch((err: unknown) => {
          throw new TokenRequestFailed(r, err instanceof KubeApiError ? err.status : null, err);
        });
      const token = out?.status?.token;
      const expiration = out?.status?.expirationTimestamp;
      if (!token || !expiration) {
        throw new Error(
          `TokenRequest for ServiceAccount ${r.namespace}/${r.serviceAccountName} returned no token or expiry`,
        );
      }
      return { token, expiration: new Date(expiration) };
    },
  };
}
