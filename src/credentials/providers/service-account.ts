// A service-account identity (AWSServiceAccountIdentity): a token for the ServiceAccount from
// the Kubernetes TokenRequest API (audiences, lifetime), then sts:AssumeRoleWithWebIdentity.
// The token is kept and reused until 80 % of its life has passed (as the kubelet rotates
// projected tokens), so a new one is always requested before the old one expires.
import type { Clock } from "../../toolkit/clock.ts";
import { classifyStsError, type StsCallContext } from "../classify-error.ts";
import {
  AccessDeniedError,
  CredentialFailedError,
  ExpiredCredentialsError,
  type HopContext,
  InvalidParameterError,
} from "../errors.ts";
import type { StsApi, StsSession, WebIdentityRequest } from "../sts.ts";
import {
  type ServiceAccountToken,
  type TokenRequest,
  type TokenRequester,
  TokenRequestFailed,
} from "../token-requester.ts";
import type { CredentialProvider, Credentials, StsTarget } from "../types.ts";

export const defaultAudiences: readonly string[] = ["sts.amazonaws.com"];
export const defaultTokenExpirationSeconds = 3600;
/** Share of a token's life after which a new token is requested. */
const renewAfterFraction = 0.8;

export interface ServiceAccountCredentialsOptions {
  readonly sts: StsApi;
  readonly tokens: TokenRequester;
  readonly clock: Clock;
  readonly target: StsTarget;
  readonly token: TokenRequest;
  readonly request: Omit<WebIdentityRequest, "token">;
  readonly context: HopContext & { readonly endpoint: string };
  readonly onSession?: (session: StsSession, request: Omit<WebIdentityRequest, "token">) => void;
  /** Told about every token obtained (tests count them; operators may log them). */
  readonly onToken?: (token: ServiceAccountToken) => void;
}

function tokenError(err: unknown, o: ServiceAccountCredentialsOptions): Error {
  const sa = `ServiceAccount ${o.token.namespace}/${o.token.serviceAccountName}`;
  const status = err instanceof TokenRequestFailed ? err.status : null;
  const base = { context: o.context, cause: err };
  if (status === 404) {
    return new InvalidParameterError({
      ...base,
      summary: `${sa} does not exist`,
      fix: `create the ServiceAccount, or correct serviceAccountName on ${o.context.identity}`,
    });
  }
  if (status === 403) {
    return new AccessDeniedError({
      ...base,
      summary: `the controller may not request tokens for ${sa}`,
      fix: `grant the controller's ServiceAccount "create" on serviceaccounts/token in namespace ${o.token.namespace}`,
    });
  }
  return new CredentialFailedError({
    ...base,
    retryable: true,
    summary: `TokenRequest for ${sa} failed (${err instanceof Error ? err.message : String(err)})`,
    fix: "check that the Kubernetes API server is reachable from the controller",
  });
}

export function serviceAccountCredentials(o: ServiceAccountCredentialsOptions): CredentialProvider {
  let token: { value: ServiceAccountToken; renewAt: number } | undefined;
  const context: StsCallContext = {
    ...o.context,
    operation: "AssumeRoleWithWebIdentity",
    subject: `system:serviceaccount:${o.token.namespace}:${o.token.serviceAccountName}`,
    audiences: o.token.audiences,
  };

  async function currentToken(): Promise<string> {
    const now = o.clock.now();
    if (token !== undefined && now < token.renewAt) return token.value.token;
    let value: ServiceAccountToken;
    try {
      value = await o.tokens.requestToken(o.token);
    } catch (err) {
      throw tokenError(err, o);
    }
    o.onToken?.(value);
    const lifetime = Math.max(0, value.expiration.getTime() - now);
    token = { value, renewAt: now + lifetime * renewAfterFraction };
    return value.token;
  }

  const attempt = async (): Promise<Credentials> => {
    const request: WebIdentityRequest = { ...o.request, token: await currentToken() };
    let session: StsSession;
    try {
      session = await o.sts.assumeRoleWithWebIdentity({ target: o.target, request });
    } catch (err) {
      throw classifyStsError(err, context);
    }
    o.onSession?.(session, o.request);
    return session.credentials;
  };

  return async () => {
    try {
      return await attempt();
    } catch (err) {
      // STS found the token too old (clock skew, revoked): take a new one once.
      if (err instanceof ExpiredCredentialsError) {
        token = undefined;
        return attempt();
      }
      throw err;
    }
  };
}
