// Bad input to `crossrole` exits 2 with one message that names the problem and the fix,
// never a stack trace. Run as a child process, offline.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  aliceExample,
  type CliRun,
  manifestDir,
  removeManifestDirs,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";

after(removeManifestDirs);

function assertBadInput(run: CliRun, ...expected: RegExp[]): void {
  assert.equal(run.code, 2, `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
  assert.equal(run.stdout, "");
  for (const pattern of expected) assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace for a user error");
}

const alice = ["--from", aliceExample];

describe("crossrole: bad input exits 2", { concurrency: true }, () => {
  test("no command prints the usage", async () => {
    assertBadInput(await runCrossrole([]), /Usage: crossrole <command>/, /explain/);
  });

  test("an unknown command lists the commands", async () => {
    assertBadInput(await runCrossrole(["explian"]), /unknown command "explian"/, /Commands: explain/);
  });

  test("an unknown flag lists the accepted flags", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", "--namespce", "shop", ...alice]),
      /Unknown option '--namespce'/,
      /Accepted flags: .*-n\|--namespace <namespace>/,
    );
  });

  test("a flag without its value says so", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", ...alice, "-n"]),
      /-n, --namespace <value>' argument missing/,
    );
  });

  test("an unknown kind lists the known kinds", async () => {
    assertBadInput(
      await runCrossrole(["explain", "widget/shop-assets", "-n", "shop", ...alice]),
      /unknown resource kind "widget"/,
      /Bucket \(buckets\.s3\.services\.k8s\.aws\)/,
    );
  });

  test("a kind from another group is unknown", async () => {
    assertBadInput(
      await runCrossrole(["explain", "buckets.example.com/shop-assets", "-n", "shop", ...alice]),
      /unknown resource kind "buckets\.example\.com"/,
    );
  });

  test("a missing resource argument says what is expected", async () => {
    assertBadInput(
      await runCrossrole(["explain", "-n", "shop", ...alice]),
      /expected one resource as <kind>\/<name>/,
    );
  });

  test("an invalid name is refused before looking", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/Shop_Assets", "-n", "shop", ...alice]),
      /"Shop_Assets" is not a valid Bucket name/,
    );
  });

  test("a resource missing from the manifests lists the ones found", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/nope", "-n", "shop", ...alice]),
      /Bucket shop\/nope not found in /,
      /shop\/shop-assets/,
    );
  });

  test("a resource in another namespace is not found", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", "-n", "sandbox", ...alice]),
      /Bucket sandbox\/shop-assets not found/,
    );
  });

  test("an unknown feature gate names the gate and the known ones", async () => {
    assertBadInput(
      await runCrossrole([
        "explain",
        "bucket/shop-assets",
        "-n",
        "shop",
        ...alice,
        "--feature-gates",
        "TeamCARM=true",
      ]),
      /--feature-gates: unknown feature gate "TeamCARM"/,
      /TeamLevelCARM/,
    );
  });

  test("IAMRoleSelector mode with CARM still on names both flags", async () => {
    assertBadInput(
      await runCrossrole([
        "explain",
        "bucket/shop-assets",
        "-n",
        "shop",
        ...alice,
        "--feature-gates",
        "IAMRoleSelector=true",
      ]),
      /IAMRoleSelector=true cannot be combined with --enable-carm=true/,
    );
  });

  test("a boolean flag with a non-boolean value", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", "-n", "shop", ...alice, "--enable-carm=maybe"]),
      /--enable-carm takes true or false/,
    );
  });

  test("a malformed controller account", async () => {
    assertBadInput(
      await runCrossrole([
        "explain",
        "bucket/shop-assets",
        "-n",
        "shop",
        ...alice,
        "--controller-account",
        "1234",
      ]),
      /--controller-account: "1234" is not a 12-digit AWS account ID/,
    );
  });

  test("an unknown drift policy", async () => {
    assertBadInput(
      await runCrossrole([
        "explain",
        "bucket/shop-assets",
        "-n",
        "shop",
        ...alice,
        "--account-drift-policy",
        "ignore",
      ]),
      /--account-drift-policy: "ignore" is not one of block, recreate/,
    );
  });

  test("an unknown output format", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", "-n", "shop", ...alice, "-o", "yaml"]),
      /-o yaml is not an output format/,
    );
  });

  test("a --from path that does not exist", async () => {
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", "-n", "shop", "--from", "no/such/dir"]),
      /--from no\/such\/dir: cannot read it \(no such file or directory\)/,
    );
  });

  test("invalid YAML names the file, document and line", async () => {
    const dir = await manifestDir({
      "broken.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\nkind: [unclosed\n",
    });
    assertBadInput(
      await runCrossrole(["explain", "bucket/shop-assets", "-n", "shop", "--from", dir]),
      /broken\.yaml \(document 2\): invalid YAML at line \d+/,
    );
  });

  test("invalid JSON names the file", async () => {
    const dir = await manifestDir({ "bad.json": "{ not json" });
    assertBadInput(
      await runCrossrole(["explain", "bucket/x", "-n", "shop", "--from", dir]),
      /bad\.json: invalid JSON/,
    );
  });

  test("a manifest without metadata.name names the file and the field", async () => {
    const dir = await manifestDir({ "ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {}\n" });
    assertBadInput(
      await runCrossrole(["explain", "bucket/x", "-n", "shop", "--from", dir]),
      /ns\.yaml: Namespace has no metadata\.name/,
    );
  });

  test("the same object twice names both places", async () => {
    const ns = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n";
    const dir = await manifestDir({ "a.yaml": ns, "b.yaml": ns });
    assertBadInput(
      await runCrossrole(["explain", "bucket/x", "-n", "shop", "--from", dir]),
      /Namespace shop is defined twice: in .*a\.yaml and in .*b\.yaml/,
    );
  });

  test("--kubeconfig cannot be combined with --from", async () => {
    assertBadInput(
      await runCrossrole([
        "explain",
        "bucket/shop-assets",
        "-n",
        "shop",
        ...alice,
        "--kubeconfig",
        "/dev/null",
      ]),
      /--kubeconfig reads a cluster and cannot be combined with --from/,
    );
  });

  test("online without any kubeconfig says how to point at a cluster or go offline", async () => {
    assertBadInput(
      await runCrossrole([
        "explain",
        "bucket/shop-assets",
        "-n",
        "shop",
        "--controller-account",
        "123456789012",
      ]),
      /No kubeconfig found: pass --kubeconfig <file>, set KUBECONFIG, .* or work offline from manifests with --from/,
    );
  });

  test("--help prints the command's usage and exits 0", async () => {
    const run = await runCrossrole(["explain", "--help"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Usage: crossrole explain <kind>\/<name>/);
    assert.match(run.stdout, /--feature-gates <Name=bool,...>/);
    assert.match(
      run.stdout,
      /--system-namespace <namespace>\s+Namespace of the controller and its CARM ConfigMaps\. \(default ack-system\)/,
    );
  });

  test("crossrole --help lists the commands and exits 0", async () => {
    const run = await runCrossrole(["--help"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Commands:\n\s+explain\s+Explain which AWS identity/);
  });
});
