// How crossrole builds an S3 client (the pool keys and reuses it): path-style addressing when an
// endpoint override is set, since emulators and VPC endpoints need it.
import { S3Client } from "@aws-sdk/client-s3";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const s3ClientFactory: ClientFactory<S3Client> = {
  name: "s3",
  create: (config) => new S3Client({ ...config, ...(config.endpoint ? { forcePathStyle: true } : {}) }),
};
