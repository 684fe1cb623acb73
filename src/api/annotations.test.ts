import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  namespaceAnnotations,
  parseAccountIdAnnotation,
  parseAdoptionPolicy,
  parseAllowedOwnerAccountIds,
  parseDeletionPolicy,
  parseEndpointUrl,
  parseIamRoleSelectorName,
  parseReadOnly,
  parseRegionAnnotation,
  parseTeamId,
  readNamespaceAnnotations,
  readResourceAnnotations,
  resourceAnnotations,
  serviceDeletionPolicyAnnotation,
} from "./annotations.ts";

/** Asserts a failed parse whose error names the annotation and says what to write. */
function assertError(result: { ok: boolean; error?: string }, annotation: string, fix: RegExp): void {
  assert.equal(result.ok, false);
  assert.ok(result.error?.startsWith(`annotation ${annotation}: `), result.error);
  assert.match(result.error ?? "", fix);
}

describe("annotation parsers", () => {
  test("account IDs: 12 digits", () => {
    const key = namespaceAnnotations.ownerAccountId;
    assert.deepEqual(parseAccountIdAnnotation(key, "222222222222"), { ok: true, value: "222222222222" });
    assert.deepEqual(parseAccountIdAnnotation(key, " 222222222222 "), { ok: true, value: "222222222222" });
    for (const bad of ["22222222222", "2222222222222", "abc", ""]) {
      assertError(
        parseAccountIdAnnotation(key, bad),
        key,
        /12-digit AWS account ID; write e\.g\. "222222222222"/,
      );
    }
  });

  test("allowed-owner-account-ids: comma-separated account IDs, spaces allowed, duplicates dropped", () => {
    const key = namespaceAnnotations.allowedOwnerAccountIds;
    assert.deepEqual(parseAllowedOwnerAccountIds("111111111111,222222222222"), {
      ok: true,
      value: ["111111111111", "222222222222"],
    });
    assert.deepEqual(parseAllowedOwnerAccountIds(" 111111111111 , 222222222222,111111111111"), {
      ok: true,
      value: ["111111111111", "222222222222"],
    });
    assertError(parseAllowedOwnerAccountIds(""), key, /lists no account/);
    assertError(
      parseAllowedOwnerAccountIds("111111111111,,222222222222"),
      key,
      /entries that are not 12-digit.*\(""\)/,
    );
    assertError(parseAllowedOwnerAccountIds("111111111111;222222222222"), key, /comma-separated/);
  });

  test("regions look like eu-west-1", () => {
    const key = resourceAnnotations.region;
    assert.deepEqual(parseRegionAnnotation(key, "eu-west-1"), { ok: true, value: "eu-west-1" });
    assertError(parseRegionAnnotation(key, "Ireland"), key, /write a region code like "eu-west-1"/);
    assertError(parseRegionAnnotation(key, "eu-west-1a"), key, /not an AWS region/);
  });

  test("endpoint URLs are http(s) with a host", () => {
    const key = namespaceAnnotations.endpointUrl;
    assert.deepEqual(parseEndpointUrl("http://127.0.0.1:5000"), { ok: true, value: "http://127.0.0.1:5000" });
    assert.deepEqual(parseEndpointUrl("https://s3.eu-west-1.amazonaws.com"), {
      ok: true,
      value: "https://s3.eu-west-1.amazonaws.com",
    });
    assertError(parseEndpointUrl("s3.amazonaws.com"), key, /not a URL; write an http\(s\) URL/);
    assertError(parseEndpointUrl("ftp://example.com"), key, /uses ftp; write an http:\/\/ or https:\/\/ URL/);
  });

  test("deletion-policy delete|retain, adoption-policy adopt|adopt-or-create, read-only true|false", () => {
    const deletion = resourceAnnotations.deletionPolicy;
    assert.deepEqual(parseDeletionPolicy(deletion, "retain"), { ok: true, value: "retain" });
    assertError(parseDeletionPolicy(deletion, "keep"), deletion, /write "delete" or "retain"/);
    assert.deepEqual(parseAdoptionPolicy("adopt-or-create"), { ok: true, value: "adopt-or-create" });
    assertError(
      parseAdoptionPolicy("create"),
      resourceAnnotations.adoptionPolicy,
      /write "adopt" or "adopt-or-create"/,
    );
    assert.deepEqual(parseReadOnly("true"), { ok: true, value: true });
    assertError(parseReadOnly("yes"), resourceAnnotations.readOnly, /write "true" or "false"/);
  });

  test("team IDs and selector names", () => {
    assert.deepEqual(parseTeamId("team-a"), { ok: true, value: "team-a" });
    assertError(parseTeamId("team a"), namespaceAnnotations.teamId, /not a team ID/);
    assert.deepEqual(parseIamRoleSelectorName("s3-team-a"), { ok: true, value: "s3-team-a" });
    assertError(parseIamRoleSelectorName("S3 Team"), resourceAnnotations.iamRoleSelector, /metadata\.name/);
  });
});

test("readNamespaceAnnotations: valid values, per-service deletion policies, every error", () => {
  const reading = readNamespaceAnnotations({
    [namespaceAnnotations.ownerAccountId]: "222222222222",
    [namespaceAnnotations.teamId]: "team-a",
    [namespaceAnnotations.defaultRegion]: "eu-west-1",
    [namespaceAnnotations.endpointUrl]: "nope",
    [namespaceAnnotations.allowedOwnerAccountIds]: "111111111111,222222222222",
    [serviceDeletionPolicyAnnotation("s3")]: "retain",
    [serviceDeletionPolicyAnnotation("rds")]: "forever",
    "unrelated.example.com/x": "y",
  });
  assert.deepEqual(reading.settings, {
    ownerAccountID: "222222222222",
    teamID: "team-a",
    defaultRegion: "eu-west-1",
    allowedOwnerAccountIDs: ["111111111111", "222222222222"],
    deletionPolicies: { s3: "retain" },
  });
  assert.equal(reading.errors.length, 2);
  assert.match(reading.errors[0] ?? "", /^annotation services\.k8s\.aws\/endpoint-url: "nope"/);
  assert.match(reading.errors[1] ?? "", /^annotation rds\.services\.k8s\.aws\/deletion-policy: "forever"/);
  assert.deepEqual(readNamespaceAnnotations(undefined), { settings: { deletionPolicies: {} }, errors: [] });
});

test("readResourceAnnotations", () => {
  const reading = readResourceAnnotations({
    [resourceAnnotations.region]: "us-east-1",
    [resourceAnnotations.deletionPolicy]: "delete",
    [resourceAnnotations.adoptionPolicy]: "adopt",
    [resourceAnnotations.readOnly]: "false",
    [resourceAnnotations.iamRoleSelector]: "team-a",
    [resourceAnnotations.ownerAccountId]: "2222",
  });
  assert.deepEqual(reading.settings, {
    region: "us-east-1",
    deletionPolicy: "delete",
    adoptionPolicy: "adopt",
    readOnly: false,
    iamRoleSelector: "team-a",
  });
  assert.deepEqual(reading.errors, [
    'annotation services.k8s.aws/owner-account-id: "2222" is not a 12-digit AWS account ID; write e.g. "222222222222"',
  ]);
});
