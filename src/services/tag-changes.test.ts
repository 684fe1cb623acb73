import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { applyTagChanges, claimTags, type TagWrites } from "./tag-changes.ts";

/** The writes a module would send, in order. */
function recording(): { writes: TagWrites; sent: [string, unknown][] } {
  const sent: [string, unknown][] = [];
  return {
    sent,
    writes: {
      tag: async (tags) => void sent.push(["tag", tags]),
      untag: async (keys) => void sent.push(["untag", keys]),
    },
  };
}

const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Queue/shop/orders",
  "services.k8s.aws/owner-uid": "uid-1",
};

describe("claimTags", () => {
  test("tags the ownership keys first, then removes the earlier crossrole.dev/ keys, keeping the rest", async () => {
    const r = recording();
    await claimTags(
      { team: "shop", "crossrole.dev/owner": "Queue/shop/orders", "crossrole.dev/owner-uid": "uid-1" },
      owner,
      r.writes,
    );
    assert.deepEqual(r.sent, [
      ["tag", owner],
      ["untag", ["crossrole.dev/owner", "crossrole.dev/owner-uid"]],
    ]);
  });
  test("an object without earlier keys is only tagged", async () => {
    const r = recording();
    await claimTags({ team: "shop" }, owner, r.writes);
    assert.deepEqual(r.sent, [["tag", owner]]);
  });
});

describe("applyTagChanges", () => {
  test("never removes reserved keys, the user's removed tags go", async () => {
    const r = recording();
    await applyTagChanges(
      { ...owner, team: "shop" },
      { ...owner, team: "shop", old: "1", "crossrole.dev/owner-uid": "uid-1" },
      r.writes,
    );
    assert.deepEqual(r.sent, [["untag", ["old"]]]);
  });
});
