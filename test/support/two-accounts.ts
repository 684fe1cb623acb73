// The setting a kind's integration test runs in: the AWS emulator, the recording proxy in front of
// it, and a service's SDK client in two accounts — the default one through the proxy (the calls
// the test checks on the wire), and 222222222222 by an assumed role, straight to the emulator (the
// account that must never see the first one's objects); and what the proxy saw, read as a test asks.
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

/** What went through the proxy, as a kind's test reads it. */
export interface WireCalls {
  /** The actions sent while `action` ran, in order. */
  during(action: () => Promise<unknown>): Promise<(string | undefined)[]>;
  /**
   * The `n`th `action`'s input: its form fields (query protocols: IAM's, without Action and
   * Version) or its JSON body (JSON protocols). Fails the test when it was not sent.
   */
  input(action: string, n?: number): Readonly<Record<string, unknown>>;
}

/** The writes among `sent`: every action but the reads (Get, List, Describe, Head). */
export const writesOnly = (sent: readonly (string | undefined)[]): string[] =>
  sent.filter((a): a is string => a !== undefined && !/^(Get|List|Describe|Head)/.test(a));

function wireCalls(proxy: AwsProxy): WireCalls {
  return {
    async during(action) {
      proxy.clearRecording();
      await action();
      return proxy.requests.map((r) => r.action);
    },
    input(action, n = 0) {
      const call = proxy.calls(action).at(n);
      assert.ok(call, `${action} was sent`);
      const { Action: _, Version: __, ...form } = call.params;
      return call.params["Action"] !== undefined
        ? form
        : (JSON.parse(call.body || "{}") as Record<string, unknown>);
    },
  };
}

export interface TwoAccounts<Sdk> {
  readonly emulator: Emulator;
  readonly proxy: AwsProxy;
  readonly calls: WireCalls;
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
      calls: wireCalls(proxy),
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
