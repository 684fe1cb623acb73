// Issue 4, against a real kube-apiserver and the AWS emulator: a service-account identity
// gets a token through the TokenRequest API (checked by the API server's own TokenReview)
// and exchanges it with AssumeRoleWithWebIdentity; a new token is requested before the old
// one expires; a missing ServiceAccount is an error naming it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Registry } from "prom-client";
import { InvalidParameterError } from "../../src/credentials/errors.ts";
import { createCredentialService } from "../../src/credentials/service.ts";
import { kubeTokenRequester, type TokenRequester } from "../../src/credentials/token-requester.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import { FakeClock } from "../../src/toolkit/fake-clock.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { roleHop, serviceAccountHop, useDecision } from "../support/credential-decisions.ts";
import { captureLog, issued, useControllerEnvironment, whoAmI } from "../support/credentials-fixture.ts";

const webRole = "arn:aws:iam::444444444444:role/shop-deployer";
const minute = 60_000;
let stack: Stack;
let proxy: AwsProxy;
let kube: KubeClient;
const clock = new FakeClock(Date.now());
before(async () => {
  useControllerEnvironment();
  stack = await startStack();
  proxy = await startAwsProxy(stack.awsEndpoint!, { expirationShiftMs: () => clock.now() - Date.now() });
  kube = createKubeClient(stack.kubeConfig);
  await kube.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: "shop" } },
  });
  await kube.request({
    method: "POST",
    path: "/api/v1/namespaces/shop/serviceaccounts",
    body: { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "app" } },
  });
});
after(async () => {
  await proxy?.close();
  await stack?.stop();
});

function jwtPayload(token: string): { sub: string; aud: string[]; iss: string; exp: number } {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
    sub: string;
    aud: string[];
    iss: string;
    exp: number;
  };
}

/** The real TokenRequester, with a count of the tokens it obtained. */
function countingTokens(inner: TokenRequester) {
  const requested: string[] = [];
  const tokens: TokenRequester = {
    async requestToken(r) {
      const t = await inner.requestToken(r);
      requested.push(t.token);
      return t;
    },
  };
  return { tokens, requested };
}

describe("service-account identity", () => {
  test("a TokenRequest token is exchanged with AssumeRoleWithWebIdentity; a new token comes before the old expires", async () => {
    const log = captureLog();
    const { tokens, requested } = countingTokens(kubeTokenRequester(kube));
    const service = createCredentialService({
      logger: log.logger,
      registry: new Registry(),
      systemNamespace: "crossrole-system",
      tokens,
      clock,
      cache: { idleMs: 24 * 60 * minute },
      stsRateLimit: { ratePerSecond: 1000, burst: 1000 },
    });
    try {
      const decision = useDecision(
        [
          serviceAccountHop("shop", "deployer", webRole, {
            serviceAccountName: "app",
            audiences: ["sts.amazonaws.com"],
            expirationSeconds: 3600,
            sessionName: "shop-deployer",
          }),
        ],
        { endpoint: proxy.endpoint },
      );
      const creds = await service.credentialsFor(decision);
      const who = await whoAmI(stack.awsEndpoint!, creds);
      assert.equal(who.Account, "444444444444");
      assert.equal(who.Arn, "arn:aws:sts::444444444444:assumed-role/shop-deployer/shop-deployer");

      const calls = proxy.calls("AssumeRoleWithWebIdentity");
      assert.equal(calls.length, 1);
      const sent = calls[0]!.params;
      assert.equal(sent["RoleArn"], webRole);
      assert.equal(sent["RoleSessionName"], "shop-deployer");
      assert.equal(calls[0]!.accessKeyId, undefined, "AssumeRoleWithWebIdentity is unsigned");
      const token = sent["WebIdentityToken"] ?? "";
      assert.equal(token, requested[0]);
      const claims = jwtPayload(token);
      assert.equal(claims.sub, "system:serviceaccount:shop:app");
      assert.deepEqual(claims.aud, ["sts.amazonaws.com"]);
      assert.equal(claims.iss, stack.controlPlane.serviceAccountIssuer);
      // The API server itself vouches for the token it minted.
      const review = await kube.request<{ status?: { authenticated?: boolean } }>({
        method: "POST",
        path: "/apis/authentication.k8s.io/v1/tokenreviews",
        body: {
          apiVersion: "authentication.k8s.io/v1",
          kind: "TokenReview",
          spec: { token, audiences: ["sts.amazonaws.com"] },
        },
      });
      assert.equal(review.status?.authenticated, true);
      assert.deepEqual(
        issued(log).map((l) => [l["identity"], l["operation"], l["account"]]),
        [["AWSServiceAccountIdentity/shop/deployer", "AssumeRoleWithWebIdentity", "444444444444"]],
      );

      // Near the session's expiry it refreshes; the token is past 80 % of its life, so a new one
      // is requested first (the old one is still valid: new before old expires).
      clock.advance(56 * minute);
      const refreshed = await service.credentialsFor(decision);
      assert.notEqual(refreshed.accessKeyId, creds.accessKeyId);
      assert.equal(requested.length, 2);
      const second = proxy.calls("AssumeRoleWithWebIdentity")[1]!.params["WebIdentityToken"] ?? "";
      assert.equal(second, requested[1]);
      assert.notEqual(second, token);
      assert.ok(jwtPayload(token).exp * 1000 > Date.now(), "the old token had not expired yet");
    } finally {
      service.close();
    }
  });

  test("a service-account session chains into a role, capped at one hour", async () => {
    proxy.clearRecording();
    const service = createCredentialService({
      logger: captureLog().logger,
      registry: new Registry(),
      systemNamespace: "crossrole-system",
      tokens: kubeTokenRequester(kube),
    });
    try {
      const decision = useDecision(
        [
          serviceAccountHop("shop", "deployer", webRole, { serviceAccountName: "app" }),
          roleHop("target", "arn:aws:iam::555555555555:role/target", { durationSeconds: 10_000 }),
        ],
        { endpoint: proxy.endpoint },
      );
      const creds = await service.credentialsFor(decision);
      assert.equal((await whoAmI(stack.awsEndpoint!, creds)).Account, "555555555555");
      const assume = proxy.calls("AssumeRole");
      assert.equal(assume.length, 1);
      assert.equal(assume[0]!.params["DurationSeconds"], "3600");
      assert.equal(
        proxy.calls("AssumeRoleWithWebIdentity")[0]!.params["RoleSessionName"],
        "crossrole-deployer",
      );
    } finally {
      service.close();
    }
  });

  test("a missing ServiceAccount is an InvalidParameterError naming it", async () => {
    const service = createCredentialService({
      logger: captureLog().logger,
      registry: new Registry(),
      systemNamespace: "crossrole-system",
      tokens: kubeTokenRequester(kube),
    });
    try {
      const decision = useDecision(
        [serviceAccountHop("shop", "ghost", webRole, { serviceAccountName: "nobody" })],
        { endpoint: proxy.endpoint },
      );
      await assert.rejects(service.credentialsFor(decision), (err: unknown) => {
        assert.ok(err instanceof InvalidParameterError);
        assert.match(err.message, /ServiceAccount shop\/nobody does not exist/);
        assert.match(err.fix, /serviceAccountName on AWSServiceAccountIdentity\/shop\/ghost/);
        return true;
      });
    } finally {
      service.close();
    }
  });
});
