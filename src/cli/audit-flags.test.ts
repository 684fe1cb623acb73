// `crossrole audit` flags, in-process: --mode switching (and the mode the settings flags give),
// --role / --namespace filters and their errors, and bad input.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  aliceExample,
  manifestDir,
  parseJson,
  removeManifestDirs,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";
import type { AuditReport } from "../audit/model.ts";

after(removeManifestDirs);

const shopTeam = "arn:aws:iam::111111111111:role/shop-team";
const centralIt = "arn:aws:iam::222222222222:role/central-it";

/** A cluster configured for both modes: CARM maps `team-a`, a selector maps `team-b`. */
const bothModes = {
  "namespaces.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: team-a
  annotations:
    services.k8s.aws/owner-account-id: "333333333333"
---
apiVersion: v1
kind: Namespace
metadata:
  name: team-b
`,
  "carm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-role-account-map
  namespace: ack-system
data:
  "333333333333": arn:aws:iam::333333333333:role/team-a
`,
  "selector.yaml": `apiVersion: services.k8s.aws/v1alpha1
kind: IAMRoleSelector
metadata:
  name: team-b
spec:
  arn: arn:aws:iam::444444444444:role/team-b
  namespaceSelector:
    names: [team-b]
`,
};

async function json(args: readonly string[]): Promise<AuditReport> {
  const run = await runCrossrole(["audit", ...args, "-o", "json"]);
  assert.equal(run.code, 0, run.stderr);
  return parseJson(run) as unknown as AuditReport;
}

const actualRoles = (report: AuditReport) =>
  report.reaches.filter((r) => r.actual).map((r) => `${r.namespace} ${r.roleARN ?? "controller"}`);

describe("audit: modes", { concurrency: true }, () => {
  test("the mode the settings flags describe, and --mode switching to the other", async () => {
    const dir = await manifestDir(bothModes);
    const carm = await json(["--from", dir]);
    assert.equal(carm.mode, "CARM");
    assert.deepEqual(actualRoles(carm), [
      "team-a arn:aws:iam::333333333333:role/team-a",
      "team-b controller",
    ]);
    assert.deepEqual(
      carm.grants.map((g) => g.id),
      [
        "accountMap:ack-role-account-map/333333333333",
        "controller:default",
        "identity:AWSControllerIdentity/default",
      ],
    );

    const selectors = await json(["--from", dir, "--mode", "IAMRoleSelector"]);
    assert.equal(selectors.mode, "IAMRoleSelector");
    assert.deepEqual(actualRoles(selectors), [
      "team-a controller",
      "team-b arn:aws:iam::444444444444:role/team-b",
    ]);
    assert.deepEqual(
      selectors.grants.map((g) => g.id),
      ["IAMRoleSelector:team-b", "controller:default", "identity:AWSControllerIdentity/default"],
    );

    // The same through the controller's own flags; and --mode back to CARM overrides them.
    const viaFlags = await json([
      "--from",
      dir,
      "--feature-gates",
      "IAMRoleSelector=true",
      "--enable-carm=false",
    ]);
    assert.deepEqual(viaFlags.reaches, selectors.reaches);
    const back = await json(["--from", dir, "--feature-gates", "IAMRoleSelector=true", "--mode", "CARM"]);
    assert.equal(back.mode, "CARM");
    assert.deepEqual(back.reaches, carm.reaches);
  });

  test("--mode with an unknown mode is bad input naming both modes", async () => {
    const run = await runCrossrole(["audit", "--from", aliceExample, "--mode", "carm"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--mode carm is not a mode; use --mode CARM or --mode IAMRoleSelector/);
  });
});

describe("audit: --role and --namespace", { concurrency: true }, () => {
  test("--role narrows every list to that role, and the totals say so", async () => {
    const report = await json(["--from", aliceExample, "--role", centralIt]);
    assert.deepEqual(report.filter, { role: centralIt });
    assert.deepEqual(report.totals, {
      namespaces: 1,
      roles: 1,
      accounts: 1,
      grants: 1,
      reaches: 1,
      // sandbox's Bucket asking for central-it and denied: about this role.
      findings: 1,
    });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ["DeniedResource"],
    );
    assert.deepEqual(
      report.roles.map((r) => r.roleARN),
      [centralIt],
    );
    assert.deepEqual(
      report.namespaces.map((n) => [n.name, n.roles.map((r) => r.roleARN)]),
      [["shop", [centralIt]]],
    );

    const run = await runCrossrole(["audit", "--from", aliceExample, "--role", centralIt]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /\nFilter: --role arn:aws:iam::222222222222:role\/central-it \(the lists and totals below cover only this\)\nTotals: 1 namespace, 1 role in 1 account, 1 grant, 1 reach \(0 actual, 1 potential\), 1 finding\n/,
    );
  });

  test("--role takes an account ID for every role in it", async () => {
    const report = await json(["--from", aliceExample, "--role", "111111111111"]);
    assert.deepEqual(
      report.roles.map((r) => r.roleARN),
      [shopTeam],
    );
  });

  test("--namespace lists every role the namespace reaches, and the findings about its grants", async () => {
    const report = await json(["--from", aliceExample, "--namespace", "sandbox"]);
    assert.deepEqual(report.filter, { namespace: "sandbox" });
    assert.deepEqual(
      report.namespaces.map((n) => n.name),
      ["sandbox"],
    );
    assert.deepEqual(
      report.reaches.map((r) => r.grant),
      ["controller:default", "identity:AWSControllerIdentity/default"],
    );
    assert.deepEqual(
      report.roles.map((r) => [r.roleARN, r.namespaces.map((n) => n.namespace)]),
      [[null, ["sandbox"]]],
    );
    assert.deepEqual(
      report.findings.map((f) => f.code),
      // The second: sandbox's own Bucket, denied the identity it names.
      ["IdentityAdmitsEveryNamespace", "DeniedResource"],
    );
    const both = await json(["--from", aliceExample, "-n", "shop", "--role", shopTeam]);
    assert.deepEqual(
      both.reaches.map((r) => [r.namespace, r.roleARN]),
      [["shop", shopTeam]],
    );
  });

  test("an unknown --role or --namespace is bad input naming the flag and listing what exists", async () => {
    const role = await runCrossrole([
      "audit",
      "--from",
      aliceExample,
      "--role",
      "arn:aws:iam::111111111111:role/nope",
    ]);
    assert.equal(role.code, 2);
    assert.equal(role.stdout, "");
    assert.match(
      role.stderr,
      /^error: crossrole audit: --role arn:aws:iam::111111111111:role\/nope: no grant leads to this role in .*examples\/alice\. Roles: arn:aws:iam::111111111111:role\/shop-team, arn:aws:iam::222222222222:role\/central-it\.\n$/,
    );
    const ns = await runCrossrole(["audit", "--from", aliceExample, "-n", "shoop"]);
    assert.equal(ns.code, 2);
    assert.match(
      ns.stderr,
      /--namespace shoop: no such namespace in .*\. Namespaces: ack-system, sandbox, shop\.\n$/,
    );
  });

  test("the list of what exists is bounded", async () => {
    const namespaces = Array.from(
      { length: 25 },
      (_, i) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-${String(i).padStart(2, "0")}\n`,
    ).join("---\n");
    const dir = await manifestDir({ "ns.yaml": namespaces });
    const run = await runCrossrole(["audit", "--from", dir, "-n", "nope"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Namespaces: ns-00, ns-01, .*, ns-19 and 5 more\.\n$/);
  });
});

describe("audit: bad input", { concurrency: true }, () => {
  for (const [args, message] of [
    [["-o", "yaml"], /-o yaml is not an output format; use -o text, -o json or -o html/],
    [["bucket/x"], /takes no arguments, got "bucket\/x"/],
    [["--kubeconfig", "/nope"], /--kubeconfig reads a cluster and cannot be combined with --from/],
    [["--feature-gates", "Nope=true"], /unknown feature gate "Nope"/],
  ] as const) {
    test(`${args.join(" ")} → exit 2`, async () => {
      const run = await runCrossrole(["audit", "--from", aliceExample, ...args]);
      assert.equal(run.code, 2, run.stdout);
      assert.match(run.stderr, message);
    });
  }

  test("--help prints the usage with every flag", async () => {
    const run = await runCrossrole(["audit", "--help"]);
    assert.equal(run.code, 0);
    for (const flag of ["--role", "--namespace", "--mode", "--output", "--from", "--controller-account"]) {
      assert.ok(run.stdout.includes(flag), flag);
    }
  });
});
