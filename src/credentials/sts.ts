// The narrow STS interface crossrole depends on: the three operations it needs, in its own
// words. The rate limiter, retries and metrics wrap this interface in one place
// (protected-sts.ts), and tests can put anything behind it.
import {
  AssumeRoleCommand,
  type AssumeRoleCommandInput,
  AssumeRoleWithWebIdentityCommand,
  type AssumeRoleWithWebIdentityCommandInput,
  GetCallerIdentityCommand,
  STSClient,
  type Credentials as StsWireCredentials,
} from "@aws-sdk/client-sts";
import type { AwsClientPool, ClientFactory } from "./client-pool.ts";
import type { CredentialProvider, Credentials, StsTarget } from "./types.ts";

export interface SessionTag {
  readonly key: string;
  readonly value: string;
}

/** Everything AssumeRole can carry, as crossrole sends it. */
export interface AssumeRoleRequest {
  readonly roleARN: string;
  readonly sessionName: string;
  readonly durationSeconds?: number;
  readonly externalID?: string;
  readonly policy?: string;
  readonly policyARNs?: readonly string[];
  readonly tags?: readonly SessionTag[];
  readonly transitiveTagKeys?: readonly string[];
  readonly sourceIdentity?: string;
}

export interface WebIdentityRequest {
  readonly roleARN: string;
  readonly sessionName: string;
  readonly token: string;
  readonly durationSeconds?: number;
}

/** Credentials that call STS, with the cache key that picks their reused SDK client. */
export interface SourceCredentials {
  readonly key: string;
  readonly provider: CredentialProvider;
}

/** What an assume-role call returned. */
export interface StsSession {
  readonly credentials: Credentials;
  /** `arn:aws:sts::<account>:assumed-role/<role>/<session>`, as STS reports it. */
  readonly assumedRoleARN: string | null;
}

export interface CallerIdentity {
  readonly account: string;
  readonly arn: string;
  readonly userId: string;
}

export interface StsApi {
  assumeRole(call: {
    readonly target: StsTarget;
    readonly source: SourceCredentials;
    readonly request: AssumeRoleRequest;
  }): Promise<StsSession>;
  assumeRoleWithWebIdentity(call: {
    readonly target: StsTarget;
    readonly request: WebIdentityRequest;
  }): Promise<StsSession>;
  getCallerIdentity(call: {
    readonly target: StsTarget;
    readonly source: SourceCredentials;
  }): Promise<CallerIdentity>;
}

/** The account in an ARN (`arn:aws:iam::<account>:role/x`), or null. */
export function accountOfArn(arn: string | null | undefined): string | null {
  const account = arn?.split(":")[4];
  return account && /^\d{12}$/.test(account) ? account : null;
}

function toCredentials(
  wire: StsWireCredentials | undefined,
  assumedRoleARN: string | null,
  op: string,
): Credentials {
  if (!wire?.AccessKeyId || !wire.SecretAccessKey) {
    throw new Error(`STS ${op} answered without credentials`);
  }
  const accountId = accountOfArn(assumedRoleARN);
  return {
    accessKeyId: wire.AccessKeyId,
    secretAccessKey: wire.SecretAccessKey,
    ...(wire.SessionToken ? { sessionToken: wire.SessionToken } : {}),
    ...(wire.Expiration ? { expiration: wire.Expiration } : {}),
    ...(accountId ? { accountId } : {}),
  };
}

function assumeRoleInput(r: AssumeRoleRequest): AssumeRoleCommandInput {
  return {
    RoleArn: r.roleARN,
    RoleSessionName: r.sessionName,
    ...(r.durationSeconds !== undefined ? { DurationSeconds: r.durationSeconds } : {}),
    ...(r.externalID !== undefined ? { ExternalId: r.externalID } : {}),
    ...(r.policy !== undefined ? { Policy: r.policy } : {}),
    ...(r.policyARNs?.length ? { PolicyArns: r.policyARNs.map((arn) => ({ arn })) } : {}),
    ...(r.tags?.length ? { Tags: r.tags.map((t) => ({ Key: t.key, Value: t.value })) } : {}),
    ...(r.transitiveTagKeys?.length ? { TransitiveTagKeys: [...r.transitiveTagKeys] } : {}),
    ...(r.sourceIdentity !== undefined ? { SourceIdentity: r.sourceIdentity } : {}),
  };
}

/** Unsigned calls (AssumeRoleWithWebIdentity) share one client per region and endpoint. */
const unsignedKey = "unsigned";

/**
 * STS clients: the SDK's own retries off (maxAttempts 1) — crossrole retries STS itself so every
 * attempt passes its rate limiter and is counted — and regional endpoints, never the global one.
 */
export const stsClientFactory: ClientFactory<STSClient> = {
  name: "sts",
  ownRateLimit: true,
  create: (config) => new STSClient({ ...config, maxAttempts: 1, useGlobalEndpoint: false }),
};

/** The real STS, through reused SDK clients. */
export function sdkSts(pool: AwsClientPool): StsApi {
  const clientKey = (target: StsTarget, credentialsKey: string) => ({
    region: target.region,
    endpoint: target.endpoint,
    credentialsKey,
  });
  return {
    async assumeRole({ target, source, request }) {
      const client = pool.client(stsClientFactory, clientKey(target, source.key), source.provider);
      const out = await client.send(new AssumeRoleCommand(assumeRoleInput(request)));
      const assumedRoleARN = out.AssumedRoleUser?.Arn ?? null;
      return { credentials: toCredentials(out.Credentials, assumedRoleARN, "AssumeRole"), assumedRoleARN };
    },
    async assumeRoleWithWebIdentity({ target, request }) {
      const client = pool.client(stsClientFactory, clientKey(target, unsignedKey));
      const input: AssumeRoleWithWebIdentityCommandInput = {
        RoleArn: request.roleARN,
        RoleSessionName: request.sessionName,
        WebIdentityToken: request.token,
        ...(request.durationSeconds !== undefined ? { DurationSeconds: request.durationSeconds } : {}),
      };
      const out = await client.send(new AssumeRoleWithWebIdentityCommand(input));
      const assumedRoleARN = out.AssumedRoleUser?.Arn ?? null;
      return {
        credentials: toCredentials(out.Credentials, assumedRoleARN, "AssumeRoleWithWebIdentity"),
        assumedRoleARN,
      };
    },
    async getCallerIdentity({ target, source }) {
      const client = pool.client(stsClientFactory, clientKey(target, source.key), source.provider);
      const out = await client.send(new GetCallerIdentityCommand({}));
      if (!out.Account || !out.Arn) throw new Error("STS GetCallerIdentity answered without an account");
      return { account: out.Account, arn: out.Arn, userId: out.UserId ?? "" };
    },
  };
}
