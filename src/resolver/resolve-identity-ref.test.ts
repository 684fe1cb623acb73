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
import { resolve } from "./resolve.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { ConfigObjects } from "./types.ts";

const settings = settingsWith();

describe("Alice's story (DESIGN §1)", () => {
  const objects: ConfigObjects = {
    namespaces: [
      namespace("shop", { "services.k8s.aws/owner-account-id": "111111111111" }),
      namespace("sandbox"),
    ],
    configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111", "team-shop") })],
    identities: [
      roleIdentity("central-it", role("222222222222", "central-it"), controllerRef, { list: ["shop"] }),
    ],
  };
  const snapshot = buildSnapshot(objects, settings);

  test("the configuration has no problems", () => {
    assert.deepEqual(snapshot.problems, []);
  });

  test("her bucket lands in her team's account 111111111111 through the account map", () => {
    const d = resolve(resource("shop", { kind: "Bucket" }), "shop", snapshot, settings);
    assert.equal(d.outcome, "use");
    assert.equal(d.source, "accountCARM");
    assert.equal(d.account, "111111111111");
    assert.equal(d.roleARN, role("111111111111", "team-shop"));
  });

  test("her RDS instance with identityRef AWSRoleIdentity central-it lands in 222222222222", () => {
    const db = resource("shop", {
      kind: "DBInstance",
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    });
    const d = resolve(db, "shop", snapshot, settings);
    assert.equal(d.outcome, "use");
    assert.equal(d.reason, "Selected");
    assert.equal(d.source, "identityRef");
    assert.equal(d.account, "222222222222");
    assert.equal(d.roleARN, role("222222222222", "central-it"));
    assert.deepEqual(
      d.chain.map((h) => [h.kind, h.name, h.roleARN]),
      [
        ["AWSControllerIdentity", "default", undefined],
        ["AWSRoleIdentity", "central-it", role("222222222222", "central-it")],
      ],
    );
    assert.equal(d.chain[1]!.parameters.sessionName, "crossrole-central-it");
  });

  test("the same manifest from sandbox is denied, naming identity, namespace and allowedNamespaces", () => {
    const db = resource("sandbox", {
      kind: "DBInstance",
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    });
    const d = resolve(db, "sandbox", snapshot, settings);
    assert.equal(d.outcome, "deny");
    assert.equal(d.reason, "IdentityNotPermitted");
    assert.equal(d.source, "identityRef");
    assert.match(d.message, /AWSRoleIdentity central-it/);
    assert.match(d.message, /namespace sandbox/);
    assert.match(d.message, /allowedNamespaces admits namespaces \[shop\]/);
    assert.equal(d.roleARN, null);
    assert.deepEqual(d.chain, []);
  });
});

describe("identityRef", () => {
  const base: ConfigObjects = {
    namespaces: [namespace("app", {}, { tier: "gold" }), namespace("other")],
    identities: [
      roleIdentity("open", role("111111111111", "open"), controllerRef, {}),
      roleIdentity("closed", role("111111111111", "closed"), controllerRef, undefined),
      roleIdentity("gold", role("111111111111", "gold"), controllerRef, {
        selector: { matchLabels: { tier: "gold" } },
      }),
      roleIdentity(
        "chained",
        role("333333333333", "chained"),
        { kind: "AWSRoleIdentity", name: "open" },
        { list: ["app"] },
      ),
      roleIdentity(
        "via-closed",
        role("333333333333", "via"),
        { kind: "AWSRoleIdentity", name: "closed" },
        {},
      ),
      roleIdentity(
        "via-sa",
        role("444444444444", "via-sa"),
        { kind: "AWSServiceAccountIdentity", name: "sa" },
        {},
      ),
      staticIdentity("keys", "aws-keys", {}),
      roleIdentity(
        "from-keys",
        role("555555555555", "from-keys"),
        { kind: "AWSStaticIdentity", name: "keys" },
        {},
      ),
      serviceAccountIdentity("app", "sa", role("666666666666", "web")),
    ],
  };
  const snapshot = buildSnapshot(base, settings);
  const ref = (kind: string, name: string) => ({ identityRef: { kind, name } });

  const cases: readonly {
    name: string;
    ns: string;
    ref: unknown;
    outcome: string;
    account?: string | null;
    message?: RegExp;
    chain?: string[];
  }[] = [
    {
      name: "allowedNamespaces {} admits every namespace",
      ns: "other",
      ref: ref("AWSRoleIdentity", "open"),
      outcome: "use",
      account: "111111111111",
    },
    {
      name: "allowedNamespaces absent admits no namespace",
      ns: "app",
      ref: ref("AWSRoleIdentity", "closed"),
      outcome: "deny",
      message: /closed does not allow namespace app: its allowedNamespaces admits no namespace/,
    },
    {
      name: "a label selector admits matching namespaces",
      ns: "app",
      ref: ref("AWSRoleIdentity", "gold"),
      outcome: "use",
    },
    {
      name: "a label selector refuses others",
      ns: "other",
      ref: ref("AWSRoleIdentity", "gold"),
      outcome: "deny",
      message: /namespaces with labels tier=gold/,
    },
    {
      name: "a chain is walked to its base, base first",
      ns: "app",
      ref: ref("AWSRoleIdentity", "chained"),
      outcome: "use",
      account: "333333333333",
      chain: ["AWSControllerIdentity/default", "AWSRoleIdentity/open", "AWSRoleIdentity/chained"],
    },
    {
      name: "every hop must admit the namespace",
      ns: "app",
      ref: ref("AWSRoleIdentity", "via-closed"),
      outcome: "deny",
      message:
        /AWSRoleIdentity closed does not allow namespace app \(reached from spec.identityRef through AWSRoleIdentity via-closed → AWSRoleIdentity closed\)/,
    },
    {
      name: "a source AWSServiceAccountIdentity is looked up in the resource's namespace",
      ns: "app",
      ref: ref("AWSRoleIdentity", "via-sa"),
      outcome: "use",
      account: "444444444444",
      chain: ["AWSServiceAccountIdentity/sa", "AWSRoleIdentity/via-sa"],
    },
    {
      name: "…and is missing from another namespace",
      ns: "other",
      ref: ref("AWSRoleIdentity", "via-sa"),
      outcome: "deny",
      message: /AWSServiceAccountIdentity sa does not exist in namespace other/,
    },
    {
      name: "an AWSServiceAccountIdentity in the own namespace",
      ns: "app",
      ref: ref("AWSServiceAccountIdentity", "sa"),
      outcome: "use",
      account: "666666666666",
    },
    {
      name: "an AWSServiceAccountIdentity of another namespace cannot be reached",
      ns: "other",
      ref: ref("AWSServiceAccountIdentity", "sa"),
      outcome: "deny",
      message: /does not exist in namespace other/,
    },
    {
      name: "static keys: account unknown until STS says",
      ns: "app",
      ref: ref("AWSStaticIdentity", "keys"),
      outcome: "use",
      account: null,
      chain: ["AWSStaticIdentity/keys"],
    },
    {
      name: "a role assumed from static keys",
      ns: "app",
      ref: ref("AWSRoleIdentity", "from-keys"),
      outcome: "use",
      account: "555555555555",
      chain: ["AWSStaticIdentity/keys", "AWSRoleIdentity/from-keys"],
    },
    {
      name: "the implicit controller identity (no AWSControllerIdentity object)",
      ns: "app",
      ref: ref("AWSControllerIdentity", "default"),
      outcome: "use",
      account: "999999999999",
    },
    {
      name: "a controller identity not named default",
      ns: "app",
      ref: ref("AWSControllerIdentity", "other"),
      outcome: "deny",
      message: /singleton named default/,
    },
    {
      name: "a missing identity",
      ns: "app",
      ref: ref("AWSRoleIdentity", "nope"),
      outcome: "deny",
      message: /AWSRoleIdentity nope does not exist/,
    },
    {
      name: "an unknown kind",
      ns: "app",
      ref: ref("IAMRoleSelector", "x"),
      outcome: "deny",
      message: /spec.identityRef.kind "IAMRoleSelector" is not one of/,
    },
    {
      name: "a malformed ref",
      ns: "app",
      ref: { identityRef: "central-it" },
      outcome: "deny",
      message: /spec.identityRef must be \{kind, name\}/,
    },
    {
      name: "an empty name",
      ns: "app",
      ref: ref("AWSRoleIdentity", ""),
      outcome: "deny",
      message: /spec.identityRef.name must be a non-empty string/,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = resource(c.ns, c.ref as { identityRef: unknown });
      const d = resolve(r, c.ns, snapshot, settings);
      assert.equal(d.outcome, c.outcome, d.message);
      assert.equal(d.source, "identityRef");
      if (c.account !== undefined) assert.equal(d.account, c.account);
      if (c.message !== undefined) assert.match(d.message, c.message);
      if (c.chain !== undefined) {
        assert.deepEqual(
          d.chain.map((h) => `${h.kind}/${h.name}`),
          c.chain,
        );
      }
    });
  }

  test("an existing AWSControllerIdentity default restricts who may name it", () => {
    const s = buildSnapshot(
      { ...base, identities: [...(base.identities ?? []), controllerIdentity({ list: ["app"] })] },
      settings,
    );
    assert.equal(
      resolve(resource("app", ref("AWSControllerIdentity", "default")), "app", s, settings).outcome,
      "use",
    );
    const d = resolve(resource("other", ref("AWSControllerIdentity", "default")), "other", s, settings);
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /AWSControllerIdentity default does not allow namespace other/);
    // …and as the base of a chain.
    const chained = resolve(resource("other", ref("AWSRoleIdentity", "open")), "other", s, settings);
    assert.equal(chained.outcome, "deny");
    assert.match(
      chained.message,
      /AWSControllerIdentity default does not allow namespace other \(reached from/,
    );
  });

  test("session parameters are carried per hop; intermediate hops are named after the identity", () => {
    const s = buildSnapshot(
      {
        namespaces: [namespace("app")],
        identities: [
          roleIdentity(
            "hub",
            role("111111111111", "hub"),
            controllerRef,
            {},
            { externalID: "hub-ext", durationSeconds: 3600 },
          ),
          roleIdentity(
            "spoke",
            role("222222222222", "spoke"),
            { kind: "AWSRoleIdentity", name: "hub" },
            {},
            {
              sessionName: "explicit-name",
              policyARNs: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
              sessionTags: [{ key: "team", value: "a" }],
              transitiveTagKeys: ["team"],
              sourceIdentity: "alice",
            },
          ),
        ],
      },
      settings,
    );
    const d = resolve(resource("app", ref("AWSRoleIdentity", "spoke")), "app", s, settings);
    assert.equal(d.outcome, "use");
    assert.deepEqual(d.chain[1]!.parameters, {
      externalID: "hub-ext",
      durationSeconds: 3600,
      sessionName: "crossrole-hub",
    });
    assert.deepEqual(d.chain[2]!.parameters, {
      sessionName: "explicit-name",
      policyARNs: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
      sessionTags: [{ key: "team", value: "a" }],
      transitiveTagKeys: ["team"],
      sourceIdentity: "alice",
    });
    assert.equal(d.chain[2]!.resourceVersion, "5");
  });

  test("identityRef takes precedence over a matching IAMRoleSelector and over CARM", () => {
    const objects: ConfigObjects = {
      ...base,
      namespaces: [namespace("app", { "services.k8s.aws/owner-account-id": "111111111111" })],
      iamRoleSelectors: [selector("everything", { arn: role("777777777777") })],
    };
    for (const s of [settings, selectorMode]) {
      const d = resolve(resource("app", ref("AWSRoleIdentity", "open")), "app", buildSnapshot(objects, s), s);
      assert.equal(d.source, "identityRef");
      assert.equal(d.account, "111111111111");
      assert.ok(d.trace.some((t) => /spec.identityRef takes precedence/.test(t.detail)));
    }
  });

  test("cycles and dangling sources are denied with the snapshot's reason", () => {
    const s = buildSnapshot(
      {
        namespaces: [namespace("app")],
        identities: [
          roleIdentity("a", role("111111111111", "a"), { kind: "AWSRoleIdentity", name: "b" }, {}),
          roleIdentity("b", role("111111111111", "b"), { kind: "AWSRoleIdentity", name: "a" }, {}),
          roleIdentity("c", role("111111111111", "c"), { kind: "AWSRoleIdentity", name: "a" }, {}),
          roleIdentity("d", role("111111111111", "d"), { kind: "AWSStaticIdentity", name: "gone" }, {}),
        ],
      },
      settings,
    );
    const a = resolve(resource("app", ref("AWSRoleIdentity", "a")), "app", s, settings);
    assert.equal(a.outcome, "deny");
    assert.match(a.message, /part of a cycle: AWSRoleIdentity a → AWSRoleIdentity b → AWSRoleIdentity a/);
    const c = resolve(resource("app", ref("AWSRoleIdentity", "c")), "app", s, settings);
    assert.equal(c.outcome, "deny");
    assert.match(
      c.message,
      /AWSRoleIdentity a cannot be used: .*cycle.*\(reached from spec.identityRef through AWSRoleIdentity c → AWSRoleIdentity a\)/,
    );
    const d = resolve(resource("app", ref("AWSRoleIdentity", "d")), "app", s, settings);
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /names AWSStaticIdentity gone, which does not exist/);
  });

  test("an invalid identity is denied with what is wrong with it", () => {
    const s = buildSnapshot(
      {
        namespaces: [namespace("app")],
        identities: [roleIdentity("bad", "arn:aws:iam::12:role/x", controllerRef, {})],
      },
      settings,
    );
    const d = resolve(resource("app", ref("AWSRoleIdentity", "bad")), "app", s, settings);
    assert.equal(d.outcome, "deny");
    assert.match(d.message, /AWSRoleIdentity bad cannot be used: it is invalid \(.*spec.roleARN/);
  });
});
