import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { objectLockFromAws, putObjectLockInput, sameObjectLock } from "./object-lock.ts";

describe("Object Lock", () => {
  const on = objectLockFromAws({
    ObjectLockConfiguration: {
      ObjectLockEnabled: "Enabled",
      Rule: { DefaultRetention: { Mode: "GOVERNANCE", Days: 1, Years: 0 } },
    },
  });

  test("reads back as objectLockEnabledForBucket and the configuration; a 0 period is none", () => {
    assert.equal(on.objectLockEnabledForBucket, true);
    assert.equal(
      sameObjectLock(
        { objectLockConfiguration: { rule: { defaultRetention: { mode: "GOVERNANCE", days: 1 } } } },
        on,
      ),
      true,
    );
    assert.deepEqual(objectLockFromAws({}), {});
  });

  test("asked for and off differs; on and not asked for only compares the rule (S3 cannot turn it off)", () => {
    assert.equal(sameObjectLock({ objectLockEnabledForBucket: true }, {}), false);
    assert.equal(sameObjectLock({}, {}), true);
    assert.equal(sameObjectLock({}, { objectLockEnabledForBucket: true }), true);
    // A rule S3 has and the spec does not is removed.
    assert.equal(sameObjectLock({}, on), false);
  });

  test("PutObjectLockConfiguration always turns it on, with the spec's rule if any", () => {
    assert.deepEqual(putObjectLockInput("b", {}), {
      Bucket: "b",
      ObjectLockConfiguration: { ObjectLockEnabled: "Enabled" },
    });
    assert.deepEqual(
      putObjectLockInput("b", {
        objectLockConfiguration: { rule: { defaultRetention: { mode: "COMPLIANCE", years: 2 } } },
      }),
      {
        Bucket: "b",
        ObjectLockConfiguration: {
          ObjectLockEnabled: "Enabled",
          Rule: { DefaultRetention: { Mode: "COMPLIANCE", Years: 2 } },
        },
      },
    );
  });
});
