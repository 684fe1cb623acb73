// `crossrole migrate` offline, in-process through runCli (what the bin calls): the YAML it
// prints, the proof on stderr, the exit status, -o json, and the user's mistakes.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { parseAllDocuments } from "yaml";
import {
  aliceExample,
  manifestDir,
  parseJson,
  removeManifestDirs,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";
import { iamRoleSelectorSchema } from "../api/iam-role-selector.ts";
import { resourceKinds } from "../api/kinds.ts";

after(removeManifestDirs);

const gates = ["--feature-gates", "TeamLevelCARM=true,ServiceLevelCARM=true", "--aws-region", "eu-west-1"];

const namespaces = `apiVersion: v1
kind: Namespace
metadata:
  name: payments
  annotations:
    services.k8s.aws/team-id: payments
---
apiVersion: v1
kind: Namespace
metadata:
  name: shop
  annotations:
    services.k8s.aws/team-id: shop
`;

/** ack-carm-map with a per-team endpoint (payments), an external ID and a service-level key (shop). */
const carmMap = (withEndpoint: boolean) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-carm-map
  namespace: ack-system
data:
  team-id.payments: arn:aws:iam::666666666666:role/payments
  team-id.payments.external-id: payments-ext-1
${withEndpoint ? "  team-id.payments.endpoint: https://payments.example.com\n" : ""}  team-id.shop: arn:aws:iam::111111111111:role/shop
  team-id.s3.shop: arn:aws:iam::111111111111:role/shop-s3
`;

const resources = `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: ledger
  namespace: payments
spec:
  name: ledger
---
apiVersion: sqs.services.k8s.aws/v1alpha1
kind: Queue
metadata:
  name: orders
  namespace: shop
spec:
  queueName: orders
---
apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: assets
  namespace: shop
spec:
  name: assets
`;

/** Parses the YAML on stdout into objects, failing on any YAML error. */
function documents(yaml: string): Record<string, unknown>[] {
  return parseAllDocuments(yaml).map((doc) => {
    assert.deepEqual(doc.errors, []);
    return doc.toJS() as Record<string, unknown>;
  });
}

describe("crossrole migrate, offline", { concurrency: true }, () => {
  test("Alice's story: one selector for the account map, nothing changes, exit 0", async () => {
    const run = await runCrossrole(["migrate", "--from", aliceExample]);
    assert.equal(run.code, 0, run.stderr);
    const docs = documents(run.stdout);
    assert.deepEqual(
      docs.map((d) => (d["metadata"] as { name: string }).name),
      ["carm-account-111111111111"],
    );
    assert.deepEqual(docs[0]?.["spec"], {
      arn: "arn:aws:iam::111111111111:role/shop-team",
      namespaceSelector: { names: ["shop"] },
    });
    assert.match(run.stderr, /^10 resources decided in both modes, none would change\.$/m);
    assert.match(run.stderr, /Next: apply the selectors/);
  });

  test("the YAML parses and every document is a valid IAMRoleSelector; the output is deterministic", async () => {
    const dir = await manifestDir({
      "ns.yaml": namespaces,
      "carm.yaml": carmMap(false),
      "r.yaml": resources,
    });
    const first = await runCrossrole(["migrate", "--from", dir, ...gates]);
    const second = await runCrossrole(["migrate", "--from", dir, ...gates]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(second.stdout, first.stdout);
    assert.equal(second.stderr, first.stderr);
    const docs = documents(first.stdout);
    assert.deepEqual(
      docs.map((d) => (d["metadata"] as { name: string }).name),
      ["carm-team-payments", "carm-team-s3-shop", "carm-team-shop"],
    );
    for (const doc of docs) {
      const parsed = iamRoleSelectorSchema.safeParse(doc);
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    }
    assert.equal((docs[0]?.["spec"] as { externalID?: string } | undefined)?.externalID, "payments-ext-1");
    assert.match(
      first.stdout,
      /^# Replaces ConfigMap ack-system\/ack-carm-map key team-id\.s3\.shop for namespace shop \(Bucket\)\.$/m,
    );
    assert.match(first.stderr, /^3 resources decided in both modes, none would change\.$/m);
  });

  test("applying the output and running again: the same selectors, still nothing changes", async () => {
    const dir = await manifestDir({
      "ns.yaml": namespaces,
      "carm.yaml": carmMap(false),
      "r.yaml": resources,
    });
    const first = await runCrossrole(["migrate", "--from", dir, ...gates]);
    const applied = await manifestDir({ "selectors.yaml": first.stdout });
    const again = await runCrossrole(["migrate", "--from", dir, "--from", applied, ...gates]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, first.stdout);
  });

  test("a per-team endpoint is listed with why and fix, exit 3; --allow-changes exits 0 and still lists it", async () => {
    const dir = await manifestDir({ "ns.yaml": namespaces, "carm.yaml": carmMap(true), "r.yaml": resources });
    const run = await runCrossrole(["migrate", "--from", dir, ...gates]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /^3 resources decided in both modes, 1 would change:$/m);
    assert.match(
      run.stderr,
      /^ {2}Bucket payments\/ledger: endpoint https:\/\/payments\.example\.com → \(the AWS SDK's regional endpoint\)$/m,
    );
    assert.match(run.stderr, /^ {4}why: .*ack-carm-map; an IAMRoleSelector has no endpoint/m);
    assert.match(
      run.stderr,
      /^ {4}fix: annotate namespace payments with services\.k8s\.aws\/endpoint-url: https:\/\/payments\.example\.com/m,
    );
    assert.match(run.stderr, /Not safe to switch yet: 1 would change \(exit 3\)/);
    assert.equal(documents(run.stdout).length, 3, "the selectors are printed all the same");

    const allowed = await runCrossrole(["migrate", "--from", dir, ...gates, "--allow-changes"]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, /Bucket payments\/ledger: endpoint/);
    assert.match(allowed.stderr, /--allow-changes: accepting 1 change/);
  });

  test("-o json: {selectors, changes, decided} with both modes' decisions", async () => {
    const dir = await manifestDir({ "ns.yaml": namespaces, "carm.yaml": carmMap(true), "r.yaml": resources });
    const run = await runCrossrole(["migrate", "--from", dir, ...gates, "-o", "json"]);
    assert.equal(run.code, 3, run.stderr);
    const report = parseJson(run);
    const selectors = report["selectors"] as { metadata: { name: string } }[];
    assert.equal(selectors.length, 3);
    const changes = report["changes"] as {
      kind: string;
      name: string;
      fields: string[];
      why: string;
      fix: string;
    }[];
    assert.deepEqual(
      changes.map((c) => [c.kind, c.name, c.fields]),
      [["Bucket", "ledger", ["endpoint"]]],
    );
    const decided = report["decided"] as {
      kind: string;
      namespace: string;
      name: string;
      carm: { roleARN: string };
      iamRoleSelector: { roleARN: string; selector: string };
    }[];
    assert.deepEqual(
      decided.map((d) => [d.namespace, d.kind, d.name, d.iamRoleSelector.selector]),
      [
        ["payments", "Bucket", "ledger", "carm-team-payments"],
        ["shop", "Bucket", "assets", "carm-team-s3-shop"],
        ["shop", "Queue", "orders", "carm-team-shop"],
      ],
    );
    for (const d of decided) assert.equal(d.iamRoleSelector.roleARN, d.carm.roleARN);
    assert.equal(report["proofOver"], "resources");
  });

  test("no resources: every namespace × kind is decided instead", async () => {
    const dir = await manifestDir({ "ns.yaml": namespaces, "carm.yaml": carmMap(false) });
    const run = await runCrossrole(["migrate", "--from", dir, ...gates, "-o", "json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["proofOver"], "namespaceKinds");
    assert.equal((report["decided"] as unknown[]).length, 2 * resourceKinds.length);
    assert.match(
      run.stderr,
      new RegExp(
        `^${2 * resourceKinds.length} namespace × kind combinations \\(no resources exist yet\\) decided in both modes, none would change\\.$`,
        "m",
      ),
    );
  });

  test("already in IAMRoleSelector mode: nothing to migrate (exit 2)", async () => {
    const run = await runCrossrole([
      "migrate",
      "--from",
      aliceExample,
      "--feature-gates",
      "IAMRoleSelector=true",
      "--enable-carm=false",
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /already runs in IAMRoleSelector mode .* nothing to migrate/);
    assert.equal(run.stdout, "");
  });

  test("bad input: an output format, an argument, --kubeconfig with --from (exit 2)", async () => {
    const format = await runCrossrole(["migrate", "--from", aliceExample, "-o", "table"]);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /-o table is not an output format; use -o yaml or -o json/);
    const arg = await runCrossrole(["migrate", "bucket/x", "--from", aliceExample]);
    assert.equal(arg.code, 2);
    assert.match(arg.stderr, /takes no arguments/);
    const mixed = await runCrossrole(["migrate", "--from", aliceExample, "--kubeconfig", "/nonexistent"]);
    assert.equal(mixed.code, 2);
    assert.match(mixed.stderr, /--kubeconfig reads a cluster and cannot be combined with --from/);
  });

  test("listed in crossrole --help, with its own --help", async () => {
    const top = await runCrossrole(["--help"]);
    assert.match(top.stdout, /^ {2}migrate +Turn CARM maps into IAMRoleSelectors/m);
    const help = await runCrossrole(["migrate", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--allow-changes/);
    assert.match(help.stdout, /Exit status: 0 nothing would change/);
  });
});

describe("crossrole migrate --select-by: onboarding new namespaces after the switch", {
  concurrency: true,
}, () => {
  test("names (default): the proof says a namespace annotated later gets no role, and offers labels", async () => {
    const run = await runCrossrole(["migrate", "--from", aliceExample]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /Onboarding changes: carm-account-111111111111 selects namespaces by name \(namespaceSelector\.names\), so a namespace created or annotated with services\.k8s\.aws\/owner-account-id after the switch gets no role from it .*--select-by labels/,
    );
    assert.doesNotMatch(run.stderr, /kubectl label/);
  });

  test("labels: selectors by namespace label, one kubectl label line per namespace, nothing changes", async () => {
    const dir = await manifestDir({
      "ns.yaml": namespaces,
      "carm.yaml": carmMap(false),
      "r.yaml": resources,
    });
    const run = await runCrossrole(["migrate", "--from", dir, ...gates, "--select-by", "labels"]);
    assert.equal(run.code, 0, run.stderr);
    const specs = documents(run.stdout).map((d) => [
      (d["metadata"] as { name: string }).name,
      (d["spec"] as { namespaceSelector: unknown }).namespaceSelector,
    ]);
    const team = (id: string) => ({ labelSelector: { matchLabels: { "crossrole.dev/team-id": id } } });
    assert.deepEqual(specs, [
      ["carm-team-payments", team("payments")],
      ["carm-team-s3-shop", team("shop")],
      ["carm-team-shop", team("shop")],
    ]);
    // Labelled first, then proven: the same 3 resources, none moves.
    assert.match(
      run.stderr,
      /First label the namespaces .*:\n {2}kubectl label namespace payments crossrole\.dev\/team-id=payments\n {2}kubectl label namespace shop crossrole\.dev\/team-id=shop\n/,
    );
    assert.match(run.stderr, /^3 resources decided in both modes, none would change\.$/m);
    assert.match(run.stderr, /Next: label the namespaces \(above\), apply the selectors/);
    assert.match(run.stderr, /Onboarding: .*labelled crossrole\.dev\/team-id=<id>/);

    const json = parseJson(
      await runCrossrole(["migrate", "--from", dir, ...gates, "--select-by", "labels", "-o", "json"]),
    );
    assert.equal(json["selectBy"], "labels");
    assert.deepEqual(json["namespaceLabels"], [
      { namespace: "payments", key: "crossrole.dev/team-id", value: "payments" },
      { namespace: "shop", key: "crossrole.dev/team-id", value: "shop" },
    ]);
  });

  test("labels: a namespace that already has the label needs no line; one that should not be matched is a change", async () => {
    const labelled = namespaces.replace(
      "  name: payments\n",
      "  name: payments\n  labels:\n    crossrole.dev/team-id: payments\n",
    );
    // A namespace CARM gives no role today, already carrying the label a selector will match.
    const stray = `---
apiVersion: v1
kind: Namespace
metadata:
  name: lab
  labels:
    crossrole.dev/team-id: shop
`;
    const dir = await manifestDir({
      "ns.yaml": labelled + stray,
      "carm.yaml": carmMap(false),
      "r.yaml": resources,
    });
    const run = await runCrossrole(["migrate", "--from", dir, ...gates, "--select-by", "labels"]);
    assert.doesNotMatch(run.stderr, /kubectl label namespace payments/);
    assert.match(run.stderr, /kubectl label namespace shop crossrole\.dev\/team-id=shop/);
    // No resources in lab: the proof covers it as namespace × kind and sees it gain shop's role.
    assert.equal(run.code, 0, run.stderr);
    const bare = await manifestDir({ "ns.yaml": labelled + stray, "carm.yaml": carmMap(false) });
    const proof = await runCrossrole(["migrate", "--from", bare, ...gates, "--select-by", "labels"]);
    assert.equal(proof.code, 3, proof.stderr);
    assert.match(
      proof.stderr,
      /Queue lab\/\* \(any Queue in lab\): role \(the controller's own credentials\) → arn:aws:iam::111111111111:role\/shop;/,
    );
  });

  test("an unknown --select-by is bad input with a did-you-mean", async () => {
    const run = await runCrossrole(["migrate", "--from", aliceExample, "--select-by", "label"]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /--select-by label is not a choice; use --select-by names or --select-by labels\. Did you mean --select-by labels\?/,
    );
  });

  test("--help explains the trade-off", async () => {
    const run = await runCrossrole(["migrate", "--help"]);
    assert.match(run.stdout, /--select-by <names\|labels>/);
    assert.match(run.stdout, /whoever may label namespaces may now choose a role/);
  });
});
