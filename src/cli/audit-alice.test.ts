// `crossrole audit` offline on Alice's story (examples/alice), in-process through runCli: the
// exact reaches, the text report, and `-o json` being the report model computeAudit returns.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, test } from "node:test";
import { attributeValues, textOf, unescapeHtml } from "../../test/support/html-query.ts";
import {
  aliceExample,
  manifestDir,
  parseJson,
  removeManifestDirs,
  repoRoot,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";
import { resourceKinds } from "../api/kinds.ts";
import { computeAudit } from "../audit/compute.ts";
import type { AuditReport } from "../audit/model.ts";
import { defaultSettings } from "../resolver/settings.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import { isServed, servedKindNames } from "../services/served.ts";
import { collectAllFromManifests } from "./all-from-manifests.ts";
import { loadManifests } from "./manifests.ts";

after(removeManifestDirs);

const shopTeam = "arn:aws:iam::111111111111:role/shop-team";
const centralIt = "arn:aws:iam::222222222222:role/central-it";
// The report names every served kind, sorted.
const allKinds = [...servedKindNames].sort();

async function aliceJson(...more: string[]): Promise<AuditReport> {
  const run = await runCrossrole(["audit", "--from", aliceExample, "-o", "json", ...more]);
  assert.equal(run.code, 0, run.stderr);
  return parseJson(run) as unknown as AuditReport;
}

describe("audit: Alice's story, offline", { concurrency: true }, () => {
  test("every reach, exactly: shop-team actual for shop, central-it potential for shop only", async () => {
    const report = await aliceJson();
    assert.equal(report.mode, "CARM");
    assert.deepEqual(report.kinds, allKinds);
    // Every reach holds for every served kind.
    const every = allKinds.length;
    assert.deepEqual(
      report.reaches.map((r) => [
        r.namespace,
        r.grant,
        r.roleARN,
        r.account,
        r.actual,
        r.kinds.length,
        r.resources ?? [],
      ]),
      [
        ["ack-system", "controller:default", null, null, true, every, []],
        ["ack-system", "identity:AWSControllerIdentity/default", null, null, false, every, []],
        ["sandbox", "controller:default", null, null, true, every, []],
        ["sandbox", "identity:AWSControllerIdentity/default", null, null, false, every, []],
        [
          "shop",
          "accountMap:ack-role-account-map/111111111111",
          shopTeam,
          "111111111111",
          true,
          every,
          [
            "Bucket shop/shop-assets",
            "Key shop/shop-data",
            "Policy shop/shop-app-logs",
            "Queue shop/shop-orders",
            "Role shop/shop-app",
          ],
        ],
        ["shop", "identity:AWSControllerIdentity/default", null, null, false, every, []],
        [
          "shop",
          "identity:AWSRoleIdentity/central-it",
          centralIt,
          "222222222222",
          false,
          every,
          [
            "Bucket shop/shop-billing-exports",
            "DBInstance shop/shop-db",
            "DBSubnetGroup shop/shop-db-subnets",
            "SecurityGroup shop/shop-db",
          ],
        ],
      ],
    );
    assert.deepEqual(
      report.roles.map((r) => [
        r.roleARN,
        r.namespaces.map((n) => `${n.namespace}:${n.actual ? "actual" : "potential"}`),
      ]),
      [
        [shopTeam, ["shop:actual"]],
        [centralIt, ["shop:potential"]],
        [null, ["ack-system:actual", "sandbox:actual", "shop:potential"]],
      ],
    );
    assert.deepEqual(report.totals, {
      namespaces: 3,
      roles: 3,
      accounts: 2,
      grants: 4,
      reaches: 7,
      findings: 2,
    });
    assert.deepEqual(
      report.findings.map((f) => [f.code, f.severity, f.object.name]),
      [
        ["IdentityAdmitsEveryNamespace", "medium", "default"],
        ["DeniedResource", "medium", "sandbox-billing-exports"],
      ],
    );
    const centralGrant = report.grants.find((g) => g.id === "identity:AWSRoleIdentity/central-it");
    assert.deepEqual(
      centralGrant?.hops.map((h) => `${h.kind} ${h.name}: ${h.admits}`),
      [
        "AWSRoleIdentity central-it: list [shop]",
        "AWSControllerIdentity default: allowedNamespaces: {} (every namespace)",
      ],
    );
    // sandbox never reaches central-it: its Bucket naming it is denied, so it is in use nowhere.
    assert.equal(
      report.reaches.some((r) => r.namespace === "sandbox" && r.roleARN === centralIt),
      false,
    );
  });

  test("the sandbox Bucket naming central-it is denied, and that is a finding", async () => {
    const report = await aliceJson();
    const denied = report.findings.filter((f) => f.code === "DeniedResource");
    assert.deepEqual(
      denied.map((f) => [f.severity, f.object, f.roleARN, f.namespaces]),
      [
        [
          "medium",
          { kind: "Bucket", name: "sandbox-billing-exports", namespace: "sandbox" },
          centralIt,
          ["sandbox"],
        ],
      ],
    );
    assert.match(
      denied[0]?.message ?? "",
      /^Bucket sandbox\/sandbox-billing-exports exists but is denied \(IdentityNotPermitted\), so nothing is done in AWS: AWSRoleIdentity central-it does not allow namespace sandbox/,
    );
    assert.match(denied[0]?.fix ?? "", /adds it to that identity's spec\.allowedNamespaces/);
    // It concerns central-it's role, so --role keeps it.
    const narrowed = await aliceJson("--role", centralIt);
    assert.ok(narrowed.findings.some((f) => f.code === "DeniedResource"));
  });

  test("-o json is the report model computeAudit returns for the same manifests", async () => {
    const report = await aliceJson();
    const manifests = await loadManifests([aliceExample], repoRoot);
    const kinds = resourceKinds.filter((k) => isServed(k.kind));
    const inputs = collectAllFromManifests(manifests, { systemNamespace: "ack-system", kinds });
    const model = computeAudit({
      snapshot: buildSnapshot(inputs.objects, defaultSettings),
      settings: defaultSettings,
      kinds,
      resources: inputs.resources,
      source: { from: "files", detail: aliceExample },
      notes: [
        ...inputs.notes,
        "The controller's own account is unknown offline; pass --controller-account to name it.",
      ],
    });
    assert.deepEqual(report, JSON.parse(JSON.stringify(model)));
  });

  test("text: totals, findings first, then roles with their grants, then namespaces (exit 0)", async () => {
    const run = await runCrossrole(["audit", "--from", aliceExample, "--controller-account", "999999999999"]);
    assert.equal(run.code, 0, run.stderr);
    const text = run.stdout;
    assert.match(
      text,
      new RegExp(
        `^crossrole audit: CARM mode, from files .*examples/alice\\nController account: 999999999999\\nKinds: ${[...servedKindNames].sort().join(", ")}\\nTotals: 3 namespaces, 3 roles in 3 accounts, 4 grants, 7 reaches \\(3 actual, 4 potential\\), 2 findings\\n`,
      ),
    );
    const order = ["Findings (2, most severe first):", "Roles (3):", "Namespaces (3):"].map((h) =>
      text.indexOf(h),
    );
    assert.ok(
      order.every((i, n) => i > 0 && (n === 0 || i > order[n - 1]!)),
      `sections out of order: ${order}`,
    );
    assert.match(text, /1\. \[medium\] IdentityAdmitsEveryNamespace: AWSControllerIdentity default\n/);
    assert.match(
      text,
      /arn:aws:iam::222222222222:role\/central-it \(account 222222222222\): 1 namespace \(0 by default, 1 on request\); 4 resources use it now\n {4}through identity:AWSRoleIdentity\/central-it: AWSRoleIdentity central-it \(arn:aws:iam::222222222222:role\/central-it; admits list \[shop\]\) ← AWSControllerIdentity default \(account 999999999999; admits allowedNamespaces: \{\} \(every namespace\)\)\n {6}shop {2}potential {2}spec\.identityRef to AWSRoleIdentity central-it; in use by Bucket shop\/shop-billing-exports, DBInstance shop\/shop-db, DBSubnetGroup shop\/shop-db-subnets, SecurityGroup shop\/shop-db\n/,
    );
    assert.match(
      text,
      / {2}shop\n {4}plain resources: use arn:aws:iam::111111111111:role\/shop-team \(account 111111111111\)\n {4}reaches:\n {6}arn:aws:iam::111111111111:role\/shop-team: actual via accountMap:ack-role-account-map\/111111111111\n {6}arn:aws:iam::222222222222:role\/central-it: potential via identity:AWSRoleIdentity\/central-it\n {6}the controller's own credentials: potential via identity:AWSControllerIdentity\/default\n/,
    );
  });

  test("-o html: every resource using a role is in its “used today” cell, the database too", async () => {
    const run = await runCrossrole(["audit", "--from", aliceExample, "-o", "html"]);
    assert.equal(run.code, 0, run.stderr);
    const usedBy = (role: string) =>
      unescapeHtml(
        new RegExp(`<tr data-role="${role}">(?:<td>.*?</td>){2}<td>(.*?)</td>`).exec(run.stdout)?.[1] ?? "",
      ).replace(/<[^>]+>/g, "");
    assert.equal(
      usedBy(centralIt),
      "resources: Bucket shop/shop-billing-exports, DBInstance shop/shop-db, DBSubnetGroup shop/shop-db-subnets, SecurityGroup shop/shop-db",
    );
    assert.equal(
      usedBy(shopTeam),
      "shopresources: Bucket shop/shop-assets, Key shop/shop-data, Policy shop/shop-app-logs, Queue shop/shop-orders, Role shop/shop-app",
    );
  });

  test("the summary's counts are the map's: one node per counted object, an unused key's role too", async () => {
    // Alice's files with one more account-map key that no namespace is annotated for.
    const files: Record<string, string> = {};
    for (const name of await readdir(aliceExample)) {
      if (name.endsWith(".yaml")) files[name] = await readFile(path.join(aliceExample, name), "utf8");
    }
    files["10-carm.yaml"] =
      `${files["10-carm.yaml"]}  "333333333333": arn:aws:iam::333333333333:role/nobody\n`;
    const dir = await manifestDir(files);
    for (const source of [aliceExample, dir]) {
      const report = parseJson(
        await runCrossrole(["audit", "--from", source, "-o", "json"]),
      ) as unknown as AuditReport;
      const html = (await runCrossrole(["audit", "--from", source, "-o", "html"])).stdout;
      const nodes = attributeValues(html, "data-node");
      for (const column of ["namespace", "grant", "role", "account"] as const) {
        const total = report.totals[`${column}s`];
        assert.equal(textOf(html, "data-total", `${column}s`), String(total), `${column}s box`);
        assert.equal(nodes.filter((n) => n.startsWith(`${column}:`)).length, total, `${column} nodes`);
      }
      // And the lists the text and tables show are as long as the totals say.
      assert.equal(report.roles.length, report.totals.roles);
    }
    const withUnused = parseJson(
      await runCrossrole(["audit", "--from", dir, "-o", "json"]),
    ) as unknown as AuditReport;
    assert.deepEqual(
      withUnused.roles.find((r) => r.account === "333333333333"),
      { roleARN: "arn:aws:iam::333333333333:role/nobody", account: "333333333333", namespaces: [] },
    );
  });

  test("-o html renders the same report (the HTML renderer's own tests check its content)", async () => {
    const run = await runCrossrole(["audit", "--from", aliceExample, "-o", "html"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^<!DOCTYPE html>/i);
    assert.match(run.stdout, /central-it/);
  });
});
