import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pino } from "pino";
import {
  configMap,
  namespace,
  resource,
  role,
  settingsWith,
  staticIdentity,
} from "../../test/support/resolver-fixtures.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { ConfigObjects, Decision } from "../resolver/types.ts";
import { type DecisionChange, DecisionTracker, decisionFingerprint, secretOf } from "./decision-tracker.ts";

const X = "111111111111";
const Y = "222222222222";
const settings = settingsWith();

const identities = [staticIdentity("keys-a", "secret-a", {}), staticIdentity("keys-b", "secret-b", {})];

function decide(objects: ConfigObjects, ns: string, identityRef?: { kind: string; name: string }): Decision {
  const snapshot = buildSnapshot({ identities, ...objects }, settings);
  return resolve(resource(ns, identityRef ? { identityRef } : {}), ns, snapshot, settings);
}

const shop = namespace("shop", { "services.k8s.aws/owner-account-id": X });
const inX = decide(
  { namespaces: [shop], configMaps: [configMap("ack-role-account-map", { [X]: role(X) })] },
  "shop",
);
const otherRoleInX = decide(
  { namespaces: [shop], configMaps: [configMap("ack-role-account-map", { [X]: role(X, "other") })] },
  "shop",
);
const waiting = decide({ namespaces: [shop] }, "shop");
const staticA = decide({ namespaces: [namespace("plain")] }, "plain", {
  kind: "AWSStaticIdentity",
  name: "keys-a",
});
const staticB = decide({ namespaces: [namespace("plain")] }, "plain", {
  kind: "AWSStaticIdentity",
  name: "keys-b",
});

/** A tracker whose log lines are collected as parsed JSON. */
function tracker(onChange?: (c: DecisionChange) => void) {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: "info" }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { t: new DecisionTracker("Bucket", log, onChange), lines };
}

describe("the decisions these tests use", () => {
  test("are what their names say", () => {
    assert.equal(inX.outcome, "use");
    assert.equal(otherRoleInX.roleARN, role(X, "other"));
    assert.equal(waiting.outcome, "wait");
    assert.equal(staticA.outcome, "use");
    assert.equal(staticA.chain[0]?.kind, "AWSStaticIdentity");
  });
});

describe("record: a change is logged once", () => {
  test("the first decision for a key is a change, logged with the resource, account and role", () => {
    const { t, lines } = tracker();
    assert.equal(t.record("shop/a", inX), true);
    assert.equal(lines.length, 1);
    assert.deepEqual(
      {
        event: lines[0]?.["event"],
        resource: lines[0]?.["resource"],
        outcome: lines[0]?.["outcome"],
        source: lines[0]?.["source"],
        account: lines[0]?.["account"],
        roleARN: lines[0]?.["roleARN"],
        region: lines[0]?.["region"],
        identity: lines[0]?.["identity"],
        sessionName: lines[0]?.["sessionName"],
        previousRoleARN: lines[0]?.["previousRoleARN"],
        msg: lines[0]?.["msg"],
      },
      {
        event: "decision",
        resource: "Bucket shop/a",
        outcome: "use",
        source: "accountCARM",
        account: X,
        roleARN: role(X),
        region: "eu-west-1",
        identity: `CARM/${X}`,
        sessionName: `crossrole-${X}`,
        previousRoleARN: null,
        msg: "identity decided",
      },
    );
  });

  test("the same decision again, every loop, is not logged again", () => {
    const { t, lines } = tracker();
    t.record("shop/a", inX);
    for (let i = 0; i < 5; i++) assert.equal(t.record("shop/a", inX), false);
    assert.equal(lines.length, 1);
  });

  test("a decision equal but for the trace's wording is the same decision", () => {
    const { t, lines } = tracker();
    t.record("shop/a", inX);
    const reworded: Decision = {
      ...inX,
      trace: [{ rule: "x", result: "info", detail: "worded differently" }],
    };
    assert.equal(decisionFingerprint(reworded), decisionFingerprint(inX));
    assert.equal(t.record("shop/a", reworded), false);
    assert.equal(lines.length, 1);
  });

  test("a changed decision is logged once, with the previous role and account", () => {
    const changes: DecisionChange[] = [];
    const { t, lines } = tracker((c) => changes.push(c));
    t.record("shop/a", inX);
    assert.equal(t.record("shop/a", otherRoleInX), true);
    assert.equal(t.record("shop/a", otherRoleInX), false);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]?.["roleARN"], role(X, "other"));
    assert.equal(lines[1]?.["previousRoleARN"], role(X));
    assert.equal(lines[1]?.["previousAccount"], X);
    assert.deepEqual(
      changes.map((c) => [c.key, c.decision.roleARN, c.previous?.roleARN]),
      [
        ["shop/a", role(X), undefined],
        ["shop/a", role(X, "other"), role(X)],
      ],
    );
    // Who the previous decision acted as, not the whole Decision: the memo holds the current one.
    assert.deepEqual(changes[1]?.previous, { account: X, roleARN: role(X) });
  });

  test("a non-use decision is logged with its message; keys are tracked independently", () => {
    const { t, lines } = tracker();
    t.record("shop/a", inX);
    assert.equal(t.record("shop/b", waiting), true);
    assert.equal(t.record("shop/a", inX), false);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]?.["outcome"], "wait");
    assert.equal(lines[1]?.["msg"], waiting.message);
    assert.equal(t.size, 2);
  });

  test("after forget, the same decision is a change again", () => {
    const { t, lines } = tracker();
    t.record("shop/a", inX);
    t.forget("shop/a");
    assert.equal(t.size, 0);
    assert.equal(t.record("shop/a", inX), true);
    assert.equal(lines.length, 2);
  });
});

describe("differs", () => {
  test("true for a key never recorded, false for the recorded decision, true for another one", () => {
    const { t } = tracker();
    assert.equal(t.differs("shop/a", inX), true);
    t.record("shop/a", inX);
    assert.equal(t.differs("shop/a", inX), false);
    assert.equal(t.differs("shop/a", otherRoleInX), true);
    assert.equal(t.differs("shop/a", waiting), true);
  });

  test("asks without recording or logging", () => {
    const { t, lines } = tracker();
    t.record("shop/a", inX);
    t.differs("shop/a", otherRoleInX);
    t.differs("shop/b", inX);
    assert.equal(lines.length, 1);
    assert.equal(t.size, 1);
    assert.equal(t.differs("shop/a", inX), false);
  });
});

describe("keysUsingSecret", () => {
  test("secretOf names the static identity's Secret, and nothing for other chains", () => {
    assert.equal(secretOf(staticA), "secret-a");
    assert.equal(secretOf(inX), undefined);
    assert.equal(secretOf(waiting), undefined);
  });

  test("the keys whose last decision reads the Secret", () => {
    const { t } = tracker();
    t.record("plain/a1", staticA);
    t.record("plain/a2", staticA);
    t.record("plain/b", staticB);
    t.record("shop/x", inX);
    assert.deepEqual(t.keysUsingSecret("secret-a").sort(), ["plain/a1", "plain/a2"]);
    assert.deepEqual(t.keysUsingSecret("secret-b"), ["plain/b"]);
    assert.deepEqual(t.keysUsingSecret("unused"), []);
  });

  test("a key leaves the list when its decision moves away from the Secret or it is forgotten", () => {
    const { t } = tracker();
    t.record("plain/a1", staticA);
    t.record("plain/a2", staticA);
    t.record("plain/a1", staticB);
    t.forget("plain/a2");
    assert.deepEqual(t.keysUsingSecret("secret-a"), []);
    assert.deepEqual(t.keysUsingSecret("secret-b"), ["plain/a1"]);
  });
});

test("decisions for different accounts have different fingerprints", () => {
  const inY = decide(
    {
      namespaces: [namespace("shop", { "services.k8s.aws/owner-account-id": Y })],
      configMaps: [configMap("ack-role-account-map", { [Y]: role(Y) })],
    },
    "shop",
  );
  assert.notEqual(decisionFingerprint(inY), decisionFingerprint(inX));
});

test("an identity's resourceVersion alone (e.g. its status written) does not change the fingerprint", () => {
  const withRv = (rv: string): Decision => ({
    ...staticA,
    chain: staticA.chain.map((hop) => ({ ...hop, resourceVersion: rv })),
  });
  assert.equal(decisionFingerprint(withRv("7")), decisionFingerprint(withRv("8")));
  assert.equal(decisionFingerprint(withRv("7")), decisionFingerprint(staticA));
  const otherSecret: Decision = {
    ...staticA,
    chain: staticA.chain.map((hop) => ({ ...hop, parameters: { ...hop.parameters, secretRef: "other" } })),
  };
  assert.notEqual(decisionFingerprint(otherSecret), decisionFingerprint(staticA), "parameters still count");
});
