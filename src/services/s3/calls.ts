// How every S3 and S3 Control call of a bucket is made: logged with the bucket's name, failures
// as BucketErrors; NoSuchBucket means the bucket is gone.
import { serviceCalls } from "../service-calls.ts";
import { classifyError, errorCode } from "./errors.ts";

export const s3 = serviceCalls({
  service: "s3",
  object: "bucket",
  isGone: (err) => errorCode(err) === "NoSuchBucket",
  classify: classifyError,
});
