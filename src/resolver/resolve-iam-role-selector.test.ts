import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  controllerIdentity,
  namespace,
  resource,
  role,
  selector,
  selectorMode,
} from "../../test/support/resolver-fixtures.ts";
import { resolve } from "./resolve.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { ConfigObjects, ResourceObject } from "./types.ts";

const settings = selectorMode;

const namespaces = [
  namespace("sky-dev-team", {}, { env: "dev", team: "sky" }),
  namespace("sky-prod", {}, { env: "prod", team: "sky" }),
  namespace("other", {}, { env: "dev" }),
];

function decide(selectors: unknown[], r: ResourceObject, ns: string, extra: ConfigObjects = {}) {
  const snapshot = buildSnapshot({ namespaces, iamRoleSelectors: selectors, ...extra }, settings);
  return resolve(r, ns, snapshot, settings);
}

describe("IAMRoleSelector matching (all parts ANDed)", () => {
  const arn = role("111111111111", "XAccountS3");
  const cases: readonly {
    name: string;
    spec: Record<string, unknown>;
    ns: string;
    r?: Parameters<typeof resource>[1];
    matches: boolean;
  }[] = [
    { name: "no constraints match everything", spec: {}, ns: "other", matches: true },
    {
      name: "names: listed namespace",
      spec: { namespaceSelector: { names: ["sky-dev-team"] } },
      ns: "sky-dev-team",
      matches: true,
    },
    {
      name: "names: OR within the list",
      spec: { namespaceSelector: { names: ["a", "sky-prod"] } },
      ns: "sky-prod",
      matches: true,
    },
    {
      name: "names: unlisted namespace",
      spec: { namespaceSelector: { names: ["sky-dev-team"] } },
      ns: "other",
      matches: false,
    },
    {
      name: "empty names list constrains nothing (ACK)",
      spec: { namespaceSelector: { names: [] } },
      ns: "other",
      matches: true,
    },
    {
      name: "labelSelector matchLabels",
      spec: { namespaceSelector: { labelSelector: { matchLabels: { team: "sky" } } } },
      ns: "sky-prod",
      matches: true,
    },
    {
      name: "labelSelector refuses",
      spec: { namespaceSelector: { labelSelector: { matchLabels: { team: "sky" } } } },
      ns: "other",
      matches: false,
    },
    {
      name: "labelSelector matchExpressions NotIn matches a missing key",
      spec: {
        namespaceSelector: {
          labelSelector: { matchExpressions: [{ key: "team", operator: "NotIn", values: ["sky"] }] },
        },
      },
      ns: "other",
      matches: true,
    },
    {
      name: "names AND labelSelector",
      spec: {
        namespaceSelector: {
          names: ["sky-dev-team", "sky-prod"],
          labelSelector: { matchLabels: { env: "prod" } },
        },
      },
      ns: "sky-dev-team",
      matches: false,
    },
    {
      name: "resourceTypeSelector design form {apiVersion, kind}",
      spec: { resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }] },
      ns: "other",
      matches: true,
    },
    {
      name: "resourceTypeSelector design form without kind = any kind of that apiVersion",
      spec: { resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1" }] },
      ns: "other",
      matches: true,
    },
    {
      name: "resourceTypeSelector another kind",
      spec: { resourceTypeSelector: [{ apiVersion: "rds.services.k8s.aws/v1alpha1", kind: "DBInstance" }] },
      ns: "other",
      matches: false,
    },
    {
      name: 'resourceTypeSelector ACK code form, "" = any',
      spec: { resourceTypeSelector: [{ group: "s3.services.k8s.aws", version: "", kind: "" }] },
      ns: "other",
      matches: true,
    },
    {
      name: "resourceTypeSelector version must match when given",
      spec: { resourceTypeSelector: [{ group: "s3.services.k8s.aws", version: "v1", kind: "Bucket" }] },
      ns: "other",
      matches: false,
    },
    {
      name: "resourceTypeSelector OR across entries",
      spec: {
        resourceTypeSelector: [
          { group: "rds.services.k8s.aws", version: "", kind: "DBInstance" },
          { group: "", version: "", kind: "Bucket" },
        ],
      },
      ns: "other",
      matches: true,
    },
    {
      name: "resourceLabelSelector on the resource's labels",
      spec: { resourceLabelSelector: { matchLabels: { app: "web" } } },
      ns: "other",
      r: { labels: { app: "web" } },
      matches: true,
    },
    {
      name: "resourceLabelSelector refuses",
      spec: { resourceLabelSelector: { matchLabels: { app: "web" } } },
      ns: "other",
      r: { labels: { app: "db" } },
      matches: false,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const d = decide([selector("s", { arn, ...c.spec })], resource(c.ns, c.r), c.ns);
      assert.equal(d.outcome, "use");
      assert.equal(d.source, c.matches ? "iamRoleSelector" : "default", d.message);
    });
  }
});

describe("IAMRoleSelector mode outcomes", () => {
  const a = selector(
    "a",
    { arn: role("111111111111", "a"), namespaceSelector: { names: ["sky-dev-team"] } },
    "11",
  );
  const b = selector(
    "b",
    {
      arn: role("222222222222", "b"),
      namespaceSelector: { labelSelector: { matchLabels: { team: "sky" } } },
    },
    "22",
  );
  const c = selector(
    "c",
    {
      arn: role("333333333333", "c"),
      resourceTypeSelector: [{ apiVersion: "rds.services.k8s.aws/v1alpha1" }],
    },
    "33",
  );

  test("none matches → the default identity (controller credentials, controller account)", () => {
    const d = decide([a, b], resource("other"), "other");
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "default");
    assert.equal(d.roleARN, null);
    assert.equal(d.account, "999999999999");
    assert.equal(d.selector, null);
    assert.deepEqual(
      d.chain.map((h) => h.kind),
      ["AWSControllerIdentity"],
    );
  });

  test("exactly one matches → its role, assumed from the controller identity", () => {
    const d = decide([a, b], resource("sky-prod"), "sky-prod");
    assert.equal(d.outcome, "use");
    assert.equal(d.reason, "Selected");
    assert.equal(d.source, "iamRoleSelector");
    assert.equal(d.roleARN, role("222222222222", "b"));
    assert.equal(d.account, "222222222222");
    assert.deepEqual(d.selector, { name: "b", resourceVersion: "22" });
    assert.deepEqual(
      d.chain.map((h) => [h.kind, h.name]),
      [
        ["AWSControllerIdentity", "default"],
        ["IAMRoleSelector", "b"],
      ],
    );
    assert.equal(d.chain[1]!.parameters.sessionName, "crossrole-b");
    assert.match(d.message, /IAMRoleSelector b \(resourceVersion 22\)/);
  });

  test("several match → conflict with ACK's exact message, names sorted", () => {
    const d = decide([b, a], resource("sky-dev-team"), "sky-dev-team");
    assert.equal(d.outcome, "conflict");
    assert.equal(d.reason, "IdentityConflict");
    assert.equal(d.source, "iamRoleSelector");
    assert.equal(
      d.message,
      "Cannot determine which IAMRoleSelector to use. Conflicting IAMRoleSelectors: [a, b]",
    );
    assert.ok(d.trace.some((t) => t.detail.includes("services.k8s.aws/iam-role-selector")));
  });

  test("several match → the annotation picks one of them", () => {
    const r = resource("sky-dev-team", { annotations: { "services.k8s.aws/iam-role-selector": "b" } });
    const d = decide([a, b], r, "sky-dev-team");
    assert.equal(d.outcome, "use");
    assert.deepEqual(d.selector, { name: "b", resourceVersion: "22" });
  });

  test("the annotation cannot pick a selector that does not match the resource", () => {
    const r = resource("sky-dev-team", { annotations: { "services.k8s.aws/iam-role-selector": "c" } });
    const d = decide([a, b, c], r, "sky-dev-team");
    assert.equal(d.outcome, "deny");
    assert.match(
      d.message,
      /names IAMRoleSelector c, but it does not apply to this resource: s3.services.k8s.aws\/v1alpha1\/Bucket is not one of its resourceTypeSelector entries/,
    );
    assert.match(d.message, /matching selectors: \[a, b\]/);
  });

  test("the annotation naming an unknown selector is denied even when one selector matches", () => {
    const r = resource("sky-prod", { annotations: { "services.k8s.aws/iam-role-selector": "zzz" } });
    const d = decide([a, b], r, "sky-prod");
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /no IAMRoleSelector has that name/);
  });

  test("the annotation naming an invalid selector says why it is ignored", () => {
    const bad = selector("bad", { arn: "not-an-arn" });
    const r = resource("sky-prod", { annotations: { "services.k8s.aws/iam-role-selector": "bad" } });
    const d = decide([a, bad], r, "sky-prod");
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /it is ignored because it is invalid/);
  });

  test("an invalid selector is ignored (with a problem), so it neither matches nor conflicts", () => {
    const bad = selector("bad", { arn: "arn:aws:iam::1:role/x" });
    const snapshot = buildSnapshot({ namespaces, iamRoleSelectors: [a, bad] }, settings);
    assert.ok(snapshot.problems.some((p) => p.object.name === "bad" && p.field === "spec.arn"));
    const d = resolve(resource("sky-dev-team"), "sky-dev-team", snapshot, settings);
    assert.deepEqual(d.selector, { name: "a", resourceVersion: "11" });
  });

  test("selector session parameters reach the hop", () => {
    const s = selector("p", {
      arn: role("111111111111"),
      externalID: "ext-1",
      sessionName: "my-session",
      durationSeconds: 1800,
      sessionTags: [{ key: "team", value: "sky" }],
      transitiveTagKeys: ["team"],
      tenantSessionTags: true,
    });
    const d = decide([s], resource("other"), "other");
    assert.deepEqual(d.chain[1]!.parameters, {
      sessionName: "my-session",
      durationSeconds: 1800,
      externalID: "ext-1",
      sessionTags: [{ key: "team", value: "sky" }],
      transitiveTagKeys: ["team"],
      tenantSessionTags: true,
    });
  });

  test("the default identity's allowedNamespaces applies when no selector matches, not when one does", () => {
    const extra = { identities: [controllerIdentity({ list: ["sky-prod"] })] };
    const none = decide([a], resource("other"), "other", extra);
    assert.equal(none.outcome, "deny");
    assert.equal(none.source, "default");
    assert.match(none.message, /AWSControllerIdentity default does not allow namespace other/);
    const one = decide([a], resource("sky-dev-team"), "sky-dev-team", extra);
    assert.equal(one.outcome, "use");
    assert.equal(one.source, "iamRoleSelector");
  });

  test("CARM annotations are ignored in IAMRoleSelector mode, and the trace says so", () => {
    const snapshot = buildSnapshot(
      { namespaces: [namespace("carm", { "services.k8s.aws/owner-account-id": "111111111111" })] },
      settings,
    );
    const d = resolve(resource("carm"), "carm", snapshot, settings);
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "default");
    assert.ok(
      d.trace.some((t) => /IAMRoleSelector mode: .*owner-account-id annotation is ignored/.test(t.detail)),
    );
  });

  test("selectors are reached through every index bucket (name, label, type, any)", () => {
    const many = [
      selector("by-name", { arn: role("111111111111"), namespaceSelector: { names: ["sky-prod"] } }),
      selector("by-label", {
        arn: role("111111111111"),
        namespaceSelector: {
          labelSelector: { matchExpressions: [{ key: "env", operator: "In", values: ["prod", "qa"] }] },
        },
      }),
      selector("by-exists", {
        arn: role("111111111111"),
        namespaceSelector: { labelSelector: { matchExpressions: [{ key: "team", operator: "Exists" }] } },
      }),
      selector("by-group-kind", {
        arn: role("111111111111"),
        resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }],
      }),
      selector("by-group", {
        arn: role("111111111111"),
        resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1" }],
      }),
      selector("by-kind", {
        arn: role("111111111111"),
        resourceTypeSelector: [{ group: "", version: "", kind: "Bucket" }],
      }),
      selector("two-entries", {
        arn: role("111111111111"),
        resourceTypeSelector: [
          { group: "s3.services.k8s.aws", version: "", kind: "Bucket" },
          { group: "s3.services.k8s.aws", version: "", kind: "" },
        ],
      }),
      selector("other-ns", { arn: role("111111111111"), namespaceSelector: { names: ["other"] } }),
      selector("other-kind", {
        arn: role("111111111111"),
        resourceTypeSelector: [{ apiVersion: "sqs.services.k8s.aws/v1alpha1", kind: "Queue" }],
      }),
    ];
    const d = decide(many, resource("sky-prod"), "sky-prod");
    assert.equal(
      d.message,
      "Cannot determine which IAMRoleSelector to use. Conflicting IAMRoleSelectors: [by-exists, by-group, by-group-kind, by-kind, by-label, by-name, two-entries]",
    );
  });
});
