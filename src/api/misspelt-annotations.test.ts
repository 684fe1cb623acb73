import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { knownAnnotationKeys, misspeltAnnotations } from "./misspelt-annotations.ts";

const onResource = knownAnnotationKeys("resource");
const onNamespace = knownAnnotationKeys("namespace");

describe("annotation keys one typo away from a known one", () => {
  test("a misspelt key under ACK's or crossrole's prefix is named with the key it meant", () => {
    assert.deepEqual(
      misspeltAnnotations(
        {
          "services.k8s.aws/owner-acount-id": "111111111111",
          "services.k8s.aws/deletion-polcy": "retain",
          "services.k8s.aws/region": "eu-west-1",
        },
        onResource,
      ),
      [
        { key: "services.k8s.aws/deletion-polcy", suggestion: "services.k8s.aws/deletion-policy" },
        { key: "services.k8s.aws/owner-acount-id", suggestion: "services.k8s.aws/owner-account-id" },
      ],
    );
    assert.deepEqual(misspeltAnnotations({ "s3.services.k8s.aws/deletion-polcy": "retain" }, onNamespace), [
      { key: "s3.services.k8s.aws/deletion-polcy", suggestion: "s3.services.k8s.aws/deletion-policy" },
    ]);
    assert.deepEqual(misspeltAnnotations({ "Services.k8s.aws/Region": "x" }, onResource), [
      { key: "Services.k8s.aws/Region", suggestion: "services.k8s.aws/region" },
    ]);
  });

  test("known keys, other tools' keys and keys near nothing are left alone", () => {
    assert.deepEqual(
      misspeltAnnotations(
        {
          "services.k8s.aws/owner-account-id": "111111111111",
          "rds.services.k8s.aws/skip-final-snapshot": "true",
          "kubectl.kubernetes.io/last-applied-configuration": "{}",
          "example.com/deletion-polcy": "retain",
          "services.k8s.aws/something-else-entirely": "x",
        },
        onResource,
      ),
      [],
    );
    assert.deepEqual(misspeltAnnotations(undefined, onResource), []);
  });
});
