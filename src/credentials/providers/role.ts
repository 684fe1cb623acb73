// A role hop (AWSRoleIdentity, IAMRoleSelector, CARM): sts:AssumeRole from the previous hop's
// credentials with every parameter the hop carries. The source is read through its own
// (cached) provider on every refresh, so the source refreshes on its own schedule and this hop
// never holds on to a source's old credentials (CAPA freezes them; the outer role then stops
// refreshing when the source expires).
import { classifyStsError, type StsCallContext } from "../classify-error.ts";
import { type CredentialError, ExpiredCredentialsError } from "../errors.ts";
import type { AssumeRoleRequest, SourceCredentials, StsApi, StsSession } from "../sts.ts";
import type { CredentialProvider, Credentials, StsTarget } from "../types.ts";

/** AWS refuses longer sessions for role chaining (a role's credentials assuming a role). */
export const roleChainingMaxSeconds = 3600;

export interface RoleCredentialsOptions {
  readonly sts: StsApi;
  readonly target: StsTarget;
  readonly source: SourceCredentials;
  /** The source hop is itself a role session (role chaining). */
  readonly sourceIsRole: boolean;
  readonly request: AssumeRoleRequest;
  readonly context: Omit<StsCallContext, "operation" | "externalID" | "sessionTags" | "sourceIdentity">;
  /** Forget the source's cached credentials (STS said they had expired). */
  readonly invalidateSource: () => void;
  /** Told about every session obtained (audit). */
  readonly onSession?: (session: StsSession, request: AssumeRoleRequest) => void;
}

/**
 * The duration actually requested: capped at one hour when the source is a role session, or
 * any temporary credentials (an IRSA or Pod Identity controller is a role session too, and a
 * shorter session is always accepted where a longer one may not be).
 */
export function effectiveDurationSeconds(
  requested: number | undefined,
  sourceIsRole: boolean,
  source: Credentials,
): number | undefined {
  if (requested === undefined) return undefined;
  const chained = sourceIsRole || source.sessionToken !== undefined;
  return chained ? Math.min(requested, roleChainingMaxSeconds) : requested;
}

export function roleCredentials(opts: RoleCredentialsOptions): CredentialProvider {
  const context: StsCallContext = {
    ...opts.context,
    operation: "AssumeRole",
    externalID: opts.request.externalID !== undefined,
    sessionTags: (opts.request.tags?.length ?? 0) > 0,
    sourceIdentity: opts.request.sourceIdentity !== undefined,
  };
  const attempt = async (): Promise<Credentials> => {
    // Errors here are the source hop's own, already typed and naming that hop.
    const sourceCredentials = await opts.source.provider();
    const durationSeconds = effectiveDurationSeconds(
      opts.request.durationSeconds,
      opts.sourceIsRole,
      sourceCredentials,
    );
    const request: AssumeRoleRequest = { ...opts.request, durationSeconds };
    let session: StsSession;
    try {
      session = await opts.sts.assumeRole({ target: opts.target, source: opts.source, request });
    } catch (err) {
      throw classifyStsError(err, context);
    }
    opts.onSession?.(session, request);
    return session.credentials;
  };
  return async () => {
    try {
      return await attempt();
    } catch (err) {
      // The source's credentials expired under us (clock skew, revoked session): refresh the
      // source once and try again, instead of failing until the source's own refresh time.
      if (err instanceof ExpiredCredentialsError && err.hop === context.hop) {
        opts.invalidateSource();
        return attempt();
      }
      throw err as CredentialError;
    }
  };
}
