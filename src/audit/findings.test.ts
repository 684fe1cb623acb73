// Each finding code on the smallest configuration that shows it: what it names (object, field,
// roles, namespaces), its severity, and that it is absent when the configuration is right.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  controllerIdentity,
  controllerRef,
  namespace,
  role,
  roleIdentity,
  selector,
  selectorMode,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { resourceKinds } from "../api/kinds.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { ConfigObjects, Settings } from "../resolver/types.ts";
import { computeAudit } from "./compute.ts";
import type { AuditFinding, FindingCode } from "./model.ts";

function findings(objects: ConfigObjects, settings: Settings = settingsWith()): AuditFinding[] {
  const snapshot = buildSnapshot(objects, settings);
  return [
    ...computeAudit({ snapshot, settings, kinds: resourceKinds, source: { from: "files", detail: "test" } })
      .findings,
  ];
}

function only(list: readonly AuditFinding[], code: FindingCode): AuditFinding[] {
  return list.filter((f) => f.code === code);
}

const owner = (account: string) => ({ "services.k8s.aws/owner-account-id": account });

describe("findings", () => {
  test("IdentityAdmitsEveryNamespace: {} on a role identity (high), the controller's (medium), behind a narrower source (low)", () => {
    const list = findings({
      namespaces: [namespace("a"), namespace("b")],
      identities: [
        controllerIdentity({}),
        roleIdentity("wide", role("111111111111", "wide"), controllerRef, {}),
        roleIdentity("narrow", role("111111111111", "narrow"), controllerRef, { list: ["a"] }),
        roleIdentity(
          "wide-on-narrow",
          role("111111111111", "won"),
          { kind: "AWSRoleIdentity", name: "narrow" },
          {},
        ),
      ],
    });
    const found = only(list, "IdentityAdmitsEveryNamespace").map((f) => [
      f.object.name,
      f.severity,
      f.roleARN ?? null,
    ]);
    assert.deepEqual(found, [
      ["wide", "high", role("111111111111", "wide")],
      ["default", "medium", null],
      ["wide-on-narrow", "low", role("111111111111", "won")],
    ]);
    const wide = only(list, "IdentityAdmitsEveryNamespace")[0]!;
    assert.match(
      wide.message,
      /AWSRoleIdentity wide has spec\.allowedNamespaces: \{\}, so every namespace \(2\) may name it in spec\.identityRef/,
    );
    assert.match(wide.fix, /spec\.allowedNamespaces/);
    const narrowed = only(list, "IdentityAdmitsEveryNamespace")[2]!;
    assert.match(narrowed.message, /admits only 1 of 2 namespaces/);
  });

  test("SelectorWithoutNamespaceSelector: high without resource labels, medium with, low in CARM mode", () => {
    const objects: ConfigObjects = {
      namespaces: [namespace("a")],
      iamRoleSelectors: [
        selector("everyone", { arn: role("111111111111", "everyone") }),
        selector("labelled", {
          arn: role("111111111111", "labelled"),
          resourceLabelSelector: { matchLabels: { app: "x" } },
        }),
        selector("scoped", { arn: role("111111111111", "scoped"), namespaceSelector: { names: ["a"] } }),
      ],
    };
    const inSelectorMode = only(findings(objects, selectorMode), "SelectorWithoutNamespaceSelector");
    assert.deepEqual(
      inSelectorMode.map((f) => [f.object.name, f.severity]),
      [
        ["everyone", "high"],
        ["labelled", "medium"],
      ],
    );
    assert.match(
      inSelectorMode[0]!.message,
      /has no spec\.namespaceSelector, so any resource in every namespace \(1\) may be reconciled as arn:aws:iam::111111111111:role\/everyone/,
    );
    assert.match(inSelectorMode[1]!.message, /labelled to match app=x/);
    const inCarmMode = only(findings(objects), "SelectorWithoutNamespaceSelector");
    assert.deepEqual(
      inCarmMode.map((f) => [f.object.name, f.severity]),
      [
        ["everyone", "low"],
        ["labelled", "low"],
      ],
    );
    assert.match(inCarmMode[0]!.message, /ignored in CARM mode/);
  });

  test("Conflict: CARM maps that disagree on a key name both entries and every namespace affected", () => {
    const list = findings({
      namespaces: [namespace("a", owner("111111111111")), namespace("b", owner("111111111111"))],
      configMaps: [
        configMap("ack-role-account-map", { "111111111111": role("111111111111", "one") }),
        configMap("ack-carm-map", { "owner-account-id.111111111111": role("111111111111", "two") }),
      ],
    });
    const conflicts = only(list, "Conflict");
    assert.equal(conflicts.length, 1);
    assert.deepEqual(conflicts[0]!.namespaces, ["a", "b"]);
    assert.deepEqual(conflicts[0]!.object, {
      kind: "ConfigMap",
      name: "ack-carm-map",
      namespace: "ack-system",
    });
    assert.match(
      conflicts[0]!.message,
      new RegExp(
        `${resourceKinds
          .map((k) => k.kind)
          .sort()
          .join(", ")} in 2 namespaces \\(a, b\\) are not reconciled: CARM maps disagree`,
      ),
    );
    assert.match(conflicts[0]!.fix, /keep one role per key/);
    // The keys in conflict are not also reported as unused.
    assert.deepEqual(only(list, "UnusedMapKey"), []);
  });

  test("UnusedMapKey: a key nobody asks for, team keys with TeamLevelCARM off, service keys with ServiceLevelCARM off", () => {
    const objects: ConfigObjects = {
      namespaces: [namespace("a", owner("111111111111"))],
      configMaps: [
        configMap("ack-role-account-map", {
          "111111111111": role("111111111111"),
          "222222222222": role("222222222222"),
          "s3.111111111111": role("111111111111", "s3"),
        }),
        configMap("ack-role-team-map", { web: role("333333333333", "web") }),
      ],
    };
    const unused = only(findings(objects), "UnusedMapKey");
    assert.deepEqual(
      unused.map((f) => [f.object.name, f.message.match(/key (\S+)/)?.[1], f.severity]),
      [
        ["ack-role-account-map", "222222222222", "low"],
        ["ack-role-account-map", "s3.111111111111", "low"],
        ["ack-role-team-map", "web", "low"],
      ],
    );
    assert.match(
      unused[0]!.message,
      /no namespace reaches it in CARM mode: no namespace that reaches a role through its services\.k8s\.aws\/owner-account-id annotation asks for account 222222222222/,
    );
    assert.match(unused[1]!.message, /ServiceLevelCARM is off/);
    assert.match(unused[2]!.message, /TeamLevelCARM is off/);
    // With the gate on, the service-level key is what Buckets of `a` use.
    const withGate = only(
      findings(objects, settingsWith({ gates: { ServiceLevelCARM: true } })),
      "UnusedMapKey",
    );
    assert.equal(
      withGate.some((f) => f.message.includes("key s3.111111111111")),
      false,
    );
    // In IAMRoleSelector mode the maps are not read at all: nothing to report per key.
    assert.deepEqual(only(findings(objects, selectorMode), "UnusedMapKey"), []);
  });

  test("RoleWiderThanKey: an account key's role also reached through an identity by another namespace", () => {
    const list = findings({
      namespaces: [namespace("shop", owner("111111111111")), namespace("dev")],
      configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111", "shop") })],
      identities: [
        roleIdentity("shop-role", role("111111111111", "shop"), controllerRef, { list: ["dev", "shop"] }),
      ],
    });
    const wider = only(list, "RoleWiderThanKey");
    assert.equal(wider.length, 1);
    assert.equal(wider[0]!.roleARN, role("111111111111", "shop"));
    assert.deepEqual(wider[0]!.namespaces, ["dev"]);
    assert.match(
      wider[0]!.message,
      /ConfigMap ack-system\/ack-role-account-map key 111111111111 maps to arn:aws:iam::111111111111:role\/shop, meant for namespaces annotated services\.k8s\.aws\/owner-account-id=111111111111 \(shop\), but 1 other namespace reach the same role: dev via identity:AWSRoleIdentity\/shop-role \(potential\)/,
    );
    assert.match(wider[0]!.fix, /remove it from AWSRoleIdentity shop-role/);
    // Only the annotated namespace reaching it: no finding.
    const narrow = findings({
      namespaces: [namespace("shop", owner("111111111111")), namespace("dev")],
      configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111", "shop") })],
      identities: [
        roleIdentity("shop-role", role("111111111111", "shop"), controllerRef, { list: ["shop"] }),
      ],
    });
    assert.deepEqual(only(narrow, "RoleWiderThanKey"), []);
  });

  test("CrossAccountChain: roles in 111111111111 assuming into 222222222222", () => {
    const list = findings({
      namespaces: [namespace("a")],
      identities: [
        controllerIdentity({}),
        roleIdentity("hub", role("111111111111", "hub"), controllerRef, { list: ["a"] }),
        roleIdentity(
          "spoke",
          role("222222222222", "spoke"),
          { kind: "AWSRoleIdentity", name: "hub" },
          { list: ["a"] },
        ),
        roleIdentity(
          "same",
          role("111111111111", "same"),
          { kind: "AWSRoleIdentity", name: "hub" },
          { list: ["a"] },
        ),
      ],
    });
    const chains = only(list, "CrossAccountChain");
    assert.deepEqual(
      chains.map((f) => [f.object.name, f.severity, f.roleARN]),
      [["spoke", "medium", role("222222222222", "spoke")]],
    );
    assert.match(
      chains[0]!.message,
      /AWSRoleIdentity spoke's chain \(spec\.sourceIdentityRef\) crosses accounts 111111111111 → 222222222222: AWSControllerIdentity default → AWSRoleIdentity hub \(111111111111\) → AWSRoleIdentity spoke \(222222222222\); 1 namespace may use it/,
    );
    assert.match(chains[0]!.fix, /trust policy of arn:aws:iam::222222222222:role\/spoke/);
  });

  test("InvalidObject: an excluded object, with the snapshot's field and fix", () => {
    const list = findings({
      namespaces: [namespace("a")],
      iamRoleSelectors: [selector("broken", { arn: "not-an-arn" })],
    });
    const invalid = only(list, "InvalidObject");
    assert.equal(invalid.length, 1);
    assert.deepEqual(invalid[0]!.object, { kind: "IAMRoleSelector", name: "broken" });
    assert.match(invalid[0]!.message, /\(field spec\.arn\)$/);
  });

  test("findings are sorted by severity, then code", () => {
    const list = findings(
      {
        namespaces: [namespace("a")],
        iamRoleSelectors: [
          selector("everyone", { arn: role("111111111111") }),
          selector("broken", { arn: "x" }),
        ],
        identities: [controllerIdentity({})],
      },
      selectorMode,
    );
    assert.deepEqual(
      list.map((f) => `${f.severity} ${f.code}`),
      [
        "high SelectorWithoutNamespaceSelector",
        "medium IdentityAdmitsEveryNamespace",
        "medium InvalidObject",
      ],
    );
  });
});
