import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { DescribeContributorInsightsCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { declaredKindErrors } from "../declared-kind/errors.ts";
import { tableCodecs } from "./generated/table-fields.ts";
import { tableDeclaration } from "./table-declaration.ts";

// How the Table kind reads DynamoDB's errors (its declaration's words through the generic
// runtime's classification), in the shapes this test was first written against.
const errors = declaredKindErrors("Table", "dynamodb", tableDeclaration, { codecs: tableCodecs });
const classifyError = (err: unknown, c: { operation: string; table: string; field?: string }) =>
  errors.classify(err, { operation: c.operation, name: c.table, field: c.field });
const errorCode = errors.code;
const isNotFound = errors.isNotFound;
/** ResourceInUse: the table exists already (CreateTable) or is busy with an earlier change. */
const isInUse = errors.isAlreadyExists;
const isDeletionProtected = (err: unknown) =>
  classifyError(err, { operation: "DeleteTable", table: "t" }).field === "spec.deletionProtectionEnabled";

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

describe("an answer the SDK cannot read", () => {
  test("names the operation, the table and the HTTP status, not the SDK's parse error", async () => {
    // A real SDK client against a server that answers as moto's DescribeContributorInsights does
    // when it fails: HTTP 500 with an HTML page instead of DynamoDB's JSON error document.
    const server = createServer((_req, res) => {
      res.writeHead(500, { "content-type": "text/html" });
      res.end("<!doctype html><title>500 Internal Server Error</title>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const client = new DynamoDBClient({
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
      maxAttempts: 1,
    });
    try {
      const err = await client.send(new DescribeContributorInsightsCommand({ TableName: "orders" })).then(
        () => assert.fail("the call succeeded"),
        (e: unknown) => e,
      );
      const e = classifyError(err, { operation: "DescribeContributorInsights", table: "orders" });
      assert.equal(e.code, "HTTP500");
      assert.equal(e.terminal, false);
      assert.equal(
        e.message,
        'DescribeContributorInsights on table "orders" failed: DynamoDB answered HTTP 500 with a body that is no AWS answer (DynamoDB server error; retrying)',
      );
      assert.doesNotMatch(e.message, /Unexpected token|JSON|Deserialization/);
    } finally {
      client.destroy();
      server.close();
    }
  });
});
