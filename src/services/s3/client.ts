// How crossrole builds an S3 client (the pool keys and reuses it): path-style addressing when an
// endpoint override is set, since emulators and VPC endpoints need it. (S3 Control, for a directory
// bucket's tags, is control-client.ts: made on first use only, bucket.ts.)
import { S3Client } from "@aws-sdk/client-s3";
import type { ClientFactory } from "../../credentials/client-pool.ts";

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
