// How crossrole builds an S3 Control client (the pool keys and reuses it). Loaded with the first
// directory bucket only: S3 Control's SDK is not part of a general purpose bucket's reconcile.
import { S3ControlClient } from "@aws-sdk/client-s3-control";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const s3ControlClientFactory: ClientFactory<S3ControlClient> = {
  name: "s3control",
  create: (config) => new S3ControlClient(config),
};
