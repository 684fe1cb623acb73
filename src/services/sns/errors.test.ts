import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classifyError, errorCode, isAlreadyExists, isNotFound } from "./errors.ts";

/** An error shaped as the SNS SDK throws it (query protocol). */
function sdkError(name: string, message: string, status = 400): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });
}

describe("errorCode", () => {
  test("SNS's code from the SDK's exception name, Code, or a system error", () => {
    assert.equal(errorCode(sdkError("NotFoundException", "Topic does not exist", 404)), "NotFound");
    assert.equal(errorCode(sdkError("InvalidParameterException", "x")), "InvalidParameter");
    assert.equal(errorCode({ Code: "Throttled" }), "Throttled");
    assert.equal(errorCode({ code: "ECONNREFUSED" }), "ECONNREFUSED");
    assert.equal(errorCode({ $metadata: { httpStatusCode: 503 } }), "HTTP503");
  });
  test("NotFound and ResourceNotFound both mean no topic; 'already exists' is CreateTopic's clash", () => {
    assert.ok(isNotFound(sdkError("NotFoundException", "x", 404)));
    assert.ok(isNotFound(sdkError("ResourceNotFoundException", "x", 404)));
    assert.ok(!isNotFound(sdkError("InvalidParameterException", "x")));
    assert.ok(
      isAlreadyExists(
        sdkError(
          "InvalidParameterException",
          "Invalid parameter: Tags Reason: Topic already exists with different tags",
        ),
      ),
    );
    assert.ok(!isAlreadyExists(sdkError("InvalidParameterException", "Invalid parameter: Name")));
  });
});

describe("classifyError", () => {
  test("a value SNS refuses is terminal and names the field and the fix", () => {
    const e = classifyError(sdkError("InvalidParameterException", "Invalid parameter: DisplayName"), {
      operation: "SetTopicAttributes",
      topic: "orders",
      field: "spec.displayName",
    });
    assert.ok(e.terminal);
    assert.match(
      e.message,
      /^spec\.displayName: SetTopicAttributes on topic "orders" failed with InvalidParameter/,
    );
    assert.match(e.message, /fix spec\.displayName/);
  });
  test("too many tags and an unknown KMS key are terminal; their fields are named", () => {
    const tags = classifyError(sdkError("TagLimitExceededException", "x"), {
      operation: "TagResource",
      topic: "o",
      field: "spec.tags",
    });
    assert.ok(tags.terminal);
    assert.match(tags.message, /spec\.tags/);
    const kms = classifyError(sdkError("KMSNotFoundException", "x"), {
      operation: "SetTopicAttributes",
      topic: "o",
      field: "spec.kmsMasterKeyID",
    });
    assert.ok(kms.terminal);
    assert.match(kms.message, /fix spec\.kmsMasterKeyID/);
  });
  test("permissions, throttling, KMS state, 5xx and the network are retryable", () => {
    for (const err of [
      sdkError("AuthorizationErrorException", "not authorized", 403),
      sdkError("ThrottledException", "slow down"),
      sdkError("KMSDisabledException", "x"),
      sdkError("InternalErrorException", "x", 500),
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    ]) {
      assert.ok(!classifyError(err, { operation: "CreateTopic", topic: "o" }).terminal, String(err));
    }
    const denied = classifyError(sdkError("AuthorizationErrorException", "x", 403), {
      operation: "CreateTopic",
      topic: "o",
    });
    assert.match(denied.message, /lacks sns:CreateTopic/);
  });
  test("a TopicError passes through unchanged", () => {
    const e = classifyError(sdkError("InvalidParameterException", "x"), {
      operation: "CreateTopic",
      topic: "o",
    });
    assert.equal(classifyError(e, { operation: "DeleteTopic", topic: "o" }), e);
  });
});
