// `crossrole explain` online: against a real kube-apiserver holding the CRDs and Alice's
// example, with the controller's account from sts:GetCallerIdentity on the AWS emulator.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  KubernetesObjectApi,
  type V1CustomResourceDefinition,
} from "@kubernetes/client-node";
import { parseAllDocuments } from "yaml";
import { aliceExample, type CliRun, parseJson, repoRoot, runCrossrole } from "../../src/cli/testSupport.ts";
import { type Stack, startStack, waitFor } from "../harness/index.ts";

let stack: Stack;

async function readObjects(dir: string): Promise<KubernetesObject[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  const objects: KubernetesObject[] = [];
  for (const file of files) {
    const documents = parseAllDocuments(await readFile(path.join(dir, file), "utf8"));
    if (!Array.isArray(documents)) continue; // an empty file
    for (const document of documents) {
      const object: unknown = document.toJS();
      if (object !== null) objects.push(object as KubernetesObject);
    }
  }
  return objects;
}

async function installCrds(): Promise<void> {
  const extensions = stack.kubeConfig.makeApiClient(ApiextensionsV1Api);
  const custom = stack.kubeConfig.makeApiClient(CustomObjectsApi);
  const crds = (await readObjects(path.join(repoRoot, "config", "crd"))) as V1CustomResourceDefinition[];
  for (const crd of crds) await extensions.createCustomResourceDefinition({ body: crd });
  for (const crd of crds) {
    const name = crd.metadata?.name ?? "";
    await waitFor(
      async () => {
        const current = await extensions.readCustomResourceDefinition({ name });
        return (
          current.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") ||
          undefined
        );
      },
      { what: `CRD ${name} Established`, timeoutMs: 30_000 },
    );
    // Established is not yet servable: the storage may still be initialising (429).
    const { group, names, versions } = crd.spec;
    const version = versions[0]?.name ?? "";
    await waitFor(
      () => custom.listClusterCustomObject({ group, version, plural: names.plural }).then(() => true),
      {
        what: `${names.plural}.${group} listable`,
        timeoutMs: 30_000,
      },
    );
  }
}

async function applyAlice(): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(stack.kubeConfig);
  // The files are numbered so that namespaces come before what lives in them.
  for (const object of await readObjects(aliceExample)) await client.create(object);
}

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
    await installCrds();
    await applyAlice();

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
      await KubernetesObjectApi.makeApiClient(stack.kubeConfig).create({
        apiVersion: "s3.services.k8s.aws/v1alpha1",
        kind: "Bucket",
        metadata: { name: "sandbox-scratch", namespace: "sandbox" },
        spec: { name: "sandbox-scratch" },
      } as KubernetesObject);
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
