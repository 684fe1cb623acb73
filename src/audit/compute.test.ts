// computeAudit on small configurations: which namespaces reach which role, and through what,
// actual and potential. Every potential reach listed is also replayed through resolve() with a
// resource that takes that route, so the audit cannot claim a reach the controller would refuse.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  controllerIdentity,
  controllerRef,
  namespace,
  resource,
  role,
  roleIdentity,
  selector,
  selectorMode,
  serviceAccountIdentity,
  settingsWith,
  staticIdentity,
} from "../../test/support/resolver-fixtures.ts";
import { resourceAnnotations } from "../api/annotations.ts";
import { resourceKinds } from "../api/kinds.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { ConfigObjects, ResourceObject, Settings } from "../resolver/types.ts";
import { computeAudit } from "./compute.ts";
import type { AuditReach, AuditReport } from "./model.ts";
import { witnessLabels } from "./selectors.ts";

const kinds = resourceKinds;
const allKinds = resourceKinds.map((k) => k.kind).sort();
/** Every kind but a Bucket, as a reach lists them. */
const allButBucket = allKinds.filter((k) => k !== "Bucket").join(",");

function audit(
  objects: ConfigObjects,
  settings: Settings = settingsWith(),
  resources?: readonly ResourceObject[],
): AuditReport {
  const snapshot = buildSnapshot(objects, settings);
  return computeAudit({
    snapshot,
    settings,
    kinds,
    source: { from: "files", detail: "test" },
    ...(resources === undefined ? {} : { resources }),
  });
}

/** `namespace grant actual|potential [kinds]`, sorted: the reaches in one readable list. */
function reachLines(report: AuditReport): string[] {
  return report.reaches.map(
    (r) =>
      `${r.namespace} ${r.grant} ${r.actual ? "actual" : "potential"}${r.kinds.length === allKinds.length ? "" : ` [${r.kinds.join(",")}]`}`,
  );
}

function reachesOf(report: AuditReport, ns: string): string[] {
  return reachLines(report).filter((line) => line.startsWith(`${ns} `));
}

describe("computeAudit: identity chains", () => {
  test("a namespace the first hop admits but the second does not gets no reach through the chain", () => {
    // `top` (first hop) admits a and b; its source `base` admits every namespace but b.
    const objects: ConfigObjects = {
      namespaces: [
        namespace("a", {}, { team: "a" }),
        namespace("b", {}, { team: "b" }),
        namespace("c", {}, { team: "c" }),
      ],
      identities: [
        controllerIdentity({}),
        roleIdentity("base", role("111111111111", "base"), controllerRef, {
          selector: { matchExpressions: [{ key: "team", operator: "NotIn", values: ["b"] }] },
        }),
        roleIdentity(
          "top",
          role("222222222222", "top"),
          { kind: "AWSRoleIdentity", name: "base" },
          { list: ["a", "b"] },
        ),
      ],
    };
    const report = audit(objects);
    assert.deepEqual(
      reachLines(report).filter((l) => l.includes("AWSRoleIdentity")),
      [
        "a identity:AWSRoleIdentity/base potential",
        "a identity:AWSRoleIdentity/top potential",
        "c identity:AWSRoleIdentity/base potential",
      ],
    );
    // resolve() agrees: b is denied at the second hop.
    const snapshot = buildSnapshot(objects, settingsWith());
    const denied = resolve(
      resource("b", { identityRef: { kind: "AWSRoleIdentity", name: "top" } }),
      "b",
      snapshot,
      settingsWith(),
    );
    assert.equal(denied.outcome, "deny");
    assert.match(denied.message, /AWSRoleIdentity base does not allow namespace b/);
    const grant = report.grants.find((g) => g.id === "identity:AWSRoleIdentity/top");
    assert.deepEqual(
      grant?.hops.map((h) => [h.kind, h.name, h.admits]),
      [
        ["AWSRoleIdentity", "top", "list [a, b]"],
        ["AWSRoleIdentity", "base", "selector team notin (b)"],
        ["AWSControllerIdentity", "default", "allowedNamespaces: {} (every namespace)"],
      ],
    );
    assert.equal(grant?.roleARN, role("222222222222", "top"));
    assert.equal(grant?.namespaceCount, 1);
  });

  test("label selectors in allowedNamespaces admit exactly the labelled namespaces", () => {
    const report = audit({
      namespaces: [namespace("x", {}, { team: "a" }), namespace("y", {}, { team: "b" }), namespace("z")],
      identities: [
        roleIdentity("team-a", role("111111111111"), controllerRef, {
          selector: { matchLabels: { team: "a" } },
        }),
      ],
    });
    assert.deepEqual(
      reachLines(report).filter((l) => l.includes("team-a")),
      ["x identity:AWSRoleIdentity/team-a potential"],
    );
  });

  test("an AWSServiceAccountIdentity is reachable only from its own namespace, also as a chain's source", () => {
    const report = audit({
      namespaces: [namespace("a"), namespace("b"), namespace("c")],
      identities: [
        serviceAccountIdentity("a", "app", role("333333333333", "app-a")),
        serviceAccountIdentity("b", "app", role("444444444444", "app-b")),
        roleIdentity(
          "via-sa",
          role("555555555555", "via-sa"),
          { kind: "AWSServiceAccountIdentity", name: "app" },
          {},
        ),
      ],
    });
    assert.deepEqual(
      reachLines(report).filter((l) => l.includes("ServiceAccount") || l.includes("via-sa")),
      [
        "a identity:AWSRoleIdentity/via-sa potential",
        "a identity:AWSServiceAccountIdentity/a/app potential",
        "b identity:AWSRoleIdentity/via-sa potential",
        "b identity:AWSServiceAccountIdentity/b/app potential",
      ],
    );
    const roleA = report.roles.find((r) => r.roleARN === role("333333333333", "app-a"));
    assert.deepEqual(roleA?.namespaces, [
      { namespace: "a", grants: ["identity:AWSServiceAccountIdentity/a/app"], actual: false },
    ]);
    // The chain crosses accounts in each namespace that can use it.
    assert.ok(report.findings.some((f) => f.code === "CrossAccountChain" && f.object.name === "via-sa"));
  });

  test("without AWSControllerIdentity/default every namespace may use the controller's credentials", () => {
    const report = audit(
      { namespaces: [namespace("a"), namespace("b")] },
      settingsWith({ controllerAccount: null }),
    );
    assert.deepEqual(reachLines(report), [
      "a controller:default actual",
      "a identity:AWSControllerIdentity/default potential",
      "b controller:default actual",
      "b identity:AWSControllerIdentity/default potential",
    ]);
    assert.deepEqual(
      report.roles.map((r) => [r.roleARN, r.credentials, r.namespaces.length]),
      [[null, "controller", 2]],
    );
    const finding = report.findings.find((f) => f.code === "IdentityAdmitsEveryNamespace");
    assert.match(finding?.message ?? "", /No AWSControllerIdentity default exists, so every namespace \(2\)/);
  });

  test("static keys are their own credentials, not the controller's", () => {
    const report = audit({
      namespaces: [namespace("a")],
      identities: [controllerIdentity({ list: [] }), staticIdentity("keys", "keys", { list: ["a"] })],
    });
    assert.deepEqual(
      report.roles.map((r) => [r.roleARN, r.credentials, r.namespaces.map((n) => n.namespace)]),
      // The controller's credentials admit no namespace, but their grants exist: listed, unused.
      [
        [null, "controller", []],
        [null, "AWSStaticIdentity/keys", ["a"]],
      ],
    );
  });

  test("an identity on a sourceIdentityRef cycle grants nothing and is an InvalidObject finding", () => {
    const report = audit({
      namespaces: [namespace("a")],
      identities: [
        roleIdentity("p", role("111111111111", "p"), { kind: "AWSRoleIdentity", name: "q" }, {}),
        roleIdentity("q", role("111111111111", "q"), { kind: "AWSRoleIdentity", name: "p" }, {}),
      ],
    });
    assert.equal(
      report.grants.some((g) => g.id.includes("AWSRoleIdentity")),
      false,
    );
    const invalid = report.findings.filter((f) => f.code === "InvalidObject").map((f) => f.object.name);
    assert.deepEqual(invalid, ["p", "q"]);
  });
});

describe("computeAudit: CARM mode", () => {
  const objects: ConfigObjects = {
    namespaces: [
      namespace("shop", { "services.k8s.aws/owner-account-id": "111111111111" }),
      namespace("web", {
        "services.k8s.aws/team-id": "web",
        "services.k8s.aws/owner-account-id": "111111111111",
        "services.k8s.aws/allowed-owner-account-ids": "222222222222",
      }),
      namespace("other"),
    ],
    configMaps: [
      configMap("ack-role-account-map", {
        "111111111111": role("111111111111", "shop"),
        "222222222222": role("222222222222", "billing"),
      }),
      configMap("ack-role-team-map", {
        web: role("333333333333", "web"),
        "s3.web": role("333333333333", "web-s3"),
      }),
    ],
    identities: [controllerIdentity({ list: ["other"] })],
  };

  test("plain resources: team map before account map; kinds collapse where the key does not depend on them", () => {
    const report = audit(objects, settingsWith({ gates: { TeamLevelCARM: true, ServiceLevelCARM: true } }));
    assert.deepEqual(reachesOf(report, "web"), [
      "web teamMap:ack-role-team-map/s3.web actual [Bucket]",
      `web teamMap:ack-role-team-map/web actual [${allButBucket}]`,
    ]);
    assert.deepEqual(reachesOf(report, "shop"), ["shop accountMap:ack-role-account-map/111111111111 actual"]);
    assert.deepEqual(reachesOf(report, "other"), [
      "other controller:default actual",
      "other identity:AWSControllerIdentity/default potential",
    ]);
  });

  test("ResourceLevelCARM: the accounts a namespace lists are potential reaches, through the account map", () => {
    const report = audit(objects, settingsWith({ gates: { TeamLevelCARM: true, ResourceLevelCARM: true } }));
    const reach = report.reaches.find((r) => r.grant === "resourceAccount:ack-role-account-map/222222222222");
    assert.deepEqual(
      reach && { ns: reach.namespace, actual: reach.actual, role: reach.roleARN, kinds: reach.kinds },
      { ns: "web", actual: false, role: role("222222222222", "billing"), kinds: allKinds },
    );
    assert.match(
      reach?.how ?? "",
      /owner-account-id=222222222222 \(listed in the namespace's services\.k8s\.aws\/allowed-owner-account-ids\)/,
    );
    // Without the gate the annotation is ignored: no such reach.
    const off = audit(objects, settingsWith({ gates: { TeamLevelCARM: true } }));
    assert.equal(
      off.reaches.some((r) => r.grant.startsWith("resourceAccount:")),
      false,
    );
  });

  test("existing resources are named on the reach they use", () => {
    const report = audit(objects, settingsWith({ gates: { TeamLevelCARM: true, ResourceLevelCARM: true } }), [
      resource("shop", { name: "assets" }),
      resource("web", {
        name: "exports",
        annotations: { [resourceAnnotations.ownerAccountId]: "222222222222" },
      }),
      resource("web", { kind: "Queue", name: "jobs" }),
    ]);
    const used = report.reaches.filter((r) => r.resources !== undefined).map((r) => [r.grant, r.resources]);
    assert.deepEqual(used, [
      ["accountMap:ack-role-account-map/111111111111", ["Bucket shop/assets"]],
      ["resourceAccount:ack-role-account-map/222222222222", ["Bucket web/exports"]],
      ["teamMap:ack-role-team-map/web", ["Queue web/jobs"]],
    ]);
  });

  test("no region anywhere: the plain resource waits, the reach is still listed (the resource may name one)", () => {
    const report = audit(
      {
        namespaces: [namespace("shop", { "services.k8s.aws/owner-account-id": "111111111111" })],
        configMaps: objects.configMaps ?? [],
      },
      settingsWith({ defaultRegion: null }),
    );
    const shop = report.namespaces.find((n) => n.name === "shop");
    assert.deepEqual([...new Set(shop?.defaults.map((d) => d.outcome))], ["wait"]);
    assert.match(shop?.defaults.find((d) => d.kind === "Bucket")?.message ?? "", /no region for Bucket shop/);
    const reach = report.reaches.find((r) => r.namespace === "shop" && r.actual);
    assert.equal(reach?.roleARN, role("111111111111", "shop"));
    assert.match(
      reach?.how ?? "",
      /^a plain resource \(once it names a region\): the namespace is annotated/,
    );
  });
});

describe("computeAudit: IAMRoleSelector mode", () => {
  const objects: ConfigObjects = {
    namespaces: [
      namespace("a", {}, { team: "a" }),
      namespace("b", {}, { team: "b" }),
      namespace("c", {}, { team: "c" }),
    ],
    iamRoleSelectors: [
      selector("team-a", {
        arn: role("111111111111", "a"),
        namespaceSelector: { labelSelector: { matchLabels: { team: "a" } } },
      }),
      selector("a-buckets", {
        arn: role("111111111111", "a-buckets"),
        namespaceSelector: { names: ["a"] },
        resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }],
      }),
      selector("web", {
        arn: role("222222222222", "web"),
        namespaceSelector: {
          labelSelector: { matchExpressions: [{ key: "team", operator: "In", values: ["b", "c"] }] },
        },
        resourceLabelSelector: { matchLabels: { app: "web" } },
      }),
      selector("never", {
        arn: role("222222222222", "never"),
        namespaceSelector: { names: ["c"] },
        resourceLabelSelector: {
          matchExpressions: [
            { key: "app", operator: "In", values: ["x"] },
            { key: "app", operator: "NotIn", values: ["x"] },
          ],
        },
      }),
    ],
    identities: [controllerIdentity({ list: ["c"] })],
  };
  const report = audit(objects, selectorMode);

  test("actual, conflicting, label-only and unreachable selectors", () => {
    assert.deepEqual(reachesOf(report, "a"), [
      "a IAMRoleSelector:a-buckets potential [Bucket]",
      `a IAMRoleSelector:team-a actual [${allButBucket}]`,
      "a IAMRoleSelector:team-a potential [Bucket]",
    ]);
    assert.deepEqual(reachesOf(report, "b"), ["b IAMRoleSelector:web potential"]);
    assert.deepEqual(reachesOf(report, "c"), [
      "c IAMRoleSelector:web potential",
      "c controller:default actual",
      "c identity:AWSControllerIdentity/default potential",
    ]);
    const hows = new Map(report.reaches.map((r) => [`${r.namespace} ${r.grant} ${r.actual}`, r.how]));
    assert.equal(
      hows.get("a IAMRoleSelector:a-buckets false"),
      "resources annotated services.k8s.aws/iam-role-selector: a-buckets (several selectors match)",
    );
    assert.equal(hows.get("b IAMRoleSelector:web false"), "resources with labels matching app=web");
    const conflict = report.findings.find((f) => f.code === "Conflict");
    assert.deepEqual(conflict?.namespaces, ["a"]);
    assert.match(
      conflict?.message ?? "",
      /Bucket in 1 namespace \(a\) are not reconciled: Cannot determine which IAMRoleSelector to use\. Conflicting IAMRoleSelectors: \[a-buckets, team-a\]/,
    );
  });

  test("every potential selector reach is what resolve() decides for a resource taking that route", () => {
    const snapshot = buildSnapshot(objects, selectorMode);
    const checked: string[] = [];
    for (const reach of report.reaches.filter(
      (r: AuditReach) => !r.actual && r.grant.startsWith("IAMRoleSelector:"),
    )) {
      const name = reach.grant.slice("IAMRoleSelector:".length);
      const compiled = snapshot.selectors.byName.get(name)!;
      const labels = compiled.resourceLabels === null ? {} : witnessLabels(compiled.resourceLabels)!;
      for (const kind of reach.kinds) {
        const probe = resource(reach.namespace, {
          kind: kind as "Bucket",
          labels,
          annotations: { [resourceAnnotations.iamRoleSelector]: name },
        });
        const decision = resolve(probe, reach.namespace, snapshot, selectorMode);
        assert.equal(decision.outcome, "use", `${reach.namespace} ${kind} via ${name}: ${decision.message}`);
        assert.equal(decision.roleARN, reach.roleARN);
        checked.push(`${reach.namespace}/${kind}/${name}`);
      }
    }
    assert.equal(checked.length, 1 + 1 + 2 * resourceKinds.length);
  });

  test("witnessLabels finds a label set each satisfiable selector matches, and none for a contradiction", () => {
    const compiled = buildSnapshot(objects, selectorMode).selectors.byName;
    assert.deepEqual(witnessLabels(compiled.get("web")!.resourceLabels!), { app: "web" });
    assert.equal(witnessLabels(compiled.get("never")!.resourceLabels!), null);
  });
});

describe("computeAudit: configuration problems", () => {
  test("the CARM keys the settings leave unused are listed with the snapshot's problems, for the audited kinds", () => {
    const objects = {
      configMaps: [
        configMap("ack-role-account-map", {
          "sqs.222222222222": role("222222222222"),
          "12345": role("111111111111"),
        }),
      ],
    };
    const fields = (report: AuditReport) => report.problems.map((p) => [p.field, p.reason ?? null]);
    assert.deepEqual(fields(audit(objects)), [
      ["data[12345]", null],
      ["data[sqs.222222222222]", "UnusedCarmKey"],
    ]);
    assert.deepEqual(fields(audit(objects, settingsWith({ gates: { ServiceLevelCARM: true } }))), [
      ["data[12345]", null],
    ]);
  });
});
