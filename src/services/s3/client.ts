// How crossrole builds an S3 client (the pool keys and reuses it): path-style addressing when an
// endpoint override is set, since emulators and VPC endpoints need it. S3 Control (a directory
// bucket's tags) is built on first use only: most buckets never need it.
import { S3Client } from "@aws-sdk/client-s3";
import type { ClientFactory } from "../../credentials/client-pool.ts";
import type { BucketClient, DirectoryControl } from "./directory-bucket-calls.ts";

export const s3ClientFactory: ClientFactory<S3Client> = {
  name: "s3",
  create: (config) =>
    new S3Client({
      ...config,
      ...(config.endpoint ? { forcePathStyle: true } : {}),
      // A directory bucket's calls crossrole makes are all S3 Express's regional ones (SigV4);
      // none needs a zonal session, which behind an endpoint override the SDK would ask for.
      disableS3ExpressSessionAuth: true,
    }),
};

/** `s3` with S3 Control made by `control` on the first call, once. */
export function bucketClient(s3: S3Client, control: () => Promise<DirectoryControl>): BucketClient {
  let made: Promise<DirectoryControl> | undefined;
  return {
    s3,
    control: () => {
      // A failure (say, STS unreachable) is not kept: the next call asks again.
      made ??= control().catch((err: unknown) => {
        made = undefined;
        throw err;
      });
      return made;
    },
  };
}
