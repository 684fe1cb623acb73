// The Bucket module's client for tests of general purpose buckets: the S3 client alone. A
// directory bucket's tags need S3 Control, which these tests do not give (the module then says so).
import type { S3Client } from "@aws-sdk/client-s3";
import type { BucketClient } from "./bucket-shims.ts";

export function buckets(s3: S3Client): BucketClient {
  return { s3 };
}
