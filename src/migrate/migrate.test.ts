// migrate(): CARM → IAMRoleSelectors and the proof, pure (no CLI, no cluster). Each test writes
// the configuration an administrator would have, then checks the selectors and what the proof
// says about it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  namespace,
  resource,
  role,
  selector,
  selectorMode,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { iamRoleSelectorSchema } from "../api/iam-role-selector.ts";
import { resourceKinds } from "../api/kinds.ts";
import type { ResourceObject, Settings } from "../resolver/types.ts";
import { dns1123SubdomainErrors } from "../selector/label-syntax.ts";
import { isServed } from "../services/served.ts";
import { migrate } from "./migrate.ts";
import type { MigrationResult } from "./types.ts";

const kinds = resourceKinds.filter((k) => isServed(k.kind));
const owner = "services.k8s.aws/owner-account-id";
const team = "services.k8s.aws/team-id";
const teamGates = settingsWith({ gates: { TeamLevelCARM: true } });
const serviceGates = settingsWith({ gates: { TeamLevelCARM: true, ServiceLevelCARM: true } });

function run(
  objects: {
    namespaces?: unknown[];
    configMaps?: unknown[];
    iamRoleSelectors?: unknown[];
    identities?: unknown[];
  },
  settings: Settings = settingsWith(),
  resources: ResourceObject[] = [],
): MigrationResult {
  return migrate({ objects, settings, resources, kinds });
}

const names = (r: MigrationResult) => r.selectors.map((g) => g.selector.metadata.name);
const spec = (r: MigrationResult, name: string) =>
  r.selectors.find((g) => g.selector.metadata.name === name)?.selector.spec;

describe("migrate: CARM maps → IAMRoleSelectors", () => {
  test("account map only: one selector per account in use, naming exactly its namespaces; nothing changes", () => {
    const r = run({
      namespaces: [
        namespace("b", { [owner]: "111111111111" }),
        namespace("a", { [owner]: "111111111111" }),
        namespace("c", { [owner]: "222222222222" }),
        namespace("plain"),
      ],
      configMaps: [
        configMap("ack-role-account-map", {
          "111111111111": role("111111111111", "team"),
          "222222222222": role("222222222222", "other"),
          "333333333333": role("333333333333", "unused"),
        }),
      ],
    });
    assert.deepEqual(names(r), ["carm-account-111111111111", "carm-account-222222222222"]);
    assert.deepEqual(spec(r, "carm-account-111111111111"), {
      arn: role("111111111111", "team"),
      namespaceSelector: { names: ["a", "b"] },
    });
    assert.deepEqual(spec(r, "carm-account-222222222222")?.namespaceSelector, { names: ["c"] });
    assert.equal(r.proofOver, "namespaceKinds");
    assert.equal(r.decided.length, 4 * kinds.length);
    assert.deepEqual(r.changes, []);
    assert.ok(r.notes.some((n) => n.includes("key 333333333333") && n.includes("no selector replaces it")));
    // The plain namespace keeps the controller's own credentials in both modes.
    const plain = r.decided.filter((d) => d.namespace === "plain");
    assert.ok(plain.every((d) => d.carm.roleARN === null && d.iamRoleSelector.roleARN === null));
  });

  test("team map (TeamLevelCARM): team-id wins over owner-account-id, as in CARM", () => {
    const r = run(
      {
        namespaces: [
          namespace("shop", { [team]: "team-a", [owner]: "111111111111" }),
          namespace("ops", { [owner]: "111111111111" }),
        ],
        configMaps: [
          configMap("ack-role-team-map", { "team-a": role("444444444444", "team-a") }),
          configMap("ack-role-account-map", { "111111111111": role("111111111111") }),
        ],
      },
      teamGates,
    );
    assert.deepEqual(names(r), ["carm-account-111111111111", "carm-team-team-a"]);
    assert.deepEqual(spec(r, "carm-team-team-a")?.namespaceSelector, { names: ["shop"] });
    assert.deepEqual(spec(r, "carm-account-111111111111")?.namespaceSelector, { names: ["ops"] });
    assert.deepEqual(r.changes, []);
  });

  test("service-level keys next to a team key: exactly one selector matches each kind", () => {
    const r = run(
      {
        namespaces: [namespace("shop", { [team]: "team-a" }), namespace("ops", { [owner]: "111111111111" })],
        configMaps: [
          configMap("ack-role-team-map", {
            "team-a": role("444444444444", "team-a"),
            "s3.team-a": role("555555555555", "team-a-s3"),
          }),
          configMap("ack-role-account-map", {
            "111111111111": role("111111111111"),
            "sqs.111111111111": role("111111111111", "queues"),
          }),
        ],
      },
      serviceGates,
    );
    assert.deepEqual(names(r), [
      "carm-account-111111111111",
      "carm-account-sqs-111111111111",
      "carm-team-s3-team-a",
      "carm-team-team-a",
    ]);
    assert.deepEqual(spec(r, "carm-team-s3-team-a")?.resourceTypeSelector, [
      { group: "s3.services.k8s.aws", version: "", kind: "" },
    ]);
    const plainTypes = spec(r, "carm-team-team-a")?.resourceTypeSelector?.map((e) => e.group);
    // Every served service's group but S3's (its own key), each once.
    assert.deepEqual(
      plainTypes,
      [
        ...new Set(resourceKinds.filter((k) => k.service !== "s3" && isServed(k.kind)).map((k) => k.group)),
      ].sort(),
    );
    assert.deepEqual(r.changes, []);
    // The proof decided each kind through the one selector meant for it (no conflict anywhere).
    for (const d of r.decided.filter((x) => x.namespace === "shop")) {
      assert.equal(d.iamRoleSelector.outcome, "use", `${d.kind}: ${d.iamRoleSelector.message}`);
      assert.equal(
        d.iamRoleSelector.selector,
        d.kind === "Bucket" ? "carm-team-s3-team-a" : "carm-team-team-a",
      );
    }
    const queue = r.decided.find((x) => x.namespace === "ops" && x.kind === "Queue");
    assert.equal(queue?.iamRoleSelector.selector, "carm-account-sqs-111111111111");
    assert.equal(queue?.iamRoleSelector.roleARN, role("111111111111", "queues"));
  });

  test("ack-carm-map external-id is carried over as the selector's externalID", () => {
    const r = run(
      {
        namespaces: [namespace("pay", { [team]: "payments" })],
        configMaps: [
          configMap("ack-carm-map", {
            "team-id.payments": role("666666666666", "payments"),
            "team-id.payments.external-id": "ext-payments-1",
          }),
        ],
      },
      teamGates,
      [resource("pay", { kind: "Queue", name: "orders" })],
    );
    assert.deepEqual(names(r), ["carm-team-payments"]);
    assert.equal(spec(r, "carm-team-payments")?.externalID, "ext-payments-1");
    assert.equal(
      r.selectors[0]?.selector.metadata.annotations?.["crossrole.dev/carm-entry"],
      "ConfigMap ack-system/ack-carm-map key team-id.payments",
    );
    assert.equal(r.proofOver, "resources");
    assert.equal(r.decided[0]?.iamRoleSelector.externalID, "ext-payments-1");
    assert.deepEqual(r.changes, []);
  });

  test("a team endpoint in ack-carm-map is a change, with why and the fix that removes it", () => {
    const objects = {
      namespaces: [namespace("pay", { [team]: "payments" })],
      configMaps: [
        configMap("ack-carm-map", {
          "team-id.payments": role("666666666666", "payments"),
          "team-id.payments.endpoint": "https://payments.example.com",
        }),
      ],
    };
    const bucket = resource("pay", { name: "ledger" });
    const r = run(objects, teamGates, [bucket]);
    assert.equal(r.changes.length, 1);
    const change = r.changes[0]!;
    assert.deepEqual([change.kind, change.namespace, change.name], ["Bucket", "pay", "ledger"]);
    assert.deepEqual(change.fields, ["endpoint"]);
    assert.equal(change.from.endpoint, "https://payments.example.com");
    assert.equal(change.to.endpoint, null);
    assert.equal(change.to.roleARN, change.from.roleARN, "the role itself is kept");
    assert.match(change.why, /ack-carm-map/);
    assert.match(change.why, /an IAMRoleSelector has no endpoint/);
    assert.match(change.fix, /services\.k8s\.aws\/endpoint-url: https:\/\/payments\.example\.com/);

    // The fix works: with the namespace annotated, nothing changes.
    const fixed = run(
      {
        ...objects,
        namespaces: [
          namespace("pay", {
            [team]: "payments",
            "services.k8s.aws/endpoint-url": "https://payments.example.com",
          }),
        ],
      },
      teamGates,
      [bucket],
    );
    assert.deepEqual(fixed.changes, []);
  });

  test("a resource-level owner-account-id (ResourceLevelCARM) is reported: selectors cannot read annotations", () => {
    const settings = settingsWith({ gates: { ResourceLevelCARM: true } });
    const r = run(
      {
        namespaces: [
          namespace("shop", {
            [owner]: "111111111111",
            "services.k8s.aws/allowed-owner-account-ids": "222222222222",
          }),
        ],
        configMaps: [
          configMap("ack-role-account-map", {
            "111111111111": role("111111111111"),
            "222222222222": role("222222222222", "billing"),
          }),
        ],
      },
      settings,
      [
        resource("shop", { name: "assets" }),
        resource("shop", { kind: "DBInstance", name: "db", annotations: { [owner]: "222222222222" } }),
      ],
    );
    assert.deepEqual(names(r), ["carm-account-111111111111"]);
    assert.equal(r.decided.length, 2);
    assert.equal(r.changes.length, 1);
    const change = r.changes[0]!;
    assert.deepEqual([change.kind, change.name], ["DBInstance", "db"]);
    assert.deepEqual(change.fields, ["roleARN", "account"]);
    assert.equal(change.from.account, "222222222222");
    assert.equal(change.to.account, "111111111111");
    assert.match(change.why, /owner-account-id: "222222222222"/);
    assert.match(change.why, /never annotations/);
    assert.match(
      change.fix,
      /spec\.identityRef to an AWSRoleIdentity for arn:aws:iam::222222222222:role\/billing/,
    );
  });

  test("no resources: every namespace × kind is decided; a namespace waiting in CARM is a change", () => {
    const r = run({
      namespaces: [
        namespace("ready", { [owner]: "111111111111" }),
        namespace("pending", { [owner]: "555555555555" }),
      ],
      configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111") })],
    });
    assert.equal(r.proofOver, "namespaceKinds");
    assert.equal(r.decided.length, 2 * kinds.length);
    assert.ok(r.decided.every((d) => d.synthetic && d.name === "*"));
    assert.deepEqual(
      r.changes.map((c) => [c.kind, c.namespace]),
      kinds.map((k) => [k.kind, "pending"]),
    );
    const change = r.changes[0]!;
    // Waiting, it has no account or region yet; after the switch it would have both.
    assert.deepEqual(change.fields, ["outcome", "account", "region"]);
    assert.equal(change.from.outcome, "wait");
    assert.equal(change.to.outcome, "use");
    assert.match(change.why, /CARM waits today: .*555555555555/);
    assert.match(change.why, /the controller's own credentials/);
    assert.match(change.fix, /re-run migrate/);
  });

  test("selectors already in the cluster count: one that also matches makes a conflict, named as the cause", () => {
    const r = run(
      {
        namespaces: [namespace("shop", { [owner]: "111111111111" })],
        configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111") })],
        iamRoleSelectors: [
          selector("legacy-s3", {
            arn: role("999999999999"),
            resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1" }],
          }),
        ],
      },
      settingsWith(),
      [resource("shop", { name: "assets" }), resource("shop", { kind: "Queue", name: "jobs" })],
    );
    assert.equal(r.changes.length, 1);
    const change = r.changes[0]!;
    assert.equal(change.kind, "Bucket");
    assert.equal(change.to.outcome, "conflict");
    assert.match(change.why, /IAMRoleSelector legacy-s3 already exists/);
    assert.match(change.fix, /narrow or delete IAMRoleSelector legacy-s3/);
    assert.match(change.fix, /iam-role-selector: carm-account-111111111111/);
  });

  test("re-running after the selectors were applied: same output, nothing changes, nothing replaced", () => {
    const objects = {
      namespaces: [namespace("shop", { [team]: "team-a" })],
      configMaps: [
        configMap("ack-role-team-map", { "team-a": role("444444444444"), "s3.team-a": role("555555555555") }),
      ],
    };
    const first = run(objects, serviceGates);
    const again = run({ ...objects, iamRoleSelectors: first.selectors.map((g) => g.selector) }, serviceGates);
    assert.deepEqual(again.selectors, first.selectors);
    assert.deepEqual(again.changes, []);
    assert.ok(!again.notes.some((n) => n.includes("replaces it")));
  });

  test("generated selectors are valid IAMRoleSelectors with DNS names, even for awkward team IDs", () => {
    const r = run(
      {
        namespaces: [
          namespace("x", { [team]: "Team_X" }),
          namespace("y", { [team]: "team-x" }),
          namespace("z", { [team]: "eu.payments" }),
        ],
        configMaps: [
          configMap("ack-role-team-map", {
            Team_X: role("111111111111", "upper"),
            "team-x": role("222222222222", "lower"),
            "eu.payments": role("333333333333", "eu"),
          }),
        ],
      },
      teamGates,
    );
    assert.equal(r.selectors.length, 3);
    for (const { selector: s } of r.selectors) {
      const parsed = iamRoleSelectorSchema.safeParse(s);
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
      assert.deepEqual(dns1123SubdomainErrors(s.metadata.name), [], s.metadata.name);
    }
    assert.ok(names(r).includes("carm-team-team-x"));
    assert.ok(names(r).includes("carm-team-eu.payments"));
    assert.match(
      names(r).find((n) => n.startsWith("carm-team-team-x-")) ?? "",
      /^carm-team-team-x-[0-9a-f]{8}$/,
    );
    assert.deepEqual(r.changes, []);
  });

  test("deterministic: the order objects are listed in changes nothing", () => {
    const namespaces = [
      namespace("a", { [team]: "team-a" }),
      namespace("b", { [owner]: "111111111111" }),
      namespace("c", { [team]: "team-a" }),
    ];
    const maps = [
      configMap("ack-role-team-map", { "s3.team-a": role("555555555555"), "team-a": role("444444444444") }),
      configMap("ack-role-account-map", { "111111111111": role("111111111111") }),
    ];
    const resources = [resource("c", { name: "one" }), resource("a", { kind: "Queue", name: "two" })];
    const one = run({ namespaces, configMaps: maps }, serviceGates, resources);
    const two = run(
      { namespaces: [...namespaces].reverse(), configMaps: [...maps].reverse() },
      serviceGates,
      [...resources].reverse(),
    );
    assert.deepEqual(two, one);
    assert.deepEqual(
      one.decided.map((d) => `${d.namespace}/${d.kind}/${d.name}`),
      ["a/Queue/two", "c/Bucket/one"],
    );
  });

  test("not in CARM mode: nothing to migrate", () => {
    assert.throws(() => run({}, selectorMode), /already runs in IAMRoleSelector mode/);
    assert.throws(() => run({}, settingsWith({ enableCARM: false })), /CARM is disabled/);
  });
});
