import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configMap, namespace, resource, role, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { resolve } from "./resolve.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { ConfigObjects, FeatureGates, ResourceObject } from "./types.ts";

const owner = "services.k8s.aws/owner-account-id";
const team = "services.k8s.aws/team-id";
const allowed = "services.k8s.aws/allowed-owner-account-ids";

function decide(objects: ConfigObjects, r: ResourceObject, ns: string, gates: Partial<FeatureGates> = {}) {
  const settings = settingsWith({ gates });
  return resolve(r, ns, buildSnapshot(objects, settings), settings);
}

describe("CARM account map (namespace owner-account-id)", () => {
  const ns = [namespace("shop", { [owner]: "111111111111" })];

  test("the legacy map maps the account to a role; the role's account is used", () => {
    const d = decide(
      {
        namespaces: ns,
        configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111") })],
      },
      resource("shop"),
      "shop",
    );
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "accountCARM");
    assert.equal(d.roleARN, role("111111111111"));
    assert.equal(d.account, "111111111111");
    assert.deepEqual(
      d.chain.map((h) => [h.kind, h.name]),
      [
        ["AWSControllerIdentity", "default"],
        ["CARM", "111111111111"],
      ],
    );
  });

  test("ack-carm-map's owner-account-id/<id> works on its own", () => {
    const d = decide(
      {
        namespaces: ns,
        configMaps: [configMap("ack-carm-map", { "owner-account-id/111111111111": role("111111111111") })],
      },
      resource("shop"),
      "shop",
    );
    assert.equal(d.outcome, "use");
    assert.equal(d.chain[1]!.name, "owner-account-id/111111111111");
  });

  test("both maps with the same role agree", () => {
    const d = decide(
      {
        namespaces: ns,
        configMaps: [
          configMap("ack-role-account-map", { "111111111111": role("111111111111") }),
          configMap("ack-carm-map", { "owner-account-id/111111111111": role("111111111111") }),
        ],
      },
      resource("shop"),
      "shop",
    );
    assert.equal(d.outcome, "use");
  });

  test("both maps with different roles → conflict listing both (fail closed)", () => {
    const d = decide(
      {
        namespaces: ns,
        configMaps: [
          configMap("ack-role-account-map", { "111111111111": role("111111111111", "old") }),
          configMap("ack-carm-map", { "owner-account-id/111111111111": role("111111111111", "new") }),
        ],
      },
      resource("shop"),
      "shop",
    );
    assert.equal(d.outcome, "conflict");
    assert.equal(d.reason, "IdentityConflict");
    assert.equal(d.source, "accountCARM");
    assert.match(
      d.message,
      /ack-carm-map key owner-account-id\/111111111111 = "arn:aws:iam::111111111111:role\/new"; ConfigMap ack-system\/ack-role-account-map key 111111111111 = "arn:aws:iam::111111111111:role\/old"/,
    );
  });

  const waits: readonly [string, unknown[], RegExp][] = [
    [
      "no map at all",
      [],
      /no CARM ConfigMap ack-role-account-map or ack-carm-map exists in namespace ack-system; create ack-role-account-map key 111111111111 or ack-carm-map key owner-account-id\.111111111111/,
    ],
    [
      "the key is missing",
      [configMap("ack-role-account-map", { "222222222222": role("222222222222") })],
      /ConfigMap ack-system\/ack-role-account-map has no key 111111111111 \(ack-carm-map does not exist\)/,
    ],
    [
      "the value is empty",
      [configMap("ack-role-account-map", { "111111111111": "" })],
      /ConfigMap ack-system\/ack-role-account-map key 111111111111 is empty/,
    ],
    [
      "the value is not a role ARN",
      [configMap("ack-role-account-map", { "111111111111": "arn:aws:iam::111111111111:user/x" })],
      /key 111111111111: "arn:aws:iam::111111111111:user\/x" is not an IAM role ARN/,
    ],
    [
      "the map exists only in another namespace",
      [configMap("ack-role-account-map", { "111111111111": role("111111111111") }, "shop")],
      /no CARM ConfigMap/,
    ],
    [
      "the map is listed twice with different data",
      [
        configMap("ack-role-account-map", { "111111111111": role("111111111111") }),
        configMap("ack-role-account-map", { "111111111111": role("111111111111", "x") }),
      ],
      /listed more than once with different data/,
    ],
  ];
  for (const [name, maps, message] of waits) {
    test(`${name} → wait naming map and key, never the controller's account`, () => {
      const d = decide({ namespaces: ns, configMaps: maps }, resource("shop"), "shop");
      assert.equal(d.outcome, "wait");
      assert.equal(d.reason, "IdentityUnavailable");
      assert.equal(d.source, "accountCARM");
      assert.equal(d.account, null);
      assert.equal(d.roleARN, null);
      assert.match(d.message, message);
    });
  }

  test("a malformed owner-account-id annotation → wait naming the namespace annotation", () => {
    const d = decide({ namespaces: [namespace("shop", { [owner]: "12345" })] }, resource("shop"), "shop");
    assert.equal(d.outcome, "wait");
    assert.match(
      d.message,
      /namespace shop: annotation services.k8s.aws\/owner-account-id: "12345" is not a 12-digit AWS account ID/,
    );
  });

  test("a key in another account than the role's: the role's account wins, with a trace note", () => {
    const d = decide(
      {
        namespaces: ns,
        configMaps: [configMap("ack-role-account-map", { "111111111111": role("222222222222") })],
      },
      resource("shop"),
      "shop",
    );
    assert.equal(d.account, "222222222222");
    assert.ok(d.trace.some((t) => /the role's account is used/.test(t.detail)));
  });
});

describe("ServiceLevelCARM", () => {
  const ns = [namespace("shop", { [owner]: "111111111111" })];
  const maps = [
    configMap("ack-role-account-map", {
      "111111111111": role("111111111111", "all"),
      "s3.111111111111": role("111111111111", "s3"),
    }),
  ];

  test("with the gate, <service>.<id> is tried first", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, resource("shop", { kind: "Bucket" }), "shop", {
      ServiceLevelCARM: true,
    });
    assert.equal(d.roleARN, role("111111111111", "s3"));
  });

  test("with the gate, another service falls back to <id>", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, resource("shop", { kind: "Queue" }), "shop", {
      ServiceLevelCARM: true,
    });
    assert.equal(d.roleARN, role("111111111111", "all"));
    assert.ok(d.trace.some((t) => /no usable service-level key sqs.111111111111/.test(t.detail)));
  });

  test("without the gate, the service key is not consulted", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, resource("shop", { kind: "Bucket" }), "shop");
    assert.equal(d.roleARN, role("111111111111", "all"));
  });

  test("an empty service-level value falls back (as ACK); a malformed one waits", () => {
    const empty = [
      configMap("ack-role-account-map", {
        "111111111111": role("111111111111", "all"),
        "s3.111111111111": "",
      }),
    ];
    assert.equal(
      decide({ namespaces: ns, configMaps: empty }, resource("shop"), "shop", { ServiceLevelCARM: true })
        .roleARN,
      role("111111111111", "all"),
    );
    const bad = [
      configMap("ack-role-account-map", {
        "111111111111": role("111111111111", "all"),
        "s3.111111111111": "nope",
      }),
    ];
    const d = decide({ namespaces: ns, configMaps: bad }, resource("shop"), "shop", {
      ServiceLevelCARM: true,
    });
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /s3.111111111111/);
  });

  test("conflicting service-level keys across maps → conflict, no fallback", () => {
    const both = [
      ...maps,
      configMap("ack-carm-map", { "owner-account-id/s3.111111111111": role("111111111111", "other") }),
    ];
    const d = decide({ namespaces: ns, configMaps: both }, resource("shop"), "shop", {
      ServiceLevelCARM: true,
    });
    assert.equal(d.outcome, "conflict");
  });
});

describe("CARM team map (TeamLevelCARM)", () => {
  const ns = [namespace("t", { [team]: "team-a", [owner]: "111111111111" })];
  const maps = [
    configMap("ack-role-team-map", {
      "team-a": role("333333333333", "team-a"),
      "s3.team-a": role("333333333333", "team-a-s3"),
    }),
    configMap("ack-role-account-map", { "111111111111": role("111111111111") }),
  ];

  test("the team map wins over the namespace's owner-account-id; the role's account is used", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, resource("t"), "t", { TeamLevelCARM: true });
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "teamCARM");
    assert.equal(d.roleARN, role("333333333333", "team-a"));
    assert.equal(d.account, "333333333333");
  });

  test("with ServiceLevelCARM, <service>.<team> first", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, resource("t"), "t", {
      TeamLevelCARM: true,
      ServiceLevelCARM: true,
    });
    assert.equal(d.roleARN, role("333333333333", "team-a-s3"));
  });

  test("with the gate off, team-id is ignored and the account map applies", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, resource("t"), "t");
    assert.equal(d.source, "accountCARM");
    assert.ok(d.trace.some((t) => /TeamLevelCARM is off/.test(t.detail)));
  });

  test("a missing team key → wait naming the team map and ack-carm-map, not the account map", () => {
    const d = decide(
      { namespaces: [namespace("t", { [team]: "team-b", [owner]: "111111111111" })], configMaps: maps },
      resource("t"),
      "t",
      { TeamLevelCARM: true },
    );
    assert.equal(d.outcome, "wait");
    assert.equal(d.source, "teamCARM");
    assert.match(d.message, /ack-role-team-map has no key team-b/);
    assert.match(d.message, /never falling back/);
  });

  test("ack-carm-map team entries: role-arn sub-key, endpoint and external ID", () => {
    const carm = configMap("ack-carm-map", {
      "team-id/team-a/role-arn": role("333333333333", "team-a"),
      "team-id/team-a/endpoint": "https://vpce-1.example.com",
      "team-id/team-a/external-id": "ext-team-a",
    });
    const d = decide({ namespaces: ns, configMaps: [carm] }, resource("t"), "t", { TeamLevelCARM: true });
    assert.equal(d.outcome, "use");
    assert.equal(d.endpoint, "https://vpce-1.example.com");
    assert.equal(d.chain[1]!.parameters.externalID, "ext-team-a");
    assert.equal(d.chain[1]!.name, "team-id/team-a/role-arn");
  });

  test("team-id/<team> and team-id/<team>/role-arn disagreeing → conflict", () => {
    const carm = configMap("ack-carm-map", {
      "team-id/team-a": role("333333333333", "one"),
      "team-id/team-a/role-arn": role("333333333333", "two"),
    });
    assert.equal(
      decide({ namespaces: ns, configMaps: [carm] }, resource("t"), "t", { TeamLevelCARM: true }).outcome,
      "conflict",
    );
  });

  test("a malformed team endpoint → wait (credentials never go to an unintended endpoint)", () => {
    const carm = configMap("ack-carm-map", {
      "team-id/team-a": role("333333333333"),
      "team-id/team-a/endpoint": "ftp://x",
    });
    const d = decide({ namespaces: ns, configMaps: [carm] }, resource("t"), "t", { TeamLevelCARM: true });
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /team-id\/team-a\/endpoint/);
  });
});

describe("resource-level owner-account-id (ResourceLevelCARM)", () => {
  const ns = [
    namespace("shop", { [owner]: "111111111111", [allowed]: "222222222222, 111111111111" }),
    namespace("closed", { [owner]: "111111111111" }),
  ];
  const maps = [
    configMap("ack-role-account-map", {
      "111111111111": role("111111111111"),
      "222222222222": role("222222222222", "central"),
    }),
  ];
  const db = (ns: string, account: string) =>
    resource(ns, { kind: "DBInstance", annotations: { [owner]: account } });

  test("with the gate and an allowed account, the account map is used for that account", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, db("shop", "222222222222"), "shop", {
      ResourceLevelCARM: true,
    });
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "accountCARM");
    assert.equal(d.account, "222222222222");
    assert.equal(d.roleARN, role("222222222222", "central"));
  });

  test("with the gate and an account the namespace does not list → deny", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, db("shop", "333333333333"), "shop", {
      ResourceLevelCARM: true,
    });
    assert.equal(d.outcome, "deny");
    assert.equal(d.reason, "IdentityNotPermitted");
    assert.match(
      d.message,
      /asks for account 333333333333.*namespace shop does not allow it: services.k8s.aws\/allowed-owner-account-ids which lists \[111111111111, 222222222222\]/,
    );
  });

  test("with the gate and no allowed list on the namespace → deny", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, db("closed", "222222222222"), "closed", {
      ResourceLevelCARM: true,
    });
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /which is not set/);
  });

  test("with the gate, a malformed account → deny", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, db("shop", "22"), "shop", {
      ResourceLevelCARM: true,
    });
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /"22" .* is not a 12-digit AWS account ID/);
  });

  test("without the gate the annotation is ignored with a warning in the trace", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, db("shop", "222222222222"), "shop");
    assert.equal(d.outcome, "use");
    assert.equal(d.account, "111111111111");
    assert.ok(
      d.trace.some((t) =>
        /^Warning: .* is ignored because feature gate ResourceLevelCARM is off/.test(t.detail),
      ),
    );
    assert.equal(d.warnings.length, 1);
    assert.equal(d.warnings[0]?.reason, "AnnotationIgnored");
    assert.match(
      d.warnings[0]?.message ?? "",
      /owner-account-id=222222222222 .* is ignored because feature gate ResourceLevelCARM is off/,
    );
  });
});

describe("status ownerAccountID is a record, never an input (DESIGN §3.4)", () => {
  const maps = [configMap("ack-role-account-map", { "444444444444": role("444444444444") })];

  test("a forged recorded account never sends the resource to the account map: it drifts instead", () => {
    const d = decide(
      { namespaces: [namespace("plain")], configMaps: maps },
      resource("plain", { status: { ownerAccountID: "444444444444" } }),
      "plain",
    );
    assert.equal(d.source, "default");
    assert.equal(d.roleARN, null);
    assert.equal(d.account, "999999999999");
    assert.equal(d.reason, "AccountDrift");
    assert.deepEqual(d.drift, {
      kind: "account",
      message:
        "Resource already exists in account 444444444444, but the role used for reconciliation is in account 999999999999",
    });
    assert.ok(!d.chain.some((h) => h.roleARN !== undefined), "no role is assumed");
  });

  test("a recorded account missing from the maps is not waited on either", () => {
    const d = decide(
      { namespaces: [namespace("plain")] },
      resource("plain", { status: { ownerAccountID: "555555555555" } }),
      "plain",
    );
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "default");
    assert.equal(d.reason, "AccountDrift");
  });

  test("the controller's own account recorded → default identity, no drift", () => {
    const d = decide(
      { namespaces: [namespace("plain")] },
      resource("plain", { status: { ownerAccountID: "999999999999" } }),
      "plain",
    );
    assert.equal(d.source, "default");
    assert.equal(d.outcome, "use");
    assert.equal(d.drift, null);
  });

  test("the namespace annotation decides; a different recorded account drifts", () => {
    const d = decide(
      { namespaces: [namespace("shop", { [owner]: "444444444444" })], configMaps: maps },
      resource("shop", { status: { ownerAccountID: "555555555555" } }),
      "shop",
    );
    assert.equal(d.outcome, "use");
    assert.equal(d.roleARN, role("444444444444"));
    assert.equal(d.reason, "AccountDrift");
  });
});

describe("a resource-level owner-account-id the mode ignores is a warning, not silence", () => {
  const annotated = (extra: Parameters<typeof resource>[1] = {}) =>
    resource("plain", { annotations: { [owner]: "222222222222" }, ...extra });

  test("IAMRoleSelector mode", () => {
    const settings = settingsWith({ gates: { IAMRoleSelector: true } });
    const d = resolve(
      annotated(),
      "plain",
      buildSnapshot({ namespaces: [namespace("plain")] }, settings),
      settings,
    );
    assert.equal(d.outcome, "use");
    assert.deepEqual(d.warnings.length, 1);
    assert.match(
      d.warnings[0]?.message ?? "",
      /is ignored because the controller runs in IAMRoleSelector mode/,
    );
  });

  test("--enable-carm=false", () => {
    const settings = settingsWith({ enableCARM: false });
    const d = resolve(
      annotated(),
      "plain",
      buildSnapshot({ namespaces: [namespace("plain")] }, settings),
      settings,
    );
    assert.match(d.warnings[0]?.message ?? "", /is ignored because CARM is disabled/);
  });

  test("spec.identityRef takes precedence", () => {
    const d = decide(
      { namespaces: [namespace("plain")] },
      annotated({ identityRef: { kind: "AWSControllerIdentity", name: "default" } }),
      "plain",
    );
    assert.match(d.warnings[0]?.message ?? "", /is ignored because spec.identityRef takes precedence/);
  });

  test("no annotation, no warning", () => {
    const d = decide({ namespaces: [namespace("plain")] }, resource("plain"), "plain");
    assert.deepEqual(d.warnings, []);
  });
});

describe("CARM off", () => {
  test("--enable-carm=false ignores CARM annotations and uses the default identity", () => {
    const settings = settingsWith({ enableCARM: false });
    const snapshot = buildSnapshot(
      { namespaces: [namespace("shop", { [owner]: "111111111111" })] },
      settings,
    );
    const d = resolve(resource("shop"), "shop", snapshot, settings);
    assert.equal(d.source, "default");
    assert.ok(d.trace.some((t) => /--enable-carm=false/.test(t.detail)));
  });

  test("a plain namespace uses the default identity in CARM mode", () => {
    const d = decide({ namespaces: [namespace("plain")] }, resource("plain"), "plain");
    assert.equal(d.source, "default");
    assert.equal(d.account, "999999999999");
  });
});
