// Smoke test of the real AWS emulator: assumed-role credentials act in the role's account,
// and what they create is invisible from the default account.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CreateQueueCommand, ListQueuesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";

const region = "us-east-1";
const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};

let dir: string;
let emulator: Emulator;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-smoke-aws-"));
  emulator = await startEmulator({ dir });
});
after(async () => {
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

function sts(credentials: AwsCredentialIdentity) {
  return new STSClient({ region, endpoint: emulator.endpoint, credentials });
}

describe("AWS emulator", () => {
  test("AssumeRole into 222222222222 gives credentials whose caller identity is that account", async () => {
    const base = await sts(defaultCredentials).send(new GetCallerIdentityCommand({}));
    assert.equal(base.Account, emulator.defaultAccount);

    const assumed = await sts(defaultCredentials).send(
      new AssumeRoleCommand({ RoleArn: "arn:aws:iam::222222222222:role/x", RoleSessionName: "smoke" }),
    );
    const c = assumed.Credentials;
    assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
    const roleCredentials = {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    };
    const who = await sts(roleCredentials).send(new GetCallerIdentityCommand({}));
    assert.equal(who.Account, "222222222222");
    assert.equal(who.Arn, "arn:aws:sts::222222222222:assumed-role/x/smoke");

    // An SQS queue created with the role's credentials lives in 222222222222 only.
    const inRole = new SQSClient({ region, endpoint: emulator.endpoint, credentials: roleCredentials });
    const created = await inRole.send(new CreateQueueCommand({ QueueName: "smoke-queue" }));
    assert.match(created.QueueUrl ?? "", /222222222222\/smoke-queue$/);
    const roleQueues = await inRole.send(new ListQueuesCommand({}));
    assert.deepEqual(
      roleQueues.QueueUrls?.map((u) => u.split("/").slice(-2).join("/")),
      ["222222222222/smoke-queue"],
    );

    const asDefault = new SQSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
    const defaultQueues = await asDefault.send(new ListQueuesCommand({}));
    assert.deepEqual(
      defaultQueues.QueueUrls ?? [],
      [],
      "the queue must not be visible from the default account",
    );
  });
});
