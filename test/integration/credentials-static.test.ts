// Issue 4, against a real kube-apiserver and the AWS emulator: a static identity's keys come
// from a Secret in the system namespace; rotating the Secret yields new credentials (and a new
// AssumeRole signed with the new keys); a missing Secret or key is an error naming it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Registry } from "prom-client";
import { SecretUnavailableError } from "../../src/credentials/errors.ts";
import { kubeSecretReader } from "../../src/credentials/secret-reader.ts";
import { createCredentialService } from "../../src/credentials/service.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import { sqsClientFactory } from "../../src/services/sqs/client.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { roleHop, staticHop, useDecision } from "../support/credential-decisions.ts";
import { captureLog, issued, useControllerEnvironment, whoAmI } from "../support/credentials-fixture.ts";

const systemNamespace = "crossrole-system";
const role = "arn:aws:iam::222222222222:role/static-target";
let stack: Stack;
let proxy: AwsProxy;
let kube: KubeClient;
before(async () => {
  useControllerEnvironment();
  stack = await startStack();
  proxy = await startAwsProxy(stack.awsEndpoint!);
  kube = createKubeClient(stack.kubeConfig);
  await kube.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: systemNamespace } },
  });
});
after(async () => {
  await proxy?.close();
  await stack?.stop();
});

async function writeSecret(name: string, data: Record<string, string>) {
  const body = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: systemNamespace },
    stringData: data,
  };
  const secrets = `/api/v1/namespaces/${systemNamespace}/secrets`;
  try {
    await kube.request({ method: "PUT", path: `${secrets}/${name}`, body });
  } catch {
    await kube.request({ method: "POST", path: secrets, body });
  }
}

function newService() {
  const log = captureLog();
  const service = createCredentialService({
    logger: log.logger,
    registry: new Registry(),
    systemNamespace,
    secrets: kubeSecretReader(kube),
  });
  return { service, log };
}

describe("static identity", () => {
  test("keys from the Secret are used as they are, and AssumeRole from them is signed with them", async () => {
    await writeSecret("aws-keys", { AccessKeyID: "AKIASTATIC0000000001", SecretAccessKey: "first-secret" });
    const { service, log } = newService();
    try {
      const base = useDecision([staticHop("keys", "aws-keys")], { endpoint: proxy.endpoint });
      const creds = await service.credentialsFor(base);
      assert.equal(creds.accessKeyId, "AKIASTATIC0000000001");
      assert.equal((await service.callerIdentity(base)).account, "123456789012", "moto's default account");

      const chained = useDecision(
        [staticHop("keys", "aws-keys"), roleHop("target", role, { durationSeconds: 7200 })],
        {
          endpoint: proxy.endpoint,
        },
      );
      const assumed = await service.credentialsFor(chained);
      assert.equal((await whoAmI(stack.awsEndpoint!, assumed)).Account, "222222222222");
      const call = proxy.calls("AssumeRole").at(-1)!;
      assert.equal(call.accessKeyId, "AKIASTATIC0000000001");
      assert.equal(
        call.params["DurationSeconds"],
        "7200",
        "long-lived keys are not role chaining: not capped",
      );
      assert.ok(!log.raw.join("").includes("first-secret"), "the secret key was logged");
    } finally {
      service.close();
    }
  });

  test("a rotated Secret yields new credentials and a new AssumeRole signed with the new keys", async () => {
    await writeSecret("rotating", { AccessKeyID: "AKIAROTATE0000000001", SecretAccessKey: "old-secret" });
    const { service, log } = newService();
    try {
      proxy.clearRecording();
      const decision = useDecision([staticHop("rotating", "rotating"), roleHop("target", role)], {
        endpoint: proxy.endpoint,
      });
      const before = await service.credentialsFor(decision);
      assert.equal((await service.credentialsFor(decision)).accessKeyId, before.accessKeyId, "cached");
      assert.equal(proxy.calls("AssumeRole").length, 1);

      await writeSecret("rotating", { AccessKeyID: "AKIAROTATE0000000002", SecretAccessKey: "new-secret" });
      const after = await service.credentialsFor(decision);
      assert.notEqual(after.accessKeyId, before.accessKeyId);
      assert.deepEqual(
        proxy.calls("AssumeRole").map((c) => c.accessKeyId),
        ["AKIAROTATE0000000001", "AKIAROTATE0000000002"],
      );
      assert.deepEqual(
        issued(log).map((l) => [l["identity"], l["operation"]]),
        [
          ["AWSStaticIdentity/rotating", "StaticSecret"],
          ["AWSRoleIdentity/target", "AssumeRole"],
          ["AWSStaticIdentity/rotating", "StaticSecret"],
          ["AWSRoleIdentity/target", "AssumeRole"],
        ],
      );
      // The SQS client follows the rotation too: a different key, a different client.
      const base = useDecision([staticHop("rotating", "rotating")], { endpoint: proxy.endpoint });
      const client = await service.client(sqsClientFactory, base);
      await writeSecret("rotating", { AccessKeyID: "AKIAROTATE0000000003", SecretAccessKey: "newer-secret" });
      assert.notEqual(await service.client(sqsClientFactory, base), client);
    } finally {
      service.close();
    }
  });

  test("a missing Secret, or a Secret without a key, is an error naming the Secret and the key", async () => {
    await writeSecret("half", { AccessKeyID: "AKIAHALF000000000001" });
    const { service } = newService();
    try {
      const missing = useDecision([staticHop("gone", "does-not-exist")], { endpoint: proxy.endpoint });
      await assert.rejects(service.credentialsFor(missing), (err: unknown) => {
        assert.ok(err instanceof SecretUnavailableError);
        assert.equal(err.secret, "crossrole-system/does-not-exist");
        assert.equal(err.key, null);
        assert.match(err.message, /Secret crossrole-system\/does-not-exist does not exist/);
        assert.match(err.fix, /create Secret does-not-exist in namespace crossrole-system/);
        return true;
      });
      const half = useDecision([staticHop("half", "half")], { endpoint: proxy.endpoint });
      await assert.rejects(service.credentialsFor(half), (err: unknown) => {
        assert.ok(err instanceof SecretUnavailableError);
        assert.equal(err.key, "SecretAccessKey");
        assert.match(err.message, /Secret crossrole-system\/half has no \(or an empty\) key SecretAccessKey/);
        return true;
      });
    } finally {
      service.close();
    }
  });
});
