import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BucketAlreadyExists, NoSuchBucket, NotFound, S3ServiceException } from "@aws-sdk/client-s3";
import { declaredKindErrors } from "../declared-kind/errors.ts";
import { bucketSource } from "./bucket.ts";

// How the Bucket kind reads S3's errors (its declaration's words through the generic runtime's
// classification, with its errorDetail hook), in the shapes this test was first written against.
// Built as declared-kind/module.ts builds it.
const errors = declaredKindErrors(
  bucketSource.kind.kind,
  bucketSource.kind.service,
  bucketSource.declaration,
  {
    codecs: bucketSource.generated.codecs,
    awsNames: bucketSource.generated.awsNames,
    attributes: bucketSource.generated.attributes?.fields,
    detail: bucketSource.hooks.errorDetail,
  },
);
const errorCode = errors.code;
const classifyError = (err: unknown, c: { operation: string; bucket: string; field?: string }) =>
  errors.classify(err, { operation: c.operation, name: c.bucket, field: c.field }) as InstanceType<
    typeof errors.ErrorClass
  > & { readonly bucketRegion?: string };
const BucketError = errors.ErrorClass;

const meta = (httpStatusCode: number) => ({ httpStatusCode, $metadata: {} });

/** An S3 error the way the SDK builds it from an XML error body. */
function s3Error(code: string, status: number, message = `${code} message`): S3ServiceException {
  const err = new S3ServiceException({
    name: code,
    $fault: status >= 500 ? "server" : "client",
    $metadata: { httpStatusCode: status },
    message,
  });
  return Object.assign(err, { Code: code });
}

const ctx = { operation: "PutBucketTagging", bucket: "shop-assets", field: "spec.tagging" } as const;

describe("errorCode", () => {
  test("prefers S3's Code, then the SDK's name", () => {
    assert.equal(errorCode(s3Error("SlowDown", 503)), "SlowDown");
    assert.equal(
      errorCode(new NoSuchBucket({ $metadata: meta(404), message: "The specified bucket does not exist" })),
      "NoSuchBucket",
    );
  });

  test("names bodiless HEAD answers after their status", () => {
    const head403 = new S3ServiceException({
      name: "Unknown",
      $fault: "client",
      $metadata: { httpStatusCode: 403 },
      message: "UnknownError",
    });
    assert.equal(errorCode(head403), "AccessDenied");
    assert.match(
      classifyError(head403, { operation: "HeadBucket", bucket: "b1" }).message,
      /^HeadBucket on bucket "b1" failed with AccessDenied \(the identity lacks s3:ListBucket/,
    );
    assert.equal(errorCode(new NotFound({ $metadata: meta(404), message: "NotFound" })), "NotFound");
  });

  test("uses a Node system error's code, and says Unknown when there is nothing", () => {
    assert.equal(
      errorCode(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
      "ECONNREFUSED",
    );
    assert.equal(errorCode(new Error("?")), "Unknown");
    assert.equal(errorCode(undefined), "Unknown");
  });
});

describe("classifyError", () => {
  for (const code of [
    "InvalidBucketName",
    "MalformedPolicy",
    "InvalidTag",
    "MalformedXML",
    "InvalidArgument",
  ]) {
    test(`${code} is terminal`, () => {
      assert.equal(classifyError(s3Error(code, 400), ctx).disposition, "terminal");
    });
  }

  for (const [code, status] of [
    ["SlowDown", 503],
    ["InternalError", 500],
    ["ServiceUnavailable", 503],
    ["Throttling", 400],
    ["RequestTimeout", 400],
    ["NoSuchBucket", 404],
    ["AccessDenied", 403],
    ["BucketNotEmpty", 409],
    ["OperationAborted", 409],
  ] as const) {
    test(`${code} is retryable`, () => {
      assert.equal(classifyError(s3Error(code, status), ctx).disposition, "retryable");
    });
  }

  test("network failures are retryable", () => {
    const err = classifyError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }), ctx);
    assert.equal(err.disposition, "retryable");
    assert.equal(err.code, "ECONNRESET");
  });

  test("the message names the field, the operation, the bucket, S3's code and its message", () => {
    const err = classifyError(s3Error("InvalidTag", 400, "The TagValue you have provided is invalid"), ctx);
    assert.equal(
      err.message,
      'spec.tagging: PutBucketTagging on bucket "shop-assets" failed with InvalidTag: The TagValue you have provided is invalid',
    );
    assert.equal(err.field, "spec.tagging");
    assert.equal(err.operation, "PutBucketTagging");
    assert.ok(err.cause instanceof S3ServiceException);
  });

  test("BucketAlreadyExists is terminal and says the name is taken by another account", () => {
    const err = classifyError(
      new BucketAlreadyExists({
        $metadata: meta(409),
        message: "The requested bucket name is not available",
      }),
      { operation: "CreateBucket", bucket: "shop-assets", field: "spec.name" },
    );
    assert.equal(err.terminal, true);
    assert.match(
      err.message,
      /^spec\.name: CreateBucket on bucket "shop-assets" failed with BucketAlreadyExists/,
    );
    assert.match(err.message, /taken by another AWS account.*choose another name/);
  });

  test("AccessDenied names the IAM action the operation needs", () => {
    const err = classifyError(s3Error("AccessDenied", 403), {
      operation: "PutBucketEncryption",
      bucket: "b1",
      field: "spec.encryption",
    });
    assert.match(err.message, /lacks s3:PutEncryptionConfiguration on this bucket/);
  });

  test("BucketNotEmpty says how to get the bucket deleted", () => {
    const err = classifyError(s3Error("BucketNotEmpty", 409), { operation: "DeleteBucket", bucket: "b1" });
    assert.match(
      err.message,
      /^DeleteBucket on bucket "b1" failed with BucketNotEmpty.*empty it, or set the deletion policy to retain/,
    );
  });

  test("PermanentRedirect is terminal and carries the bucket's region", () => {
    const redirect = Object.assign(
      new S3ServiceException({
        name: "Unknown",
        $fault: "client",
        $metadata: { httpStatusCode: 301 },
        message: "",
      }),
      { $response: { headers: { "x-amz-bucket-region": "eu-central-1" } } },
    );
    const err = classifyError(redirect, { operation: "HeadBucket", bucket: "b1" });
    assert.equal(err.code, "PermanentRedirect");
    assert.equal(err.terminal, true);
    assert.equal(err.bucketRegion, "eu-central-1");
    assert.match(err.message, /lives in region eu-central-1/);
  });

  test("a BucketError passes through unchanged", () => {
    const err = new BucketError({
      disposition: "terminal",
      code: "X",
      operation: "CreateBucket",
      object: "b1",
      message: "m",
    });
    assert.equal(classifyError(err, ctx), err);
  });
});
