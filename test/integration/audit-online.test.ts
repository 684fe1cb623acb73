// `crossrole audit` online, against a real kube-apiserver: what it reads from the cluster gives
// the same report as the same objects read from manifests (--from). The objects: Alice's story
// plus an IAMRoleSelector, an AWSServiceAccountIdentity and a labelled namespace, so that every
// kind of object the audit reads goes through the apiserver; and the namespaces the apiserver
// creates itself, written out as manifests for the offline side.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { AuditReport } from "../../src/audit/model.ts";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { applyObjects, readManifests } from "../../src/local-stack/manifests.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient } from "../../src/runtime/kube-client.ts";
import {
  aliceExample,
  manifestDir,
  parseJson,
  removeManifestDirs,
  runCrossrole,
} from "../support/run-crossrole.ts";

let stack: Stack;

before(async () => {
  stack = await startStack({ aws: false });
});
after(async () => {
  await stack?.stop();
  await removeManifestDirs();
});

const extras = {
  "60-extras.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: analytics
  labels:
    team: data
---
apiVersion: services.k8s.aws/v1alpha1
kind: IAMRoleSelector
metadata:
  name: data-team
spec:
  arn: arn:aws:iam::333333333333:role/data
  namespaceSelector:
    labelSelector:
      matchLabels:
        team: data
  resourceTypeSelector:
    - apiVersion: s3.services.k8s.aws/v1alpha1
      kind: Bucket
---
apiVersion: identity.crossrole.dev/v1alpha1
kind: AWSServiceAccountIdentity
metadata:
  name: etl
  namespace: analytics
spec:
  roleARN: arn:aws:iam::444444444444:role/etl
  serviceAccountName: etl
`,
};

/** The report without where it came from: all that may differ between the two reads. */
function comparable(report: AuditReport): Omit<AuditReport, "source"> {
  const { source: _source, ...rest } = report;
  return rest;
}

async function auditOnline(...more: string[]): Promise<AuditReport> {
  const run = await runCrossrole([
    "audit",
    "--kubeconfig",
    stack.kubeconfigPath,
    "--controller-account",
    "999999999999",
    "-o",
    "json",
    ...more,
  ]);
  assert.equal(run.code, 0, run.stderr);
  return parseJson(run) as unknown as AuditReport;
}

describe("audit online against kube-apiserver", () => {
  test("before the CRDs are installed, it audits what exists and says which kinds it could not list", async () => {
    const report = await auditOnline();
    assert.equal(report.source.from, "cluster");
    assert.ok(report.namespaces.some((ns) => ns.name === "kube-system"));
    assert.ok(
      report.notes?.some((n) =>
        /The AWSRoleIdentity CRD \(awsroleidentities\.identity\.crossrole\.dev\) is not installed/.test(n),
      ),
      JSON.stringify(report.notes),
    );
  });

  test("with the CRDs, Alice's story and the extras applied, online == offline for the same objects", async () => {
    const kube = createKubeClient(stack.kubeConfig);
    await installCrds(kube);
    const dir = await manifestDir(extras);
    await applyObjects(kube, [...(await readManifests(aliceExample)), ...(await readManifests(dir))]);

    // The namespaces the apiserver made itself (default, kube-system, ...) exist offline too.
    const listed = await kube.request<{ items: { metadata: { name: string } }[] }>({
      method: "GET",
      path: "/api/v1/namespaces",
    });
    const ours = new Set(["ack-system", "shop", "sandbox", "analytics"]);
    const theirs = listed.items.map((ns) => ns.metadata.name).filter((name) => !ours.has(name));
    assert.ok(theirs.includes("default"), theirs.join(", "));
    await writeFile(
      path.join(dir, "70-cluster-namespaces.yaml"),
      theirs.map((name) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`).join("---\n"),
    );

    for (const mode of ["CARM", "IAMRoleSelector"]) {
      const online = await auditOnline("--mode", mode);
      const offlineRun = await runCrossrole([
        "audit",
        "--from",
        aliceExample,
        "--from",
        dir,
        "--controller-account",
        "999999999999",
        "--mode",
        mode,
        "-o",
        "json",
      ]);
      assert.equal(offlineRun.code, 0, offlineRun.stderr);
      const offline = parseJson(offlineRun) as unknown as AuditReport;
      assert.deepEqual(comparable(online), comparable(offline), `${mode} mode`);
      // And the report is about something: the objects read online show up in it.
      assert.ok(online.reaches.some((r) => r.grant === "identity:AWSServiceAccountIdentity/analytics/etl"));
      assert.ok(
        online.reaches.some(
          (r) =>
            r.grant === "identity:AWSRoleIdentity/central-it" &&
            r.resources?.includes("DBInstance shop/shop-db"),
        ),
      );
      if (mode === "IAMRoleSelector") {
        assert.ok(online.reaches.some((r) => r.grant === "IAMRoleSelector:data-team" && r.actual));
      } else {
        assert.ok(
          online.reaches.some((r) => r.grant === "accountMap:ack-role-account-map/111111111111" && r.actual),
        );
      }
    }
  });
});
