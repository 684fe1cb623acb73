// `crossrole explain` offline beyond Alice's story: selector mode, missing CARM entries, the
// controller's own credentials, and how manifests are read. Run as a child process.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  manifestDir,
  parseJson,
  removeManifestDirs,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";

after(removeManifestDirs);

const selector = (name: string, arn: string, namespaces: string) => `apiVersion: services.k8s.aws/v1alpha1
kind: IAMRoleSelector
metadata:
  name: ${name}
  resourceVersion: "7"
spec:
  arn: ${arn}
  namespaceSelector:
    names: [${namespaces}]
`;

const bucket = (
  namespace: string,
  name: string,
  annotations = "",
) => `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: ${name}
  namespace: ${namespace}
${annotations}spec:
  name: ${name}
`;

const selectorMode = [
  "--feature-gates",
  "IAMRoleSelector=true",
  "--enable-carm=false",
  "--aws-region",
  "us-east-1",
];

describe("explain: other modes and inputs, offline", { concurrency: true }, () => {
  test("IAMRoleSelector mode: one matching selector is used and named with its resourceVersion", async () => {
    const dir = await manifestDir({
      "selectors.yaml": selector("team-a-s3", "arn:aws:iam::333333333333:role/team-a", "team-a"),
      "bucket.yaml": bucket("team-a", "data"),
    });
    const run = await runCrossrole([
      "explain",
      "bucket/data",
      "-n",
      "team-a",
      "--from",
      dir,
      ...selectorMode,
      "-o",
      "json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["source"], "iamRoleSelector");
    assert.equal(report["account"], "333333333333");
    assert.deepEqual(report["selector"], { name: "team-a-s3", resourceVersion: "7" });
  });

  test("IAMRoleSelector mode: two matching selectors are a conflict (exit 3) until the resource picks one", async () => {
    const dir = await manifestDir({
      "selectors.yaml": `${selector("b-sel", "arn:aws:iam::444444444444:role/b", "team-a")}---\n${selector(
        "a-sel",
        "arn:aws:iam::333333333333:role/a",
        "team-a",
      )}`,
      "buckets.yaml": `${bucket("team-a", "data")}---\n${bucket(
        "team-a",
        "picked",
        "  annotations:\n    services.k8s.aws/iam-role-selector: b-sel\n",
      )}`,
    });
    const conflict = await runCrossrole([
      "explain",
      "bucket/data",
      "-n",
      "team-a",
      "--from",
      dir,
      ...selectorMode,
    ]);
    assert.equal(conflict.code, 3, conflict.stderr);
    assert.match(conflict.stdout, /will NOT be reconciled \(conflict\): .*\[a-sel, b-sel\]/);
    assert.match(conflict.stdout, /Fix: annotate the resource with services\.k8s\.aws\/iam-role-selector/);

    const picked = await runCrossrole([
      "explain",
      "bucket/picked",
      "-n",
      "team-a",
      "--from",
      dir,
      ...selectorMode,
      "-o",
      "json",
    ]);
    assert.equal(picked.code, 0, picked.stderr);
    assert.equal(parseJson(picked)["account"], "444444444444");
  });

  test("a region the AWS SDK does not know is explained with a warning naming the known pattern; exit 0", async () => {
    const dir = await manifestDir({
      "bucket.yaml": bucket("mars", "rover", "  annotations:\n    services.k8s.aws/region: mars-north-1\n"),
    });
    const args = ["explain", "bucket/rover", "-n", "mars", "--from", dir, "--aws-region", "us-east-1"];
    const text = await runCrossrole(args);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /will be reconciled in .*\(mars-north-1\)/);
    assert.match(
      text.stdout,
      /^Warning: Region mars-north-1 \(the resource's annotation services\.k8s\.aws\/region\) is not known to any AWS partition: known regions follow aws \^\(us\|eu\|ap/m,
    );
    const json = parseJson(await runCrossrole([...args, "-o", "json"]));
    assert.equal(json["region"], "mars-north-1");
    const warnings = json["warnings"] as string[];
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? "", /^Region mars-north-1 .*not known to any AWS partition/);
  });

  test("CARM: an owner account without a map entry waits (exit 3) and names the map and key", async () => {
    const dir = await manifestDir({
      "ns.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: payments
  annotations:
    services.k8s.aws/owner-account-id: "555555555555"
`,
      "bucket.yaml": bucket("payments", "ledger"),
    });
    const run = await runCrossrole(["explain", "bucket/ledger", "-n", "payments", "--from", dir]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /will NOT be reconciled \(wait\): .*ack-role-account-map/);
    assert.match(run.stdout, /555555555555/);
    assert.match(
      run.stdout,
      /create ack-role-account-map key 555555555555 or ack-carm-map key owner-account-id\.555555555555/,
    );
    const json = parseJson(
      await runCrossrole(["explain", "bucket/ledger", "-n", "payments", "--from", dir, "-o", "json"]),
    );
    assert.equal(json["outcome"], "wait");
    assert.equal(json["reason"], "IdentityUnavailable");
  });

  test("ResourceLevelCARM: the resource's own owner-account-id picks an account the namespace allows", async () => {
    const dir = await manifestDir({
      "ns.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  annotations:
    services.k8s.aws/owner-account-id: "111111111111"
    services.k8s.aws/allowed-owner-account-ids: "111111111111,222222222222"
    services.k8s.aws/default-region: eu-west-1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-role-account-map
  namespace: ack-system
data:
  "111111111111": arn:aws:iam::111111111111:role/shop-team
  "222222222222": arn:aws:iam::222222222222:role/billing
`,
      "exports.yaml": `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: orders
  namespace: shop
  annotations:
    services.k8s.aws/owner-account-id: "222222222222"
spec:
  name: shop-orders-exports
`,
    });
    const on = await runCrossrole([
      "explain",
      "bucket/orders",
      "-n",
      "shop",
      "--from",
      dir,
      "--feature-gates",
      "ResourceLevelCARM=true",
    ]);
    assert.equal(on.code, 0, on.stderr);
    assert.match(
      on.stdout,
      /^Bucket shop\/orders will be reconciled in account 222222222222 \(eu-west-1\) as arn:aws:iam::222222222222:role\/billing, because its services\.k8s\.aws\/owner-account-id annotation asks for account 222222222222, which namespace shop allows, and the CARM account map/,
    );
    // With the gate off (ACK's behaviour) the resource's annotation is ignored.
    const off = await runCrossrole(["explain", "buckets/orders", "-n", "shop", "--from", dir]);
    assert.equal(off.code, 0, off.stderr);
    assert.match(
      off.stdout,
      /in account 111111111111 .* because namespace shop is annotated services\.k8s\.aws\/owner-account-id: "111111111111"/,
    );
  });

  test("TeamLevelCARM: the namespace's team maps to a role", async () => {
    const dir = await manifestDir({
      "ns.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: web
  annotations:
    services.k8s.aws/team-id: team-a
    services.k8s.aws/default-region: us-east-2
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-role-team-map
  namespace: ack-system
data:
  team-a: arn:aws:iam::666666666666:role/team-a
`,
      "t.yaml":
        "apiVersion: dynamodb.services.k8s.aws/v1alpha1\nkind: Table\nmetadata:\n  name: jobs\n  namespace: web\nspec: {}\n",
    });
    const run = await runCrossrole([
      "explain",
      "table/jobs",
      "-n",
      "web",
      "--from",
      dir,
      "--feature-gates",
      "TeamLevelCARM=true",
    ]);
    // Table is served: the decision is what the controller will act on.
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Table web\/jobs will be reconciled in account 666666666666 \(us-east-2\) as arn:aws:iam::666666666666:role\/team-a, because namespace web is annotated services\.k8s\.aws\/team-id: "team-a" and the CARM team map/,
    );
    assert.doesNotMatch(run.stdout, /is not reconciled by this crossrole/);
  });

  test("no mapping: the controller's own credentials in the account given by --controller-account", async () => {
    const dir = await manifestDir({ "bucket.yaml": bucket("plain", "logs") });
    const run = await runCrossrole([
      "explain",
      "bucket/logs",
      "-n",
      "plain",
      "--from",
      dir,
      "--controller-account",
      "999999999999",
      "--aws-region",
      "us-west-2",
      "--aws-endpoint-url",
      "http://127.0.0.1:5000",
      "-o",
      "json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["source"], "default");
    assert.equal(report["roleARN"], null);
    assert.equal(report["account"], "999999999999");
    assert.equal(report["region"], "us-west-2");
    assert.equal(report["endpoint"], "http://127.0.0.1:5000");
  });

  test("a namespace missing from the manifests is assumed empty, and the output says so", async () => {
    const dir = await manifestDir({ "bucket.yaml": bucket("plain", "logs") });
    const json = parseJson(
      await runCrossrole(["explain", "bucket/logs", "-n", "plain", "--from", dir, "-o", "json"]),
    );
    const trace = json["trace"] as { rule: string; result: string; detail: string }[];
    assert.ok(
      trace.some(
        (s) =>
          s.result === "info" &&
          /Namespace plain is not in the manifests; assuming it exists without labels or annotations/.test(
            s.detail,
          ),
      ),
      JSON.stringify(trace),
    );
    const text = await runCrossrole([
      "explain",
      "bucket/logs",
      "-n",
      "plain",
      "--from",
      dir,
      "--aws-region",
      "eu-west-1",
    ]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Namespace plain is not in the manifests/);
    assert.match(
      text.stdout,
      /in the controller's own account \(not known: offline without --controller-account\)/,
    );
  });

  test("no region anywhere: waits (exit 3) and says where a region can be set", async () => {
    const dir = await manifestDir({ "bucket.yaml": bucket("plain", "logs") });
    const run = await runCrossrole(["explain", "bucket/logs", "-n", "plain", "--from", dir]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /will NOT be reconciled \(wait\): no region for Bucket plain\/logs/);
    assert.match(
      run.stdout,
      /Fix: give it a region: the services\.k8s\.aws\/region annotation on the resource/,
    );
  });

  test("AWS_REGION is the default region when --aws-region is absent", async () => {
    const dir = await manifestDir({ "bucket.yaml": bucket("plain", "logs") });
    const run = await runCrossrole(["explain", "bucket/logs", "-n", "plain", "--from", dir, "-o", "json"], {
      AWS_REGION: "ap-southeast-2",
    });
    assert.equal(parseJson(run)["region"], "ap-southeast-2");
  });

  test("manifests: several --from, JSON files, kind List, nested dirs, and a resource without a namespace", async () => {
    const configDir = await manifestDir({
      "nested/deeper/ns.json": JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          {
            apiVersion: "v1",
            kind: "Namespace",
            metadata: {
              name: "shop",
              annotations: {
                "services.k8s.aws/owner-account-id": "111111111111",
                "services.k8s.aws/default-region": "eu-west-1",
              },
            },
          },
        ],
      }),
      "carm.yml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-role-account-map
  namespace: ack-system
data:
  "111111111111": arn:aws:iam::111111111111:role/shop-team
`,
      "ignored.txt": "not a manifest",
    });
    const appDir = await manifestDir({
      "app.yaml":
        "apiVersion: s3.services.k8s.aws/v1alpha1\nkind: Bucket\nmetadata:\n  name: loose\nspec:\n  name: loose\n",
    });
    const run = await runCrossrole([
      "explain",
      "bucket/loose",
      "-n",
      "shop",
      "--from",
      configDir,
      "--from",
      `${appDir}/app.yaml`,
      "-o",
      "json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["account"], "111111111111");
    assert.deepEqual(report["resource"], { kind: "Bucket", namespace: "shop", name: "loose" });
    const details = (report["trace"] as { detail: string }[]).map((s) => s.detail).join("\n");
    assert.match(details, /has no metadata\.namespace; explaining it as applied to namespace shop/);
  });

  test("a CARM map outside the system namespace is reported as ignored", async () => {
    const dir = await manifestDir({
      "carm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-role-account-map
  namespace: shop
data:
  "111111111111": arn:aws:iam::111111111111:role/shop-team
`,
      "bucket.yaml": bucket("plain", "logs"),
    });
    const run = await runCrossrole([
      "explain",
      "bucket/logs",
      "-n",
      "plain",
      "--from",
      dir,
      "--aws-region",
      "eu-west-1",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /ConfigMap ack-role-account-map in .*carm\.yaml is in namespace shop and is ignored: CARM maps are read only from ack-system/,
    );
  });
});
