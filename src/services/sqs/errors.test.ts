import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classifyError, errorCode, fieldFromMessage, isAlreadyExists, isNotFound } from "./errors.ts";

/** An error shaped as the SQS SDK throws it (JSON protocol, query-compatible Code). */
function sdkError(name: string, message: string, Code?: string, status = 400): Error {
  return Object.assign(new Error(message), {
    name,
    ...(Code === undefined ? {} : { Code }),
    $metadata: { httpStatusCode: status },
  });
}

const gone = () =>
  sdkError(
    "QueueDoesNotExist",
    "The specified queue does not exist.",
    "AWS.SimpleQueueService.NonExistentQueue",
  );

describe("errorCode", () => {
  test("the SDK's name first, legacy query codes mapped, system errors, HTTP status", () => {
    assert.equal(errorCode(gone()), "QueueDoesNotExist");
    assert.equal(errorCode(sdkError("QueueNameExists", "x", "QueueAlreadyExists")), "QueueNameExists");
    assert.equal(errorCode({ Code: "AWS.SimpleQueueService.NonExistentQueue" }), "QueueDoesNotExist");
    assert.equal(errorCode({ Code: "QueueAlreadyExists" }), "QueueNameExists");
    assert.equal(errorCode(sdkError("InvalidAttributeValueException", "x")), "InvalidAttributeValue");
    assert.equal(errorCode({ code: "ECONNREFUSED" }), "ECONNREFUSED");
    assert.equal(errorCode({ $metadata: { httpStatusCode: 503 } }), "HTTP503");
  });
  test("QueueDoesNotExist is not-found; QueueNameExists is CreateQueue's clash", () => {
    assert.ok(isNotFound(gone()));
    assert.ok(!isNotFound(sdkError("InvalidAttributeValue", "x")));
    assert.ok(
      isAlreadyExists(
        sdkError("QueueNameExists", "The specified queue already exists.", "QueueAlreadyExists"),
      ),
    );
    assert.ok(!isAlreadyExists(gone()));
  });
});

describe("classifyError", () => {
  test("InvalidAttributeValue is terminal and names the field being applied, and the fix", () => {
    const e = classifyError(
      sdkError("InvalidAttributeValue", "Invalid value for the parameter VisibilityTimeout."),
      {
        operation: "SetQueueAttributes",
        queue: "orders",
        field: "spec.visibilityTimeout",
      },
    );
    assert.ok(e.terminal);
    assert.equal(e.field, "spec.visibilityTimeout");
    assert.match(
      e.message,
      /^spec\.visibilityTimeout: SetQueueAttributes on queue "orders" failed with InvalidAttributeValue/,
    );
    assert.match(e.message, /fix spec\.visibilityTimeout/);
  });
  test("on CreateQueue the field comes from the attribute SQS names", () => {
    const e = classifyError(
      sdkError("InvalidAttributeValue", "Invalid value for the parameter MaximumMessageSize."),
      {
        operation: "CreateQueue",
        queue: "orders",
      },
    );
    assert.ok(e.terminal);
    assert.equal(e.field, "spec.maximumMessageSize");
    assert.match(e.message, /^spec\.maximumMessageSize: /);
    assert.equal(fieldFromMessage("Unknown Attribute KmsMasterKeyId."), "spec.kmsMasterKeyID");
    assert.equal(fieldFromMessage("something else"), undefined);
  });
  test("retryable: throttling, 5xx, network, access denied, a name deleted less than 60 s ago", () => {
    for (const [err, fragment] of [
      [sdkError("RequestThrottled", "slow down"), "throttled"],
      [sdkError("InternalError", "boom", undefined, 500), "server error"],
      [{ code: "ECONNRESET", message: "socket hang up" }, "ECONNRESET"],
      [sdkError("AccessDenied", "no", undefined, 403), "sqs:CreateQueue"],
      [sdkError("QueueDeletedRecently", "wait", "AWS.SimpleQueueService.QueueDeletedRecently"), "60 seconds"],
    ] as const) {
      const e = classifyError(err, { operation: "CreateQueue", queue: "orders" });
      assert.ok(!e.terminal, e.message);
      assert.ok(e.message.includes(fragment), e.message);
    }
  });
  test("KmsNotFound is terminal naming kmsMasterKeyID; a QueueError passes through unchanged", () => {
    const e = classifyError(sdkError("KmsNotFound", "no key"), {
      operation: "SetQueueAttributes",
      queue: "q",
    });
    assert.ok(e.terminal);
    assert.match(e.message, /spec\.kmsMasterKeyID/);
    assert.equal(classifyError(e, { operation: "DeleteQueue", queue: "q" }), e);
  });
});

describe("classifyError: a redrive policy naming a missing dead-letter queue", () => {
  test("is retryable (the DLQ may be on its way) and says which field names it", () => {
    const e = classifyError(
      sdkError(
        "QueueDoesNotExist",
        "Could not find DLQ for arn:aws:sqs:us-east-1:1:dlq",
        "AWS.SimpleQueueService.NonExistentQueue",
      ),
      { operation: "SetQueueAttributes", queue: "q", field: "spec.redrivePolicy" },
    );
    assert.ok(!e.terminal);
    assert.match(e.message, /dead-letter queue spec\.redrivePolicy names does not exist/);
  });
});
