// The audit trail of credentials: one JSON log line each time a hop obtains NEW credentials —
// which identity, through which chain, in which account, under which session name, until
// when. Built only from names and parameters, never from the credentials, so no key, secret
// or session token can reach a log.
import type { Logger } from "pino";

export interface IssuedCredentials {
  /** The hop that obtained the credentials, `Kind/name`. */
  readonly identity: string;
  /** Labels of the chain up to and including that hop. */
  readonly chain: readonly string[];
  readonly hop: number;
  readonly operation: "AssumeRole" | "AssumeRoleWithWebIdentity" | "ControllerChain" | "StaticSecret";
  readonly roleARN: string | null;
  /** What STS says was assumed (`arn:aws:sts::<account>:assumed-role/<role>/<session>`). */
  readonly assumedRoleARN: string | null;
  readonly account: string | null;
  readonly sessionName: string | null;
  readonly durationSeconds: number | null;
  readonly expiration: Date | undefined;
  readonly region: string;
  readonly endpoint: string | null;
  /** The cache key (a hash; safe to log), to correlate later lines with this one. */
  readonly key: string;
}

export function logIssuedCredentials(logger: Logger, e: IssuedCredentials): void {
  logger.info(
    {
      event: "credentials.issued",
      identity: e.identity,
      chain: e.chain,
      hop: e.hop,
      operation: e.operation,
      roleARN: e.roleARN,
      assumedRoleARN: e.assumedRoleARN,
      account: e.account,
      sessionName: e.sessionName,
      durationSeconds: e.durationSeconds,
      expiration: e.expiration?.toISOString() ?? null,
      region: e.region,
      endpoint: e.endpoint,
      key: e.key.slice(0, 16),
    },
    `new AWS credentials for ${e.identity}`,
  );
}
