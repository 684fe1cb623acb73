// `crossrole explain` online: against a real kube-apiserver holding the CRDs and Alice's
// example, with the controller's account from sts:GetCallerIdentity on the AWS emulator.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { applyObjects, readManifests } from "../../src/local-stack/manifests.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient } from "../../src/runtime/kube-client.ts";
import { aliceExample, type CliRun, parseJson, runCrossrole } from "../support/run-crossrole.ts";

let stack: Stack;

const awsEnv = {
  AWS_ACCESS_KEY_ID: "test",
  AWS_SECRET_ACCESS_KEY: "test",
  AWS_REGION: "us-east-1",
};

function explainOnline(target: string, namespace: string, ...more: string[]): Promise<CliRun> {
  return runCrossrole(
    [
      "explain",
      target,
      "-n",
      namespace,
      "--kubeconfig",
      stack.kubeconfigPath,
      "--aws-endpoint-url",
      stack.awsEndpoint ?? "",
      ...more,
    ],
    awsEnv,
    // A real process: the AWS SDK reads its credentials from the process environment.
    "process",
  );
}

function traceText(report: Record<string, unknown>): string {
  return (report["trace"] as { detail: string }[]).map((step) => step.detail).join("\n");
}

before(async () => {
  stack = await startStack();
});
after(() => stack?.stop());

describe("explain online against kube-apiserver and the AWS emulator", () => {
  test("before the CRDs are installed, the resource kind is reported as not served (exit 2)", async () => {
    const run = await explainOnline("bucket/shop-assets", "shop");
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /does not serve buckets\.s3\.services\.k8s\.aws: the Bucket CRD is not installed/,
    );
  });

  test("with the CRDs and Alice's example applied", async (t) => {
    const kube = createKubeClient(stack.kubeConfig);
    await installCrds(kube);
    await applyObjects(kube, await readManifests(aliceExample));

    await t.test("shop-assets: account 111111111111 through the CARM account map", async () => {
      const run = await explainOnline("bucket/shop-assets", "shop", "-o", "json");
      assert.equal(run.code, 0, run.stderr);
      const report = parseJson(run);
      assert.equal(report["outcome"], "use");
      assert.equal(report["source"], "accountCARM");
      assert.equal(report["roleARN"], "arn:aws:iam::111111111111:role/shop-team");
      assert.equal(report["account"], "111111111111");
      assert.equal(report["region"], "eu-west-1");
      assert.equal(report["endpoint"], stack.awsEndpoint);
    });

    await t.test("shop-billing-exports: account 222222222222 through spec.identityRef, in text", async () => {
      const run = await explainOnline("buckets.s3.services.k8s.aws/shop-billing-exports", "shop");
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /^Bucket shop\/shop-billing-exports will be reconciled in account 222222222222 \(eu-west-1, endpoint http:\/\/127\.0\.0\.1:\d+\) as arn:aws:iam::222222222222:role\/central-it, because spec\.identityRef names AWSRoleIdentity central-it, which allows namespace shop\./,
      );
    });

    await t.test(
      "sandbox-billing-exports: the same identityRef from sandbox is denied (exit 3)",
      async () => {
        const run = await explainOnline("bucket/sandbox-billing-exports", "sandbox", "-o", "json");
        assert.equal(run.code, 3, run.stderr);
        const report = parseJson(run);
        assert.equal(report["outcome"], "deny");
        assert.equal(report["reason"], "IdentityNotPermitted");
      },
    );

    await t.test("the controller's account comes from sts:GetCallerIdentity on the emulator", async () => {
      const run = await explainOnline("bucket/shop-assets", "shop", "-o", "json");
      // moto answers GetCallerIdentity for unknown keys with its default account.
      assert.match(
        traceText(parseJson(run)),
        /The controller's own account is 123456789012 \(sts:GetCallerIdentity: /,
      );
    });

    await t.test("no mapping: the controller's own credentials, in the account STS reported", async () => {
      await kube.request({
        method: "POST",
        path: "/apis/s3.services.k8s.aws/v1alpha1/namespaces/sandbox/buckets",
        body: {
          apiVersion: "s3.services.k8s.aws/v1alpha1",
          kind: "Bucket",
          metadata: { name: "sandbox-scratch", namespace: "sandbox" },
          spec: { name: "sandbox-scratch" },
        },
      });
      const run = await explainOnline(
        "bucket/sandbox-scratch",
        "sandbox",
        "--aws-region",
        "us-east-1",
        "-o",
        "json",
      );
      assert.equal(run.code, 0, run.stderr);
      const report = parseJson(run);
      assert.equal(report["source"], "default");
      assert.equal(report["roleARN"], null);
      assert.equal(report["account"], "123456789012");
    });

    await t.test("an unreachable STS leaves the account unknown and says so, without failing", async () => {
      const run = await runCrossrole(
        [
          "explain",
          "bucket/shop-assets",
          "-n",
          "shop",
          "--kubeconfig",
          stack.kubeconfigPath,
          "--aws-endpoint-url",
          "http://127.0.0.1:9",
          "-o",
          "json",
        ],
        awsEnv,
        "process",
      );
      assert.equal(run.code, 0, run.stderr);
      const report = parseJson(run);
      assert.equal(report["account"], "111111111111");
      assert.match(
        traceText(report),
        /The controller's own account is unknown \(sts:GetCallerIdentity failed: /,
      );
    });

    await t.test("--controller-account skips STS", async () => {
      const run = await explainOnline(
        "bucket/shop-assets",
        "shop",
        "--controller-account",
        "999999999999",
        "-o",
        "json",
      );
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(traceText(parseJson(run)), /sts:GetCallerIdentity/);
    });

    await t.test("a resource that does not exist is bad input (exit 2)", async () => {
      const run = await explainOnline("bucket/nope", "shop");
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        /Bucket shop\/nope not found in the cluster at https:\/\/127\.0\.0\.1:\d+\. Check the name and -n\./,
      );
    });
  });
});
