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
  serviceAccountIdentity,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Decision } from "../resolver/types.ts";
import { identitiesUsedBy, UsageIndex, type UserRef } from "./identity-usage.ts";

const X = "111111111111";
const settings = settingsWith();
const snapshot = buildSnapshot(
  {
    namespaces: [
      namespace("shop"),
      namespace("mapped", { "services.k8s.aws/owner-account-id": X }),
      namespace("tenant"),
    ],
    configMaps: [configMap("ack-role-account-map", { [X]: role(X) })],
    identities: [
      controllerIdentity({}),
      roleIdentity("base", role(X, "base"), controllerRef, { list: ["shop"] }),
      roleIdentity("top", role(X, "top"), { kind: "AWSRoleIdentity", name: "base" }, { list: ["shop"] }),
      serviceAccountIdentity("shop", "sa", role(X, "sa")),
    ],
  },
  settings,
);

function decide(ns: string, identityRef?: { kind: string; name: string }): Decision {
  return resolve(resource(ns, identityRef ? { identityRef } : {}), ns, snapshot, settings);
}

describe("identitiesUsedBy: every identity object a use decision goes through", () => {
  test("a role chain: the controller identity, the source and the referenced role", () => {
    assert.deepEqual(identitiesUsedBy(decide("shop", { kind: "AWSRoleIdentity", name: "top" })), [
      "AWSControllerIdentity/default",
      "AWSRoleIdentity/base",
      "AWSRoleIdentity/top",
    ]);
  });

  test("a service-account identity is keyed with its namespace", () => {
    assert.deepEqual(identitiesUsedBy(decide("shop", { kind: "AWSServiceAccountIdentity", name: "sa" })), [
      "AWSServiceAccountIdentity/shop/sa",
    ]);
  });

  test("CARM: the controller identity only (a map entry is no identity object)", () => {
    assert.deepEqual(identitiesUsedBy(decide("mapped")), ["AWSControllerIdentity/default"]);
  });

  test("a denied reference pins nothing: a tenant must not block the deletion of what it may not use", () => {
    const denied = decide("tenant", { kind: "AWSRoleIdentity", name: "top" });
    assert.equal(denied.outcome, "deny");
    assert.deepEqual(identitiesUsedBy(denied), []);
    assert.deepEqual(identitiesUsedBy(decide("shop", { kind: "AWSRoleIdentity", name: "missing" })), []);
  });
});

const user = (name: string, namespace = "shop", kind = "Bucket"): UserRef => ({ kind, namespace, name });

describe("UsageIndex", () => {
  test("set reports exactly the identities whose users changed", () => {
    const index = new UsageIndex();
    assert.deepEqual(index.set(user("a"), ["R/top", "R/base"]), ["R/base", "R/top"]);
    assert.deepEqual(index.set(user("a"), ["R/base", "R/top"]), [], "the same again changes nothing");
    assert.deepEqual(index.set(user("b"), ["R/base"]), ["R/base"]);
    assert.deepEqual(index.set(user("a"), ["R/other"]), ["R/base", "R/other", "R/top"]);
    assert.equal(index.count("R/base"), 1);
    assert.equal(index.count("R/top"), 0);
    assert.deepEqual(index.identities(), ["R/base", "R/other"]);
  });

  test("remove forgets a resource and reports what it used", () => {
    const index = new UsageIndex();
    index.set(user("a"), ["R/x"]);
    index.set(user("b"), ["R/x"]);
    assert.deepEqual(index.remove(user("a")), ["R/x"]);
    assert.deepEqual(index.remove(user("a")), [], "twice is harmless");
    assert.deepEqual(index.usersOf("R/x"), [user("b")]);
  });

  test("users are sorted by kind, namespace, name and bounded; the count stays exact", () => {
    const index = new UsageIndex();
    for (const u of [user("b", "z"), user("a", "z"), user("c", "a"), user("q", "a", "Queue")])
      index.set(u, ["R/x"]);
    assert.deepEqual(index.usersOf("R/x"), [
      user("c", "a"),
      user("a", "z"),
      user("b", "z"),
      user("q", "a", "Queue"),
    ]);
    assert.deepEqual(index.usersOf("R/x", 2), [user("c", "a"), user("a", "z")]);
    assert.equal(index.count("R/x"), 4);
  });

  test("the same name in another kind or namespace is another user", () => {
    const index = new UsageIndex();
    index.set(user("a"), ["R/x"]);
    index.set(user("a", "other"), ["R/x"]);
    index.set(user("a", "shop", "Queue"), ["R/x"]);
    assert.equal(index.count("R/x"), 3);
  });

  test("replaceAll is a full recomputation: reports additions, moves and vanished resources only", () => {
    const index = new UsageIndex();
    index.set(user("stays"), ["R/x"]);
    index.set(user("moves"), ["R/x"]);
    index.set(user("gone"), ["R/y"]);
    const changed = index.replaceAll([
      { user: user("stays"), identities: ["R/x"] },
      { user: user("moves"), identities: ["R/z"] },
      { user: user("new"), identities: ["R/x"] },
    ]);
    assert.deepEqual(changed, ["R/x", "R/y", "R/z"]);
    assert.deepEqual(index.usersOf("R/x"), [user("new"), user("stays")]);
    assert.equal(index.count("R/y"), 0);
    assert.deepEqual(
      index.replaceAll([
        ...["stays", "new"].map((n) => ({ user: user(n), identities: ["R/x"] })),
        { user: user("moves"), identities: ["R/z"] },
      ]),
      [],
    );
  });
});
