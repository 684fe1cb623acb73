// `crossrole explain` offline on Alice's story (examples/alice), in-process; the denial also as a
// child process of bin/crossrole.js, as a user's shell sees it (the bin, exit status 3).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { aliceExample, parseJson, runCrossrole } from "../../test/support/run-crossrole.ts";

const explain = (target: string, namespace: string, ...more: string[]) =>
  runCrossrole(["explain", target, "-n", namespace, "--from", aliceExample, ...more]);

describe("explain: Alice's story, offline", { concurrency: true }, () => {
  test("shop-assets lands in Alice's team account through the CARM account map", async () => {
    const run = await explain("bucket/shop-assets", "shop", "-o", "json");
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["outcome"], "use");
    assert.equal(report["source"], "accountCARM");
    assert.equal(report["roleARN"], "arn:aws:iam::111111111111:role/shop-team");
    assert.equal(report["account"], "111111111111");
    assert.equal(report["region"], "eu-west-1");
    assert.equal(report["selector"], null);
    assert.deepEqual(report["resource"], { kind: "Bucket", namespace: "shop", name: "shop-assets" });
  });

  test("shop-billing-exports lands in central IT's account through spec.identityRef", async () => {
    const run = await explain("bucket/shop-billing-exports", "shop", "-o", "json");
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["outcome"], "use");
    assert.equal(report["source"], "identityRef");
    assert.equal(report["roleARN"], "arn:aws:iam::222222222222:role/central-it");
    assert.equal(report["account"], "222222222222");
    assert.equal(report["region"], "eu-west-1");
    const chain = report["chain"] as { kind: string; name: string; roleARN?: string }[];
    assert.deepEqual(
      chain.map((hop) => [hop.kind, hop.name, hop.roleARN ?? null]),
      [
        ["AWSControllerIdentity", "default", null],
        ["AWSRoleIdentity", "central-it", "arn:aws:iam::222222222222:role/central-it"],
      ],
    );
  });

  test("the same identityRef from namespace sandbox is denied with exit 3 (a real process)", async () => {
    const run = await runCrossrole(
      ["explain", "bucket/sandbox-billing-exports", "-n", "sandbox", "--from", aliceExample, "-o", "json"],
      {},
      "process",
    );
    assert.equal(run.code, 3, run.stderr);
    const report = parseJson(run);
    assert.equal(report["outcome"], "deny");
    assert.equal(report["reason"], "IdentityNotPermitted");
    assert.equal(report["roleARN"], null);
    assert.match(String(report["message"]), /central-it/);
    assert.match(String(report["message"]), /sandbox/);
  });

  test("-o json prints one object with every documented field", async () => {
    const run = await explain("bucket/shop-billing-exports", "shop", "-o", "json");
    const report = parseJson(run);
    for (const field of [
      "outcome",
      "source",
      "reason",
      "roleARN",
      "account",
      "region",
      "endpoint",
      "selector",
      "chain",
      "message",
      "trace",
      "drift",
      "resource",
      "problems",
    ]) {
      assert.ok(field in report, `missing field ${field}`);
    }
    assert.equal(report["endpoint"], null);
    assert.equal(report["drift"], null);
    assert.equal(typeof report["message"], "string");
    const chain = report["chain"] as { parameters?: unknown }[];
    assert.ok(chain.every((hop) => typeof hop.parameters === "object" && hop.parameters !== null));
    const trace = report["trace"] as { rule: unknown; result: unknown; detail: unknown }[];
    assert.ok(trace.length > 0);
    for (const step of trace) {
      assert.equal(typeof step.rule, "string");
      assert.ok(["taken", "skipped", "failed", "info"].includes(String(step.result)));
      assert.equal(typeof step.detail, "string");
    }
    // Exactly one JSON document on stdout, nothing on stderr.
    assert.equal(run.stdout.trim().startsWith("{") && run.stdout.trim().endsWith("}"), true);
    assert.equal(run.stderr, "");
  });

  test("text output explains the identityRef choice like a person would", async () => {
    const run = await explain("bucket/shop-billing-exports", "shop");
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      run.stdout.startsWith(
        "Bucket shop/shop-billing-exports will be reconciled in account 222222222222 (eu-west-1) as " +
          "arn:aws:iam::222222222222:role/central-it, because spec.identityRef names AWSRoleIdentity central-it, " +
          "which allows namespace shop.",
      ),
      run.stdout,
    );
    assert.match(
      run.stdout,
      /Chain: controller credentials → assume arn:aws:iam::222222222222:role\/central-it \(AWSRoleIdentity central-it/,
    );
    assert.match(run.stdout, /How this was decided:\n {3}1\. /);
  });

  test("text output explains the CARM choice with the namespace annotation", async () => {
    const run = await explain("bucket/shop-assets", "shop");
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Bucket shop\/shop-assets will be reconciled in account 111111111111 \(eu-west-1\) as arn:aws:iam::111111111111:role\/shop-team, because namespace shop is annotated services\.k8s\.aws\/owner-account-id: "111111111111" and the CARM account map/,
    );
  });

  test("text output of a denial says what is missing and how to fix it", async () => {
    const run = await explain("bucket/sandbox-billing-exports", "sandbox");
    assert.equal(run.code, 3);
    assert.match(run.stdout, /^Bucket sandbox\/sandbox-billing-exports will NOT be reconciled \(deny\): /);
    assert.match(
      run.stdout,
      /an administrator must add sandbox to AWSRoleIdentity central-it's spec\.allowedNamespaces/,
    );
    assert.match(run.stdout, /Nothing is called in AWS for it until this is fixed\./);
    assert.match(run.stdout, /How this was decided:/);
  });

  for (const spelling of [
    "Bucket/shop-assets",
    "bucket/shop-assets",
    "buckets/shop-assets",
    "buckets.s3.services.k8s.aws/shop-assets",
    "bucket.s3.services.k8s.aws/shop-assets",
    "Bucket.s3.services.k8s.aws/shop-assets",
  ]) {
    test(`the kind may be spelled ${spelling.split("/")[0]}`, async () => {
      const run = await explain(spelling, "shop", "-o", "json");
      assert.equal(run.code, 0, run.stderr);
      assert.equal(parseJson(run)["account"], "111111111111");
    });
  }

  test("kind and name may also be given as two arguments, like kubectl get", async () => {
    const run = await runCrossrole([
      "explain",
      "buckets",
      "shop-assets",
      "-n",
      "shop",
      "--from",
      aliceExample,
      "-o",
      "json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(parseJson(run)["account"], "111111111111");
  });
});
