import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classifyStsError, isRetryableStsFailure, StsCallFailed, stsFailureKind } from "./classify-error.ts";
import {
  AccessDeniedError,
  EndpointUnreachableError,
  ExpiredCredentialsError,
  InvalidParameterError,
  ThrottledError,
} from "./errors.ts";

function sdkError(name: string, status: number, fault: "client" | "server" = "client", message = "m") {
  return Object.assign(new Error(message), { name, $fault: fault, $metadata: { httpStatusCode: status } });
}

const ctx = {
  identity: "AWSRoleIdentity/billing",
  hop: 2,
  hops: 3,
  roleARN: "arn:aws:iam::222222222222:role/billing",
  operation: "AssumeRole" as const,
  endpoint: "https://sts.eu-west-1.amazonaws.com",
};

describe("stsFailureKind", () => {
  const table: [unknown, string, boolean][] = [
    [sdkError("Throttling", 400), "throttled", true],
    [sdkError("Anything", 429), "throttled", true],
    [sdkError("InternalFailure", 500, "server"), "server_error", true],
    [sdkError("ServiceUnavailable", 503, "server"), "server_error", true],
    [Object.assign(new Error("connect"), { code: "ECONNREFUSED" }), "unreachable", true],
    [Object.assign(new Error("t"), { name: "TimeoutError" }), "unreachable", true],
    [sdkError("AccessDenied", 403), "access_denied", false],
    [sdkError("InvalidIdentityToken", 400), "access_denied", false],
    [sdkError("ExpiredToken", 400), "expired", false],
    [sdkError("ValidationError", 400), "invalid", false],
    [sdkError("MalformedPolicyDocument", 400), "invalid", false],
    [sdkError("Weird", 400), "error", false],
  ];
  for (const [err, kind, retryable] of table) {
    test(`${(err as Error).name}/${(err as { code?: string }).code ?? ""} is ${kind}`, () => {
      assert.equal(stsFailureKind(err), kind);
      assert.equal(isRetryableStsFailure(stsFailureKind(err)), retryable);
    });
  }
});

describe("classifyStsError", () => {
  test("AccessDenied names the hop, the role and what the trust policy must allow", () => {
    const err = classifyStsError(sdkError("AccessDenied", 403, "client", "not authorized"), {
      ...ctx,
      externalID: true,
      sessionTags: true,
    });
    assert.ok(err instanceof AccessDeniedError);
    assert.equal(err.hop, 2);
    assert.equal(err.roleARN, ctx.roleARN);
    assert.match(
      err.message,
      /^AWSRoleIdentity\/billing \(hop 2 of 3\): AssumeRole of arn:aws:iam::222222222222:role\/billing was denied/,
    );
    assert.match(err.fix, /trust policy of arn:aws:iam::222222222222:role\/billing/);
    assert.match(err.fix, /ExternalId/);
    assert.match(err.fix, /sts:TagSession/);
  });

  test("throttling after retries says how many attempts and what to change", () => {
    const err = classifyStsError(new StsCallFailed("AssumeRole", 4, sdkError("Throttling", 400)), ctx);
    assert.ok(err instanceof ThrottledError);
    assert.match(err.message, /after 4 attempts/);
    assert.match(err.fix, /--sts-qps/);
  });

  test("an unreachable endpoint names it", () => {
    const err = classifyStsError(
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      ctx,
    );
    assert.ok(err instanceof EndpointUnreachableError);
    assert.equal(err.endpoint, ctx.endpoint);
    assert.match(err.message, /sts\.eu-west-1\.amazonaws\.com/);
    assert.match(err.fix, /endpoint-url/);
  });

  test("expired and invalid parameters are typed too", () => {
    assert.ok(classifyStsError(sdkError("ExpiredToken", 400), ctx) instanceof ExpiredCredentialsError);
    const invalid = classifyStsError(sdkError("ValidationError", 400, "client", "bad duration"), ctx);
    assert.ok(invalid instanceof InvalidParameterError);
    assert.match(invalid.message, /bad duration/);
  });

  test("web-identity denials point at the OIDC trust, subject and audience", () => {
    const err = classifyStsError(sdkError("InvalidIdentityToken", 400), {
      ...ctx,
      operation: "AssumeRoleWithWebIdentity",
      subject: "system:serviceaccount:shop:app",
      audiences: ["sts.amazonaws.com"],
    });
    assert.ok(err instanceof AccessDeniedError);
    assert.match(err.fix, /OIDC/);
    assert.match(err.fix, /system:serviceaccount:shop:app/);
  });
});
