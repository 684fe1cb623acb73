// Online, the controller's own account is whatever sts:GetCallerIdentity says for the
// default AWS credential chain (env, profile, web identity, IMDS). Failing to learn it is
// not fatal: explain continues with the account unknown and says why.
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";

export type CallerAccount =
  | { readonly account: string; readonly arn: string | null }
  | { readonly account: null; readonly error: string };

export interface StsTarget {
  readonly region: string | null;
  readonly endpoint: string | null;
}

export async function lookupCallerAccount(target: StsTarget): Promise<CallerAccount> {
  const client = new STSClient({
    // STS needs some region to sign for; us-east-1 is the global endpoint's.
    region: target.region ?? "us-east-1",
    ...(target.endpoint === null ? {} : { endpoint: target.endpoint }),
    // One quick attempt: explain is interactive, and a missing account is only reported.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 3000, requestTimeout: 5000 },
  });
  try {
    const identity = await client.send(new GetCallerIdentityCommand({}));
    if (identity.Account === undefined) return { account: null, error: "the response named no account" };
    return { account: identity.Account, arn: identity.Arn ?? null };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { account: null, error: message.split("\n")[0] ?? message };
  } finally {
    client.destroy();
  }
}
