import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classifyError, errorCode, isDeletionProtected, isInUse, isNotFound } from "./errors.ts";

const sdk = (name: string, message = "", status = 400) =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

describe("DynamoDB errors", () => {
  test("codes drop the Exception suffix", () => {
    assert.equal(errorCode(sdk("ResourceNotFoundException")), "ResourceNotFound");
    assert.ok(isNotFound(sdk("ResourceNotFoundException")));
    assert.ok(isInUse(sdk("ResourceInUseException")));
    assert.equal(errorCode(Object.assign(new Error("x"), { code: "ECONNREFUSED" })), "ECONNREFUSED");
  });
  test("ValidationException is terminal and names the field its message mentions", () => {
    const e = classifyError(
      sdk(
        "ValidationException",
        "One or more parameter values were invalid: ReadCapacityUnits must be at least 1",
      ),
      { operation: "UpdateTable", table: "orders" },
    );
    assert.ok(e.terminal);
    assert.equal(e.field, "spec.provisionedThroughput");
    assert.match(
      e.message,
      /^spec\.provisionedThroughput: UpdateTable on table "orders" failed with Validation/,
    );
  });
  test("limits, throttling, in-use and server errors are retryable", () => {
    for (const [name, status] of [
      ["LimitExceededException", 400],
      ["ThrottlingException", 400],
      ["ResourceInUseException", 400],
      ["InternalServerError", 500],
    ] as const) {
      const e = classifyError(sdk(name, "", status), { operation: "UpdateTable", table: "t" });
      assert.equal(e.terminal, false, name);
    }
    const busy = classifyError(sdk("ResourceInUseException"), { operation: "DeleteTable", table: "t" });
    assert.match(busy.message, /table is busy/);
  });
  test("deletion protection names spec.deletionProtectionEnabled and the fix", () => {
    const err = sdk(
      "ValidationException",
      "1 validation error detected: Table 'orders' can't be deleted while DeletionProtectionEnabled is set to True",
    );
    assert.ok(isDeletionProtected(err));
    const e = classifyError(err, { operation: "DeleteTable", table: "orders" });
    assert.equal(e.field, "spec.deletionProtectionEnabled");
    assert.match(e.message, /set spec\.deletionProtectionEnabled: false/);
    assert.match(e.message, /deletion-policy: retain/);
  });
  test("AccessDenied names the IAM action", () => {
    const e = classifyError(sdk("AccessDeniedException"), {
      operation: "TagResource",
      table: "t",
      field: "spec.tags",
    });
    assert.match(e.message, /dynamodb:TagResource/);
    assert.equal(e.terminal, false);
  });
});
