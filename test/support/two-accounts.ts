// The setting a kind's integration test runs in: the AWS emulator, the recording proxy in front of
// it, and a service's SDK client in two accounts — the default one through the proxy (the calls
// the test checks on the wire), and 222222222222 by an assumed role, straight to the emulator (the
// account that must never see the first one's objects).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { type AwsProxy, startAwsProxy } from "./aws-proxy.ts";

export const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};

/** A client as the declared runtime takes it: the SDK client, its region and its account. */
export interface AccountClient<Sdk> {
  readonly sdk: Sdk;
  readonly region: string;
  readonly account: string;
}

export interface TwoAccounts<Sdk> {
  readonly emulator: Emulator;
  readonly proxy: AwsProxy;
  /** The default account, through the proxy. */
  readonly mine: AccountClient<Sdk>;
  /** 222222222222, straight to the emulator. */
  readonly other: AccountClient<Sdk>;
  close(): Promise<void>;
}

export async function startTwoAccounts<Sdk extends { destroy(): void }>(
  label: string,
  region: string,
  client: (endpoint: string, credentials: AwsCredentialIdentity) => Sdk,
): Promise<TwoAccounts<Sdk>> {
  const dir = await mkdtemp(join(tmpdir(), `crossrole-${label}-`));
  const emulator = await startEmulator({ dir });
  const proxy = await startAwsProxy(emulator.endpoint);
  const sts = new STSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
  try {
    const account = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? "";
    const assumed = await sts.send(
      new AssumeRoleCommand({ RoleArn: "arn:aws:iam::222222222222:role/x", RoleSessionName: label }),
    );
    const c = assumed.Credentials;
    assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken);
    const mine = { sdk: client(proxy.endpoint, defaultCredentials), region, account };
    const other = {
      sdk: client(emulator.endpoint, {
        accessKeyId: c.AccessKeyId,
        secretAccessKey: c.SecretAccessKey,
        sessionToken: c.SessionToken,
      }),
      region,
      account: "222222222222",
    };
    return {
      emulator,
      proxy,
      mine,
      other,
      async close() {
        mine.sdk.destroy();
        other.sdk.destroy();
        await proxy.close();
        await emulator.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } finally {
    sts.destroy();
  }
}
