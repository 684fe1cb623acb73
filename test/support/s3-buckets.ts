// The s3 module's client for tests of general purpose buckets: the S3 client alone. A directory
// bucket's tags need S3 Control, which these tests do not give (asking for it fails the test).
import type { S3Client } from "@aws-sdk/client-s3";
import { bucketClient } from "../../src/services/s3/client.ts";
import type { BucketClient } from "../../src/services/s3/directory-bucket-calls.ts";

export function buckets(s3: S3Client): BucketClient {
  return bucketClient(s3, () =>
    Promise.reject(new Error("this test gives no S3 Control: only a directory bucket's tags need it")),
  );
}
