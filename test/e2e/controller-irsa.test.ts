// The controller's own AWS identity as a Pod with IRSA gets it: no keys in its environment,
// AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE pointing at a projected ServiceAccount token
// (here: a TokenRequest token for the controller's ServiceAccount, audience sts.amazonaws.com),
// and the SDK default chain calling sts:AssumeRoleWithWebIdentity — checked at the emulator's
// own request recording. Resources on the default identity land in the role's account, and
// AWS_DEFAULT_REGION is honoured when AWS_REGION is absent.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { minimalResource } from "../support/minimal-resources.ts";
import { readMotoRecording } from "../support/moto-recording.ts";
import { type E2E, namespace, startE2E, waitForResourceCondition } from "./fixture.ts";

const sys = "ack-system";
const roleARN = "arn:aws:iam::333333333333:role/crossrole-controller";
let e2e: E2E;
let dir: string;
let token: string;

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  dir = await mkdtemp(join(tmpdir(), "crossrole-irsa-"));
  await e2e.apply([
    namespace(sys),
    namespace("plain"),
    {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "crossrole", namespace: sys },
    } as KubeObject,
  ]);
  // What the kubelet projects for IRSA: a token for the Pod's ServiceAccount, audience STS.
  const review = await e2e.kube.request<{ status: { token: string } }>({
    method: "POST",
    path: `/api/v1/namespaces/${sys}/serviceaccounts/crossrole/token`,
    body: {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec: { audiences: ["sts.amazonaws.com"], expirationSeconds: 3600 },
    },
  });
  token = review.status.token;
  const tokenFile = join(dir, "token");
  await writeFile(tokenFile, token);
  await e2e.startController([], {
    name: "irsa",
    regionFromEnv: true,
    env: {
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_REGION: undefined,
      AWS_DEFAULT_REGION: "eu-north-1",
      AWS_ROLE_ARN: roleARN,
      AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile,
      AWS_ROLE_SESSION_NAME: "crossrole-controller",
    },
  });
});
after(async () => {
  await e2e?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the controller's own identity comes from AssumeRoleWithWebIdentity with its ServiceAccount token", async () => {
  const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
    aud: string[];
    sub: string;
  };
  assert.deepEqual(payload.aud, ["sts.amazonaws.com"]);
  assert.equal(payload.sub, `system:serviceaccount:${sys}:crossrole`);

  await e2e.apply([minimalResource("Bucket", "plain", "own", "irsa-own-bucket")]);
  const b = await waitForResourceCondition(
    e2e.kube,
    "Bucket",
    "plain",
    "own",
    "ACK.ResourceSynced",
    "True",
    undefined,
    30_000,
  );
  assert.equal(
    b.status?.ackResourceMetadata?.ownerAccountID,
    "333333333333",
    "the role's account is the controller's",
  );
  assert.equal(
    b.status?.ackResourceMetadata?.region,
    "eu-north-1",
    "AWS_DEFAULT_REGION, as AWS_REGION is unset",
  );
  assert.deepEqual(
    await accountsHoldingResource(e2e.stack.awsEndpoint ?? "", "Bucket", "irsa-own-bucket", "eu-north-1", [
      "123456789012",
      "333333333333",
    ]),
    ["333333333333"],
  );

  const calls = (await readMotoRecording(e2e.stack.emulator?.recordingPath ?? "")).filter(
    (r) => r.params["Action"] === "AssumeRoleWithWebIdentity",
  );
  assert.ok(calls.length >= 1, "AssumeRoleWithWebIdentity reached the emulator");
  for (const call of calls) {
    assert.equal(call.params["RoleArn"], roleARN);
    assert.equal(call.params["WebIdentityToken"], token, "the ServiceAccount's token, read from the file");
    assert.equal(call.params["RoleSessionName"], "crossrole-controller");
  }
});
