import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canonicalTags } from "./canonical-forms.ts";

describe("canonicalTags: every service's tag shape as sorted user pairs", () => {
  const owner = "services.k8s.aws/owner-uid";
  test("a map, {key, value}, KMS's {tagKey, tagValue} and S3's {tagSet} compare alike, ownership tags left out", () => {
    const want = [
      ["env", "prod"],
      ["team", "shop"],
    ];
    assert.deepEqual(canonicalTags({ team: "shop", env: "prod", [owner]: "u" }), want);
    assert.deepEqual(
      canonicalTags([
        { key: "team", value: "shop" },
        { key: "env", value: "prod" },
      ]),
      want,
    );
    assert.deepEqual(
      canonicalTags([
        { tagKey: "team", tagValue: "shop" },
        { tagKey: owner, tagValue: "u" },
        { tagKey: "env", tagValue: "prod" },
      ]),
      want,
    );
    assert.deepEqual(
      canonicalTags({
        tagSet: [
          { key: "env", value: "prod" },
          { key: "team", value: "shop" },
        ],
      }),
      want,
    );
  });

  test("KMS's pairs differ when a value does", () => {
    assert.notDeepEqual(
      canonicalTags([{ tagKey: "team", tagValue: "a" }]),
      canonicalTags([{ tagKey: "team", tagValue: "b" }]),
    );
  });
});
