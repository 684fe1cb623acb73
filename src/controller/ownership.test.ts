import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { judgeOwnership, type Owner, ownershipTags } from "./ownership.ts";

const self: Owner = { kind: "Bucket", namespace: "shop", name: "assets", uid: "uid-self" };

describe("ownershipTags", () => {
  test("name the namespace, the object and its UID, and the controller version (ACK's key)", () => {
    const tags = ownershipTags(self);
    assert.equal(tags["services.k8s.aws/namespace"], "shop");
    assert.equal(tags["services.k8s.aws/owner"], "Bucket/shop/assets");
    assert.equal(tags["services.k8s.aws/owner-uid"], "uid-self");
    assert.match(tags["services.k8s.aws/controller-version"] ?? "", /^crossrole-\d+\.\d+\.\d+/);
  });

  test("fit AWS's 256-character values for the longest names; an earlier object of such a name is still known", () => {
    const long: Owner = {
      kind: "DBSubnetGroup",
      namespace: "n".repeat(63),
      name: "x".repeat(253),
      uid: "uid-long",
    };
    const tags = ownershipTags(long);
    for (const [k, v] of Object.entries(tags)) assert.ok(v.length <= 256, `${k}: ${v.length}`);
    assert.ok(tags["services.k8s.aws/owner"]?.startsWith(`DBSubnetGroup/${"n".repeat(63)}/xxx`));
    assert.deepEqual(judgeOwnership(tags, { ...long, uid: "uid-new" }), { kind: "earlier", uid: "uid-long" });
    assert.equal(judgeOwnership(tags, { ...long, name: "x".repeat(252), uid: "uid-other" }).kind, "other");
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
    assert.deepEqual(judgeOwnership({ "services.k8s.aws/owner-uid": "uid-self" }, self), { kind: "ours" });
    const queue = ownershipTags({ ...self, kind: "Queue", uid: "uid-q" });
    assert.equal(judgeOwnership(queue, self).kind, "other");
  });
});

describe("judgeOwnership: the keys earlier versions wrote (crossrole.dev/owner, crossrole.dev/owner-uid)", () => {
  const legacy = (o: Owner) => ({
    "services.k8s.aws/namespace": o.namespace,
    "crossrole.dev/owner": `${o.kind}/${o.namespace}/${o.name}`,
    "crossrole.dev/owner-uid": o.uid,
  });
  test("decide exactly as the current keys: ours, earlier, other", () => {
    assert.deepEqual(judgeOwnership(legacy(self), self), { kind: "ours" });
    assert.deepEqual(judgeOwnership(legacy({ ...self, uid: "uid-before" }), self), {
      kind: "earlier",
      uid: "uid-before",
    });
    assert.deepEqual(judgeOwnership(legacy({ ...self, namespace: "other", uid: "uid-x" }), self), {
      kind: "other",
      owner: "Bucket/other/assets",
      uid: "uid-x",
    });
  });
  test("an object carrying both (a re-tag cut short): the current keys decide", () => {
    const theirs = ownershipTags({ ...self, namespace: "other", uid: "uid-other" });
    assert.equal(judgeOwnership({ ...legacy(self), ...theirs }, self).kind, "other");
    assert.deepEqual(
      judgeOwnership({ ...legacy({ ...self, uid: "uid-old" }), ...ownershipTags(self) }, self),
      {
        kind: "ours",
      },
    );
  });
});
