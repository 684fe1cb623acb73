// Every example beside Alice's (examples/<name>/) applied as it is — placeholders filled by the
// local stack (src/local-stack/example-placeholders.ts) — to its own local stack, with the
// controller flags its README names; each resource lands where the README's table says, checked
// in the emulator with every candidate account's own credentials, and a resource the README says
// is denied is created nowhere. (examples/alice has its own test, alice.test.ts.)
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { KindName } from "../../src/api/kinds.ts";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";
import { servedKindCatalog } from "../../src/services/catalog.ts";
import {
  condition,
  controllerAccount,
  type E2E,
  region,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

interface Placed {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The AWS name (spec.name, spec.tableName, ...); "" for a kind named by the ID AWS assigns (status's). */
  readonly awsName: string;
  /** Where it lands; null: denied with `deniedReason`, created nowhere. */
  readonly account: string | null;
  readonly deniedReason?: string;
}

interface Example {
  readonly dir: string;
  readonly flags: readonly string[];
  readonly resources: readonly Placed[];
}

const examples: readonly Example[] = [
  {
    dir: "selector-mode",
    flags: ["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"],
    resources: [
      {
        kind: "Bucket",
        namespace: "payments",
        name: "ledger-archive",
        awsName: "payments-ledger-archive",
        account: "333333333333",
      },
      {
        kind: "Table",
        namespace: "analytics",
        name: "events",
        awsName: "analytics-events",
        account: "444444444444",
      },
      {
        kind: "Bucket",
        namespace: "analytics",
        name: "scratch",
        awsName: "analytics-scratch",
        account: null,
        deniedReason: "IdentityNotPermitted",
      },
    ],
  },
  {
    dir: "team-maps",
    flags: ["--feature-gates=TeamLevelCARM=true,ServiceLevelCARM=true"],
    resources: [
      {
        kind: "Bucket",
        namespace: "web",
        name: "site-assets",
        awsName: "web-site-assets",
        account: "111111111111",
      },
      { kind: "Queue", namespace: "data", name: "ingest", awsName: "data-ingest", account: "222222222222" },
      {
        kind: "Bucket",
        namespace: "data",
        name: "raw-archive",
        awsName: "data-raw-archive",
        account: "555555555555",
      },
    ],
  },
  {
    dir: "serviceaccount-identity",
    flags: [],
    resources: [
      { kind: "Bucket", namespace: "ml", name: "models", awsName: "ml-models", account: "777777777777" },
    ],
  },
  {
    dir: "every-service",
    flags: [],
    resources: [
      ["Bucket", "receipts", "payments-receipts-111111111111"],
      ["Topic", "payment-events", "payment-events"],
      ["Queue", "settlements", "payments-settlements"],
      ["Table", "idempotency-keys", "payments-idempotency-keys"],
      ["DBSubnetGroup", "ledger-subnets", "payments-ledger-subnets"],
      ["DBParameterGroup", "ledger-settings", "payments-ledger-settings"],
      ["DBClusterParameterGroup", "analytics-settings", "payments-analytics-settings"],
      ["DBCluster", "analytics", "payments-analytics"],
      ["DBInstance", "ledger", "payments-ledger"],
      ["Repository", "payments-api", "payments/api"],
      ["LogGroup", "payments-api", "/payments/api"],
      ["Policy", "read-api-secret", "payments-read-api-secret"],
      ["Role", "payments-api", "payments-api"],
      ["Secret", "api-config", "payments/api"],
      ["Key", "payments-data", ""],
      ["Alias", "payments-data", "alias/payments-data"],
      ["VPC", "payments-network", ""],
      ["Subnet", "payments-private-a", ""],
      ["SecurityGroup", "payments-api", ""],
      ["Role", "payments-webhook", "payments-webhook"],
      ["Function", "payments-webhook", "payments-webhook"],
    ].map(([kind = "", name = "", awsName = ""]) => ({
      kind,
      namespace: "payments",
      name,
      awsName,
      account: "111111111111",
    })),
  },
  {
    dir: "static-identity",
    flags: [],
    resources: [
      {
        kind: "Bucket",
        namespace: "legacy",
        name: "reports",
        awsName: "legacy-reports",
        account: "888888888888",
      },
    ],
  },
];

test("every example directory has a test here (or is Alice's)", async () => {
  const dirs = (await readdir(join(repoRoot, "examples"), { withFileTypes: true }))
    .filter((d) => d.isDirectory() && d.name !== "alice")
    .map((d) => d.name)
    .sort();
  assert.deepEqual(dirs, examples.map((e) => e.dir).sort());
});

for (const example of examples) {
  describe(`examples/${example.dir}`, () => {
    let e2e: E2E;
    const candidates = [
      controllerAccount,
      ...new Set(example.resources.flatMap((r) => (r.account ? [r.account] : []))),
      "111111111111",
    ].filter((a, i, all) => all.indexOf(a) === i);
    before(async () => {
      e2e = await startE2E();
      await e2e.apply(join(repoRoot, "examples", example.dir));
      await e2e.startController([...example.flags]);
    });
    after(() => e2e?.stop());

    for (const r of example.resources) {
      test(`${r.kind} ${r.namespace}/${r.name} ${r.account ? `lands in ${r.account}` : `is denied (${r.deniedReason})`}`, async () => {
        let awsName = r.awsName;
        if (r.account !== null) {
          const obj = await waitForResourceCondition(
            e2e.kube,
            r.kind,
            r.namespace,
            r.name,
            "ACK.ResourceSynced",
            "True",
            undefined,
            30_000,
          );
          assert.equal(obj.status?.ackResourceMetadata?.ownerAccountID, r.account);
          // Named by the ID AWS assigned (a KMS key, a VPC): the one status records, found in that account only.
          const assigned = (await servedKindCatalog[r.kind as KindName].module()).assigned;
          if (awsName === "" && assigned !== undefined)
            awsName = String((obj.status as Record<string, unknown>)[assigned.statusField] ?? "");
        } else {
          const obj = await waitForResourceCondition(
            e2e.kube,
            r.kind,
            r.namespace,
            r.name,
            "ACK.Recoverable",
            "True",
            r.deniedReason,
          );
          assert.equal(condition(obj, "ACK.ResourceSynced")?.status, "False");
        }
        assert.deepEqual(
          await accountsHoldingResource(e2e.stack.awsEndpoint ?? "", r.kind, awsName, region, candidates),
          r.account ? [r.account] : [],
        );
      });
    }
  });
}
