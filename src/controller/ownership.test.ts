import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type CreateIntent,
  createdSinceAbsent,
  intentOf,
  intentSkewMs,
  intentWindowMs,
  judgeOwnership,
  type Owner,
  ownershipTags,
  unfinishedCreate,
} from "./ownership.ts";

const self: Owner = { kind: "Bucket", namespace: "shop", name: "assets", uid: "uid-self" };

describe("ownershipTags", () => {
  test("name the namespace, the object and its UID, and the controller version (ACK's key)", () => {
    const tags = ownershipTags(self);
    assert.equal(tags["services.k8s.aws/namespace"], "shop");
    assert.equal(tags["crossrole.dev/owner"], "Bucket/shop/assets");
    assert.equal(tags["crossrole.dev/owner-uid"], "uid-self");
    assert.match(tags["services.k8s.aws/controller-version"] ?? "", /^crossrole-\d+\.\d+\.\d+/);
  });
});

describe("judgeOwnership: the tags decide", () => {
  test("our UID → ours", () => {
    assert.deepEqual(judgeOwnership(ownershipTags(self), self), { kind: "ours" });
  });

  test("no ownership tags (user tags, or only ACK's namespace tag) → untagged", () => {
    assert.deepEqual(judgeOwnership({}, self), { kind: "untagged" });
    assert.deepEqual(judgeOwnership({ team: "shop", "services.k8s.aws/namespace": "shop" }, self), {
      kind: "untagged",
    });
  });

  test("another object's UID and name → other, naming it", () => {
    const theirs = ownershipTags({ kind: "Bucket", namespace: "other", name: "x", uid: "uid-other" });
    assert.deepEqual(judgeOwnership(theirs, self), {
      kind: "other",
      owner: "Bucket/other/x",
      uid: "uid-other",
    });
  });

  test("same kind/namespace/name but another UID → an earlier object of this name", () => {
    const earlier = ownershipTags({ ...self, uid: "uid-before" });
    assert.deepEqual(judgeOwnership(earlier, self), { kind: "earlier", uid: "uid-before" });
  });

  test("the UID decides, not the name: our name with a UID tag naming us is ours; another kind with our name is other", () => {
    assert.deepEqual(judgeOwnership({ "crossrole.dev/owner-uid": "uid-self" }, self), { kind: "ours" });
    const queue = ownershipTags({ ...self, kind: "Queue", uid: "uid-q" });
    assert.equal(judgeOwnership(queue, self).kind, "other");
  });
});

describe("unfinishedCreate: an untagged object our own recorded create made", () => {
  const at = { name: "shop-assets", account: "111111111111", region: "us-east-1" };
  const requested = Date.parse("2026-11-23T10:00:00.000Z");
  const intent: CreateIntent = {
    action: "create",
    name: at.name,
    ownerAccountID: at.account,
    region: at.region,
    requestedAt: new Date(requested).toISOString(),
  };
  const createdAt = (offsetMs: number) => new Date(requested + offsetMs);

  test("created just after the intent, same name, account and region → yes", () => {
    assert.equal(unfinishedCreate(intent, at, createdAt(150)), true);
    assert.equal(unfinishedCreate(intent, at, createdAt(-intentSkewMs)), true, "within clock skew");
    assert.equal(unfinishedCreate(intent, at, createdAt(intentWindowMs)), true, "an answer after a timeout");
  });

  test("an object that existed before the intent was recorded is never ours (no accidental takeover)", () => {
    assert.equal(unfinishedCreate(intent, at, createdAt(-intentSkewMs - 1)), false);
    assert.equal(unfinishedCreate(intent, at, createdAt(-86_400_000)), false);
  });

  test("long after the intent → no", () => {
    assert.equal(unfinishedCreate(intent, at, createdAt(intentWindowMs + 1)), false);
  });

  test("another name, account or region, no intent or no creation time → no", () => {
    assert.equal(unfinishedCreate(intent, { ...at, name: "other" }, createdAt(1)), false);
    assert.equal(unfinishedCreate(intent, { ...at, account: "222222222222" }, createdAt(1)), false);
    assert.equal(unfinishedCreate(intent, { ...at, region: "eu-west-1" }, createdAt(1)), false);
    assert.equal(unfinishedCreate(undefined, at, createdAt(1)), false);
    assert.equal(unfinishedCreate(intent, at, undefined), false);
    assert.equal(unfinishedCreate({ ...intent, requestedAt: "yesterday" }, at, createdAt(1)), false);
  });
});

describe("createdSinceAbsent: our own create answered for an object the read before it did not find", () => {
  const at = { name: "shop-assets", account: "111111111111", region: "us-east-1" };
  const requested = Date.parse("2026-11-23T10:00:00.000Z");
  const intent: CreateIntent = {
    action: "create",
    name: at.name,
    ownerAccountID: at.account,
    region: at.region,
    requestedAt: new Date(requested).toISOString(),
  };
  const t = (offsetMs: number) => new Date(requested + offsetMs);

  test("absent just before the intent, answered just after → made in between: ours, as unfinishedCreate says", () => {
    assert.equal(createdSinceAbsent(intent, at, t(-20), t(150)), true);
    assert.equal(
      createdSinceAbsent(intent, at, t(-intentSkewMs), t(intentWindowMs)),
      true,
      "the window's edges",
    );
    // Whatever the creation time between the two, unfinishedCreate agrees.
    for (const made of [-intentSkewMs, -20, 0, 150, intentWindowMs])
      assert.equal(unfinishedCreate(intent, at, t(made)), true);
  });

  test("a read more than the skew before the intent proves nothing: an older object may be between them", () => {
    assert.equal(createdSinceAbsent(intent, at, t(-intentSkewMs - 1), t(150)), false);
    assert.equal(unfinishedCreate(intent, at, t(-intentSkewMs - 1)), false, "which unfinishedCreate refuses");
  });

  test("an answer after the window, or a read after the answer → no", () => {
    assert.equal(createdSinceAbsent(intent, at, t(-20), t(intentWindowMs + 1)), false);
    assert.equal(createdSinceAbsent(intent, at, t(200), t(150)), false);
  });

  test("another name, account or region, no intent, a malformed one → no", () => {
    assert.equal(createdSinceAbsent(intent, { ...at, name: "other" }, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent(intent, { ...at, account: "222222222222" }, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent(intent, { ...at, region: "eu-west-1" }, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent(undefined, at, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent({ ...intent, requestedAt: "yesterday" }, at, t(-20), t(150)), false);
  });
});

describe("intentOf: read from status, whatever a tenant wrote there", () => {
  test("a well-formed intent", () => {
    const intent = {
      action: "create",
      name: "b",
      ownerAccountID: "111111111111",
      region: "us-east-1",
      requestedAt: "2026-11-23T10:00:00.000Z",
    };
    assert.deepEqual(intentOf({ intent }), intent);
  });

  test("anything malformed is no intent", () => {
    for (const status of [
      undefined,
      null,
      "x",
      {},
      { intent: null },
      { intent: "create" },
      { intent: { action: "delete", name: "b", ownerAccountID: "1", region: "r", requestedAt: "t" } },
      { intent: { action: "create", name: "", ownerAccountID: "1", region: "r", requestedAt: "t" } },
      { intent: { action: "create", name: "b", ownerAccountID: 1, region: "r", requestedAt: "t" } },
    ]) {
      assert.equal(intentOf(status), undefined, JSON.stringify(status));
    }
  });
});
