import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BoundedLabel, roleLabel } from "./account-labels.ts";

describe("the account and role labels of the AWS call metrics", () => {
  test("the first values are kept as they are; beyond the cap, 'other'", () => {
    const label = new BoundedLabel(2);
    assert.deepEqual(
      ["111111111111", "222222222222", "333333333333", "111111111111"].map((v) => label.of(v)),
      ["111111111111", "222222222222", "other", "111111111111"],
    );
  });

  test("a role is named by its name and path; no role is 'none'", () => {
    assert.equal(roleLabel("arn:aws:iam::111111111111:role/shop-team"), "shop-team");
    assert.equal(roleLabel("arn:aws:iam::111111111111:role/teams/shop"), "teams/shop");
    assert.equal(roleLabel(null), "none");
    assert.equal(roleLabel(undefined), "none");
  });
});
