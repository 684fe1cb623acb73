// How crossrole builds a KMS client (the pool keys and reuses it). The SDK's defaults fit; the
// factory exists so the pool stays service-agnostic.
import { KMSClient } from "@aws-sdk/client-kms";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const kmsClientFactory: ClientFactory<KMSClient> = {
  name: "kms",
  create: (config) => new KMSClient(config),
};
