import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  controllerHop,
  roleHop,
  serviceAccountHop,
  staticHop,
  useDecision,
} from "../../test/support/credential-decisions.ts";
import { InvalidParameterError } from "./errors.ts";
import { defaultSessionName, planChain, planFingerprint } from "./plan.ts";

const roleA = "arn:aws:iam::222222222222:role/a";
const roleB = "arn:aws:iam::333333333333:role/b";
const base = { systemNamespace: "crossrole-system" };
const shop = { namespace: "shop", kind: "Queue", name: "orders" };

function keyOf(
  decision: ReturnType<typeof useDecision>,
  extra: Partial<Parameters<typeof planChain>[0]> = {},
) {
  return planChain({ ...base, decision, ...extra }).key;
}

describe("planChain keys", () => {
  test("equal chains built separately have equal keys; the key covers every earlier hop", () => {
    const one = useDecision([controllerHop, roleHop("a", roleA), roleHop("b", roleB)]);
    const two = useDecision([controllerHop, roleHop("a", roleA), roleHop("b", roleB)]);
    assert.equal(keyOf(one), keyOf(two));
    const otherMiddle = useDecision([
      controllerHop,
      roleHop("a", "arn:aws:iam::444444444444:role/a"),
      roleHop("b", roleB),
    ]);
    assert.notEqual(keyOf(one), keyOf(otherMiddle));
  });

  test("every session parameter, the region and the endpoint change the key", () => {
    const keyWith = (params: object, opts: { region?: string; endpoint?: string } = {}) =>
      keyOf(useDecision([controllerHop, roleHop("a", roleA, params)], opts));
    const plain = keyWith({});
    const variants = [
      keyWith({ sessionName: "s" }),
      keyWith({ durationSeconds: 900 }),
      keyWith({ externalID: "x" }),
      keyWith({ inlinePolicy: "{}" }),
      keyWith({ policyARNs: ["arn:aws:iam::aws:policy/ReadOnlyAccess"] }),
      keyWith({ sessionTags: [{ key: "team", value: "a" }] }),
      keyWith({ sessionTags: [{ key: "team", value: "a" }], transitiveTagKeys: ["team"] }),
      keyWith({ sourceIdentity: "alice" }),
      keyWith({}, { region: "eu-west-1" }),
      keyWith({}, { endpoint: "http://127.0.0.1:1" }),
    ];
    assert.equal(new Set([plain, ...variants]).size, variants.length + 1);
  });

  test("object key order and resourceVersion do not change the key", () => {
    const a = useDecision([controllerHop, roleHop("a", roleA, { externalID: "x", sessionName: "s" })]);
    const b = useDecision([
      controllerHop,
      { ...roleHop("a", roleA, { sessionName: "s", externalID: "x" }), resourceVersion: "42" },
    ]);
    assert.equal(keyOf(a), keyOf(b));
  });

  test("a static identity's key follows its Secret's data, without holding it", () => {
    const d = useDecision([staticHop("keys", "aws-keys")]);
    const k1 = keyOf(d, { secretData: { AccessKeyID: "AKIA1", SecretAccessKey: "s1" } });
    const k1again = keyOf(d, { secretData: { SecretAccessKey: "s1", AccessKeyID: "AKIA1" } });
    const k2 = keyOf(d, { secretData: { AccessKeyID: "AKIA1", SecretAccessKey: "s2" } });
    assert.equal(k1, k1again);
    assert.notEqual(k1, k2);
    assert.ok(!k1.includes("AKIA1"));
  });

  test("tenant tags make the key per resource; without them resources share credentials", () => {
    const shared = useDecision([controllerHop, roleHop("a", roleA)]);
    assert.equal(keyOf(shared, { resource: shop }), keyOf(shared, { resource: { ...shop, name: "other" } }));
    const tenant = useDecision([controllerHop, roleHop("a", roleA, { tenantSessionTags: true })]);
    assert.notEqual(
      keyOf(tenant, { resource: shop }),
      keyOf(tenant, { resource: { ...shop, name: "other" } }),
    );
  });
});

describe("planChain requests", () => {
  test("a role hop carries every parameter, with tenant tags added as transitive", () => {
    const plan = planChain({
      ...base,
      resource: shop,
      decision: useDecision([
        controllerHop,
        roleHop("a", roleA, {
          sessionName: "alice-shop",
          durationSeconds: 7200,
          externalID: "ext-1",
          inlinePolicy: '{"Version":"2012-10-17","Statement":[]}',
          policyARNs: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
          sessionTags: [{ key: "team", value: "a" }],
          transitiveTagKeys: ["team"],
          sourceIdentity: "alice",
          tenantSessionTags: true,
        }),
      ]),
    });
    const hop = plan.hops[1]!;
    assert.equal(hop.type, "role");
    assert.deepEqual(hop.type === "role" && hop.request, {
      roleARN: roleA,
      sessionName: "alice-shop",
      durationSeconds: 7200,
      externalID: "ext-1",
      policy: '{"Version":"2012-10-17","Statement":[]}',
      policyARNs: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
      tags: [
        { key: "team", value: "a" },
        { key: "kubernetes-namespace", value: "shop" },
        { key: "kubernetes-kind", value: "Queue" },
        { key: "kubernetes-name", value: "orders" },
      ],
      transitiveTagKeys: ["team", "kubernetes-namespace", "kubernetes-kind", "kubernetes-name"],
      sourceIdentity: "alice",
    });
  });

  test("a hop after a role or a service-account identity is marked as role chaining", () => {
    const plan = planChain({
      ...base,
      decision: useDecision([
        serviceAccountHop("shop", "sa", roleA, { serviceAccountName: "app" }),
        roleHop("b", roleB),
        roleHop("c", roleB),
      ]),
    });
    assert.deepEqual(
      plan.hops.map((h) => (h.type === "role" ? h.sourceIsRole : h.type)),
      ["web-identity", true, true],
    );
    const fromController = planChain({
      ...base,
      decision: useDecision([controllerHop, roleHop("b", roleB)]),
    });
    assert.equal(fromController.hops[1]?.type === "role" && fromController.hops[1].sourceIsRole, false);
  });

  test("a service-account hop defaults its audience, token lifetime and session name", () => {
    const plan = planChain({
      ...base,
      decision: useDecision([serviceAccountHop("shop", "deployer", roleA, { serviceAccountName: "app" })]),
    });
    const hop = plan.hops[0]!;
    assert.ok(hop.type === "web-identity");
    assert.deepEqual(hop.token, {
      namespace: "shop",
      serviceAccountName: "app",
      audiences: ["sts.amazonaws.com"],
      expirationSeconds: 3600,
    });
    assert.deepEqual(hop.request, { roleARN: roleA, sessionName: "crossrole-deployer" });
  });

  test("default session names are valid for STS", () => {
    assert.equal(
      defaultSessionName(roleHop("owner-account-id/222222222222", roleA)),
      "crossrole-owner-account-id-222222222222",
    );
    assert.equal(defaultSessionName(roleHop("x".repeat(100), roleA)).length, 64);
  });
});

describe("planChain refuses what cannot get credentials", () => {
  const cases: [string, ReturnType<typeof useDecision>, RegExp][] = [
    ["a non-use decision", { ...useDecision([controllerHop]), outcome: "deny" }, /decision is "deny"/],
    [
      "a drifted decision",
      { ...useDecision([controllerHop]), drift: { kind: "account", message: "m" } },
      /account drift/,
    ],
    ["no region", useDecision([controllerHop], { region: null }), /no AWS region/],
    ["a role first", useDecision([roleHop("a", roleA)]), /must start with/],
    ["a base identity later", useDecision([controllerHop, controllerHop]), /cannot follow/],
    [
      "tenant tags without a resource",
      useDecision([controllerHop, roleHop("a", roleA, { tenantSessionTags: true })]),
      /tenantSessionTags.*names no resource/,
    ],
  ];
  for (const [name, decision, message] of cases) {
    test(name, () => {
      assert.throws(
        () => planChain({ ...base, decision }),
        (err: unknown) =>
          err instanceof InvalidParameterError && message.test(err.message) && /Fix: /.test(err.message),
      );
    });
  }

  test("the region falls back to the controller's default", () => {
    const plan = planChain({
      ...base,
      defaultRegion: "eu-west-1",
      decision: useDecision([controllerHop], { region: null }),
    });
    assert.equal(plan.target.region, "eu-west-1");
  });
});

describe("planFingerprint", () => {
  test("differs whenever anything planChain reads differs", () => {
    const d = useDecision([controllerHop, roleHop("a", roleA, { tenantSessionTags: true })]);
    const base = planFingerprint(d, shop, undefined);
    const variants = [
      planFingerprint({ ...d, outcome: "deny" }, shop, undefined),
      planFingerprint({ ...d, drift: { kind: "region", message: "m" } }, shop, undefined),
      planFingerprint({ ...d, region: "eu-west-1" }, shop, undefined),
      planFingerprint({ ...d, endpoint: "http://x" }, shop, undefined),
      planFingerprint(
        useDecision([controllerHop, roleHop("a", roleB, { tenantSessionTags: true })]),
        shop,
        undefined,
      ),
      planFingerprint(d, { ...shop, name: "other" }, undefined),
      planFingerprint(d, shop, { AccessKeyID: "a", SecretAccessKey: "b" }),
    ];
    assert.equal(new Set([base, ...variants]).size, variants.length + 1);
  });

  test("ignores the resource when no hop uses tenant tags", () => {
    const d = useDecision([controllerHop, roleHop("a", roleA)]);
    assert.equal(
      planFingerprint(d, shop, undefined),
      planFingerprint(d, { ...shop, name: "other" }, undefined),
    );
  });
});
