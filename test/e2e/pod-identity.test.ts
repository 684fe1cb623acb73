// EKS Pod Identity for the controller's own credentials: no access keys in its environment, only
// AWS_CONTAINER_CREDENTIALS_FULL_URI and AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, served here by a
// local endpoint that answers as the Pod Identity agent does (the token file's content as the
// Authorization header; AccessKeyId, SecretAccessKey, Token, AccountId, Expiration). The
// controller learns its account with them, reconciles on them, and a role identity chains from
// them with the session tags it asks for (the role's trust policy needs sts:AssumeRole and
// sts:TagSession: docs/install.md).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { accountsHolding } from "../../src/local-stack/accounts.ts";
import { controllerCredentials } from "../../src/local-stack/controller-process.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import {
  bucket,
  controllerAccount,
  type E2E,
  getBucket,
  identity,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const teamAccount = "111111111111";
const teamRole = `arn:aws:iam::${teamAccount}:role/team`;
const token = "pod-identity-token-1";

let e2e: E2E;
let proxy: AwsProxy;
let agent: Server;
let dir: string;
const agentCalls: (string | undefined)[] = [];

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  dir = await mkdtemp(join(tmpdir(), "crossrole-pod-identity-"));
  await writeFile(join(dir, "token"), token);
  // The Pod Identity agent: credentials for the token it was given, an hour from now.
  agent = createServer((req, res) => {
    agentCalls.push(req.headers.authorization);
    if (req.headers.authorization !== token) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"message":"bad token"}');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        AccessKeyId: controllerCredentials.accessKeyId,
        SecretAccessKey: controllerCredentials.secretAccessKey,
        Token: "pod-identity-session-token",
        AccountId: controllerAccount,
        Expiration: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
  });
  await new Promise<void>((resolve) => agent.listen(0, "127.0.0.1", resolve));
  const { port } = agent.address() as AddressInfo;
  await e2e.apply([
    namespace("ack-system"),
    namespace("own"),
    namespace("team"),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: ["own", "team"] } }),
    identity("AWSRoleIdentity", "team", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: teamRole,
      sessionTags: [{ key: "team", value: "payments" }],
      transitiveTagKeys: ["team"],
      allowedNamespaces: { list: ["team"] },
    }),
  ]);
  await e2e.startController([], {
    awsEndpoint: proxy.endpoint,
    env: {
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${port}/v1/credentials`,
      AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: join(dir, "token"),
    },
  });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
  await new Promise<void>((resolve) => (agent ? agent.close(() => resolve()) : resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the controller's own credentials come from the Pod Identity endpoint: its account, and a resource on them", async () => {
  assert.ok(agentCalls.length >= 1, "the agent was asked");
  assert.ok(
    agentCalls.every((a) => a === token),
    "with the token file's content as Authorization",
  );
  await e2e.apply([bucket("own", "data")]);
  await waitForCondition(e2e.kube, "own", "data", "ACK.ResourceSynced", "True");
  const b = await getBucket(e2e.kube, "own", "data");
  assert.equal(b?.status?.ackResourceMetadata?.ownerAccountID, controllerAccount);
  const endpoint = e2e.stack.awsEndpoint ?? "";
  assert.deepEqual(await accountsHolding(endpoint, "own-data", [controllerAccount, teamAccount]), [
    controllerAccount,
  ]);
});

test("a role identity chains from them, with the session tags it asks for", async () => {
  await e2e.apply([bucket("team", "data", { identityRef: { kind: "AWSRoleIdentity", name: "team" } })]);
  await waitForCondition(e2e.kube, "team", "data", "ACK.ResourceSynced", "True");
  const b = await getBucket(e2e.kube, "team", "data");
  assert.equal(b?.status?.ackResourceMetadata?.ownerAccountID, teamAccount);
  const assume = proxy.calls("AssumeRole").find((r) => r.params["RoleArn"] === teamRole);
  assert.ok(assume, "AssumeRole of the team role");
  assert.equal(assume.params["Tags.member.1.Key"], "team");
  assert.equal(assume.params["Tags.member.1.Value"], "payments");
  assert.equal(assume.params["TransitiveTagKeys.member.1"], "team");
  // Signed with the Pod Identity credentials: their session token travels with the call.
  assert.equal(assume.headers["x-amz-security-token"], "pod-identity-session-token");
});
