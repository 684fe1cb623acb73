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
  settingsWith,
  staticIdentity,
} from "../../test/support/resolver-fixtures.ts";
import { resolve } from "./resolve.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { ConfigObjects, ResourceObject, Settings } from "./types.ts";

const region = "services.k8s.aws/region";
const defaultRegion = "services.k8s.aws/default-region";
const endpointUrl = "services.k8s.aws/endpoint-url";
const owner = "services.k8s.aws/owner-account-id";

function decide(objects: ConfigObjects, r: ResourceObject, ns: string, settings: Settings = settingsWith()) {
  return resolve(r, ns, buildSnapshot(objects, settings), settings);
}

describe("region precedence: status > resource annotation > namespace default > flag", () => {
  const ns = [namespace("r", { [defaultRegion]: "eu-central-1" }), namespace("plain")];
  const cases: readonly [string, Parameters<typeof resource>[1], string, string][] = [
    ["the flag", {}, "plain", "eu-west-1"],
    ["the namespace default over the flag", {}, "r", "eu-central-1"],
    [
      "the resource annotation over the namespace",
      { annotations: { [region]: "us-east-1" } },
      "r",
      "us-east-1",
    ],
    ["the recorded region over everything", { status: { region: "ap-southeast-2" } }, "r", "ap-southeast-2"],
  ];
  for (const [name, options, where, expected] of cases) {
    test(name, () => {
      const d = decide({ namespaces: ns }, resource(where, options), where);
      assert.equal(d.outcome, "use");
      assert.equal(d.region, expected);
      assert.equal(d.drift, null);
    });
  }

  test("no region anywhere → wait naming the three places to set one", () => {
    const d = decide({ namespaces: ns }, resource("plain"), "plain", settingsWith({ defaultRegion: null }));
    assert.equal(d.outcome, "wait");
    assert.match(
      d.message,
      /no region for Bucket plain\/thing: set the annotation services.k8s.aws\/region .*default-region on namespace plain, or the controller's --aws-region/,
    );
  });

  test("a malformed region annotation → wait naming it", () => {
    const d = decide({ namespaces: ns }, resource("plain", { annotations: { [region]: "mars" } }), "plain");
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /annotation services.k8s.aws\/region "mars"/);
  });

  test("a malformed namespace default-region → wait naming the namespace annotation", () => {
    const d = decide({ namespaces: [namespace("bad", { [defaultRegion]: "EU" })] }, resource("bad"), "bad");
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /namespace bad: annotation services.k8s.aws\/default-region/);
  });
});

describe("a region the AWS SDK does not know is used, with a warning", () => {
  const ns = [namespace("mars", { [defaultRegion]: "xx-fake-9" }), namespace("plain")];
  const awsPattern = String.raw`aws ^(us|eu|ap|sa|ca|me|af|il|mx)\-\w+\-\d+$`;
  const cases: readonly [string, Parameters<typeof resource>[1], string, Settings, string, string][] = [
    [
      "from the resource's annotation",
      { annotations: { [region]: "mars-north-1" } },
      "plain",
      settingsWith(),
      "mars-north-1",
      "the resource's annotation services.k8s.aws/region",
    ],
    [
      "from the namespace's default",
      {},
      "mars",
      settingsWith(),
      "xx-fake-9",
      "namespace mars's annotation services.k8s.aws/default-region",
    ],
    [
      "from the controller's flag",
      {},
      "plain",
      settingsWith({ defaultRegion: "mars-north-1" }),
      "mars-north-1",
      "the controller's --aws-region",
    ],
    [
      "from status (recorded)",
      { status: { region: "mars-north-1" } },
      "plain",
      settingsWith(),
      "mars-north-1",
      "status.ackResourceMetadata.region",
    ],
  ];
  for (const [name, options, where, settings, expected, from] of cases) {
    test(name, () => {
      const d = decide({ namespaces: ns }, resource(where, options), where, settings);
      assert.equal(d.outcome, "use", d.message);
      assert.equal(d.reason, "Selected");
      assert.equal(d.region, expected);
      assert.equal(d.drift, null);
      assert.equal(d.warnings.length, 1);
      const w = d.warnings[0];
      assert.equal(w?.reason, "UnknownRegion");
      assert.ok(
        w?.message.startsWith(`Region ${expected} (${from}) is not known to any AWS partition`),
        w?.message,
      );
      assert.ok(w?.message.includes(awsPattern), w?.message);
      assert.ok(
        d.trace.some(
          (s) => s.rule === "region" && s.result === "info" && s.detail.startsWith("Warning: region"),
        ),
      );
    });
  }

  test("a listed region gives no warning", () => {
    for (const r of ["eu-west-1", "us-gov-west-1", "cn-north-1"]) {
      const d = decide({ namespaces: ns }, resource("plain", { annotations: { [region]: r } }), "plain");
      assert.equal(d.region, r);
      assert.deepEqual(d.warnings, [], r);
    }
  });
});

describe("region drift", () => {
  test("the annotation asking for another region than the recorded one → RegionDrift with ACK's message", () => {
    const r = resource("plain", { annotations: { [region]: "us-west-2" }, status: { region: "eu-west-1" } });
    const d = decide({ namespaces: [namespace("plain")] }, r, "plain");
    assert.equal(d.outcome, "use");
    assert.equal(d.reason, "RegionDrift");
    assert.equal(d.region, "eu-west-1");
    assert.deepEqual(d.drift, {
      kind: "region",
      message:
        "Resource already exists in region eu-west-1, but the desired state specifies region us-west-2",
    });
    assert.equal(d.message, d.drift?.message);
  });

  test("a changed namespace default does not move an existing resource", () => {
    const r = resource("r", { status: { region: "eu-west-1" } });
    const d = decide({ namespaces: [namespace("r", { [defaultRegion]: "us-east-1" })] }, r, "r");
    assert.equal(d.drift, null);
    assert.equal(d.region, "eu-west-1");
  });
});

describe("account and account drift", () => {
  const ns = [namespace("shop", { [owner]: "111111111111" })];
  const maps = [configMap("ack-role-account-map", { "111111111111": role("111111111111") })];
  const moved = resource("shop", { status: { ownerAccountID: "222222222222", arn: "arn:aws:s3:::old" } });

  test("block (default): a recorded account other than the role's → AccountDrift with ACK's message", () => {
    const d = decide({ namespaces: ns, configMaps: maps }, moved, "shop");
    assert.equal(d.outcome, "use");
    assert.equal(d.reason, "AccountDrift");
    assert.deepEqual(d.drift, {
      kind: "account",
      message:
        "Resource already exists in account 222222222222, but the role used for reconciliation is in account 111111111111",
    });
  });

  test("recreate: follow the new role, and say so in the trace", () => {
    const d = decide(
      { namespaces: ns, configMaps: maps },
      moved,
      "shop",
      settingsWith({ accountDriftPolicy: "recreate" }),
    );
    assert.equal(d.reason, "Selected");
    assert.equal(d.drift, null);
    assert.equal(d.account, "111111111111");
    assert.ok(
      d.trace.some((t) => /recreate: following the new role, the old ARN arn:aws:s3:::old/.test(t.detail)),
    );
  });

  test("region drift is reported before account drift", () => {
    const r = resource("shop", {
      annotations: { [region]: "us-east-1" },
      status: { ownerAccountID: "222222222222", region: "eu-west-1" },
    });
    const d = decide({ namespaces: ns, configMaps: maps }, r, "shop");
    assert.equal(d.reason, "RegionDrift");
    assert.ok(d.trace.some((t) => t.rule === "account drift"));
  });

  test("controller credentials: the controller's account; unknown offline → null", () => {
    assert.equal(
      decide({ namespaces: [namespace("plain")] }, resource("plain"), "plain").account,
      "999999999999",
    );
    const d = decide(
      { namespaces: [namespace("plain")] },
      resource("plain"),
      "plain",
      settingsWith({ controllerAccount: null }),
    );
    assert.equal(d.outcome, "use");
    assert.equal(d.account, null);
    assert.match(d.message, /account \(from sts:GetCallerIdentity\)/);
  });

  test("static keys: account null, and drift is checked later", () => {
    const objects = { namespaces: [namespace("plain")], identities: [staticIdentity("keys", "secret", {})] };
    const r = resource("plain", {
      identityRef: { kind: "AWSStaticIdentity", name: "keys" },
      status: { ownerAccountID: "222222222222" },
    });
    const d = decide(objects, r, "plain");
    assert.equal(d.account, null);
    assert.equal(d.drift, null);
    assert.ok(d.trace.some((t) => /drift is checked once the credentials' account is known/.test(t.detail)));
  });
});

describe("endpoint precedence: namespace endpoint-url > team endpoint > flag", () => {
  const carm = configMap("ack-carm-map", {
    "team-id/a": role("111111111111"),
    "team-id/a/endpoint": "https://team.example.com",
  });
  const gates = { TeamLevelCARM: true };

  test("the team endpoint over the flag", () => {
    const d = decide(
      { namespaces: [namespace("t", { "services.k8s.aws/team-id": "a" })], configMaps: [carm] },
      resource("t"),
      "t",
      settingsWith({ gates, defaultEndpoint: "https://flag.example.com" }),
    );
    assert.equal(d.endpoint, "https://team.example.com");
  });

  test("the namespace endpoint over the team endpoint", () => {
    const ns = namespace("t", { "services.k8s.aws/team-id": "a", [endpointUrl]: "https://ns.example.com" });
    const d = decide({ namespaces: [ns], configMaps: [carm] }, resource("t"), "t", settingsWith({ gates }));
    assert.equal(d.endpoint, "https://ns.example.com");
  });

  test("the flag when nothing else says", () => {
    const d = decide(
      { namespaces: [namespace("plain")] },
      resource("plain"),
      "plain",
      settingsWith({ defaultEndpoint: "https://flag.example.com" }),
    );
    assert.equal(d.endpoint, "https://flag.example.com");
  });

  test("none: null", () => {
    assert.equal(decide({ namespaces: [namespace("plain")] }, resource("plain"), "plain").endpoint, null);
  });

  test("a malformed namespace endpoint-url → wait", () => {
    const d = decide(
      { namespaces: [namespace("e", { [endpointUrl]: "file:///etc/passwd" })] },
      resource("e"),
      "e",
    );
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /namespace e: annotation services.k8s.aws\/endpoint-url/);
  });
});

describe("default identity (DESIGN §3.2)", () => {
  test("without AWSControllerIdentity/default every namespace may use the controller's credentials", () => {
    const d = decide({ namespaces: [namespace("any")] }, resource("any"), "any");
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "default");
    assert.equal(d.roleARN, null);
  });

  const restrictions: readonly [string, unknown, boolean][] = [
    ["absent allowedNamespaces admits nobody", undefined, false],
    ["{} admits everybody", {}, true],
    ["a list admits its namespaces", { list: ["any"] }, true],
    ["a list refuses others", { list: ["else"] }, false],
  ];
  for (const [name, allowedNamespaces, allowed] of restrictions) {
    test(`AWSControllerIdentity/default: ${name}`, () => {
      const d = decide(
        { namespaces: [namespace("any")], identities: [controllerIdentity(allowedNamespaces)] },
        resource("any"),
        "any",
      );
      assert.equal(d.outcome, allowed ? "use" : "deny");
      assert.equal(d.source, "default");
      if (!allowed)
        assert.match(
          d.message,
          /AWSControllerIdentity default does not allow namespace any: its allowedNamespaces admits/,
        );
    });
  }

  test("an invalid AWSControllerIdentity/default fails closed", () => {
    const bad = { ...controllerIdentity({}), spec: { allowedNamespaces: { list: ["NOT VALID"] } } };
    const d = decide({ namespaces: [namespace("any")], identities: [bad] }, resource("any"), "any");
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /AWSControllerIdentity default cannot be used/);
  });

  test("an identity chain based on AWSControllerIdentity is not affected by an unrelated namespace", () => {
    const objects = {
      namespaces: [namespace("a")],
      identities: [
        controllerIdentity({ list: ["a"] }),
        roleIdentity("r", role("111111111111"), controllerRef, {}),
      ],
    };
    assert.equal(
      decide(objects, resource("a", { identityRef: { kind: "AWSRoleIdentity", name: "r" } }), "a").outcome,
      "use",
    );
  });
});

describe("malformed input never throws", () => {
  const snapshot = buildSnapshot({ namespaces: [namespace("a")] }, settingsWith());
  const garbage: readonly [string, unknown, string][] = [
    ["null", null, "a"],
    ["a string", "Bucket", "a"],
    ["no kind", { apiVersion: "s3.services.k8s.aws/v1alpha1", metadata: { name: "x" } }, "a"],
    ["no name", { apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket", metadata: {} }, "a"],
    ["metadata not an object", { apiVersion: "v1", kind: "Bucket", metadata: 5 }, "a"],
    [
      "unknown namespace",
      { apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket", metadata: { name: "x" } },
      "nowhere",
    ],
  ];
  for (const [name, value, ns] of garbage) {
    test(`${name} → a named wait`, () => {
      const d = resolve(value as ResourceObject, ns, snapshot, settingsWith());
      assert.equal(d.outcome, "wait");
      assert.equal(d.reason, "IdentityUnavailable");
      assert.ok(d.message.length > 0);
    });
  }

  test("an unexpected error inside becomes a wait that says so", () => {
    const broken = { ...snapshot, namespaces: null } as unknown as typeof snapshot;
    const d = resolve(resource("a"), "a", broken, settingsWith());
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /internal resolver error/);
  });

  test("IAMRoleSelector=true with CARM enabled → wait naming both flags", () => {
    const settings = { ...settingsWith({ gates: { IAMRoleSelector: true } }), enableCARM: true };
    const d = resolve(resource("a"), "a", snapshot, settings);
    assert.equal(d.outcome, "wait");
    assert.match(d.message, /IAMRoleSelector=true.*--enable-carm/);
  });
});
