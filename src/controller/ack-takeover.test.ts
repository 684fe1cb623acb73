import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { changedApprovals, judgeAckMade, takeoverApprovals, takeoverKey } from "./ack-takeover.ts";
import type { Owner } from "./ownership.ts";
import { type Found, planSync, type Target } from "./reconcile-plan.ts";

const self: Owner = { kind: "Bucket", namespace: "shop", name: "assets", uid: "uid-1" };
const ackTags = { "services.k8s.aws/controller-version": "s3-v1.10.0", "services.k8s.aws/namespace": "shop" };
const target: Target = {
  noun: "Bucket",
  name: "shop-assets",
  account: "111111111111",
  region: "us-east-1",
  nameField: "spec.name",
};

describe("judgeAckMade", () => {
  test("not ACK's: no controller-version tag, another service's, crossrole's own, or crossrole owner tags", () => {
    assert.equal(judgeAckMade({}, self, "s3", "uid-1"), undefined);
    assert.equal(
      judgeAckMade({ ...ackTags, "services.k8s.aws/controller-version": "sqs-v1.6.1" }, self, "s3", "uid-1"),
      undefined,
    );
    assert.equal(
      judgeAckMade(
        { ...ackTags, "services.k8s.aws/controller-version": "crossrole-0.1.0" },
        self,
        "s3",
        "uid-1",
      ),
      undefined,
    );
    assert.equal(
      judgeAckMade({ ...ackTags, "services.k8s.aws/owner-uid": "uid-9" }, self, "s3", "uid-1"),
      undefined,
    );
  });

  test("ACK's for this namespace, approved for this UID: taken over", () => {
    const made = judgeAckMade(ackTags, self, "s3", "uid-1");
    assert.equal(made?.approved, true);
    assert.equal(made?.forOtherNamespace, false);
    assert.equal(made?.controllerVersion, "s3-v1.10.0");
    assert.match(made?.why ?? "", /approved in ConfigMap crossrole-ack-takeover/);
  });

  test("not approved, or approved for another object of the same name: not taken, saying how to approve", () => {
    const none = judgeAckMade(ackTags, self, "s3", undefined);
    assert.equal(none?.approved, false);
    assert.match(none?.why ?? "", /crossrole takeover --from-ack/);
    const stale = judgeAckMade(ackTags, self, "s3", "uid-old");
    assert.equal(stale?.approved, false);
    assert.match(stale?.why ?? "", /another object of this name \(uid uid-old, this one is uid-1\)/);
  });

  test("made for another namespace (or none): never taken from here, even when approved", () => {
    const other = judgeAckMade({ ...ackTags, "services.k8s.aws/namespace": "billing" }, self, "s3", "uid-1");
    assert.equal(other?.approved, false);
    assert.equal(other?.forOtherNamespace, true);
    assert.match(other?.why ?? "", /made it for namespace billing, not for shop/);
    const bare = judgeAckMade({ "services.k8s.aws/controller-version": "s3-v1.10.0" }, self, "s3", "uid-1");
    assert.equal(bare?.forOtherNamespace, true);
    assert.match(bare?.why ?? "", /its namespace tag is missing/);
  });
});

describe("planSync with an object ACK made", () => {
  const untaggedBy = (ack: ReturnType<typeof judgeAckMade>): Found => ({
    found: true,
    ownership: { kind: "untagged" },
    unfinishedCreate: false,
    ...(ack ? { ack } : {}),
  });
  const plan = (f: Found, adoptionPolicy: "adopt" | "adopt-or-create" | null = null) =>
    planSync({ found: f, readOnly: false, adoptionPolicy, target });

  test("approved: adopted to converge to the spec (as ACK kept it), marked as a takeover", () => {
    const ack = judgeAckMade(ackTags, self, "s3", "uid-1");
    assert.deepEqual(plan(untaggedBy(ack)), { do: "adopt", strict: false, takeover: ack });
  });

  test("not approved: Terminal TakeoverNotApproved, naming the command; nothing written", () => {
    const p = plan(untaggedBy(judgeAckMade(ackTags, self, "s3", undefined)));
    assert.equal(p.do, "fail");
    if (p.do !== "fail") return;
    assert.equal(p.state.kind, "terminal");
    assert.equal(p.state.reason, "TakeoverNotApproved");
    assert.match(p.state.message, /crossrole takeover --from-ack/);
  });

  test("made for another namespace: NameTaken, even with an adoption policy", () => {
    const ack = judgeAckMade({ ...ackTags, "services.k8s.aws/namespace": "billing" }, self, "s3", undefined);
    for (const policy of [null, "adopt", "adopt-or-create"] as const) {
      const p = plan(untaggedBy(ack), policy);
      assert.equal(p.do === "fail" && p.state.reason, "NameTaken", String(policy));
    }
  });

  test("an adoption policy still adopts ACK's object of its own namespace (ACK's own adoption)", () => {
    const ack = judgeAckMade(ackTags, self, "s3", undefined);
    assert.deepEqual(plan(untaggedBy(ack), "adopt"), { do: "adopt", strict: true });
  });
});

test("takeoverApprovals / changedApprovals: the keys whose approval changed, per kind", () => {
  assert.equal(takeoverApprovals(undefined).size, 0);
  assert.equal(takeoverApprovals({ data: { "Bucket.shop.a": "u1", bad: 3 } }).size, 1);
  assert.equal(takeoverKey(self), "Bucket.shop.assets");
  const before = new Map([
    ["Bucket.shop.kept", "u1"],
    ["Bucket.shop.withdrawn", "u2"],
    ["Bucket.shop.changed", "u3"],
  ]);
  const after = new Map([
    ["Bucket.shop.kept", "u1"],
    ["Bucket.shop.changed", "u4"],
    ["Bucket.shop.my.dotted.name", "u5"],
    ["Queue.shop.orders", "u6"],
  ]);
  assert.deepEqual(changedApprovals(before, after, "Bucket").sort(), [
    "shop/changed",
    "shop/my.dotted.name",
    "shop/withdrawn",
  ]);
  assert.deepEqual(changedApprovals(before, after, "Queue"), ["shop/orders"]);
});
