// How crossrole builds a KMS client (the pool keys and reuses it): the SDK's defaults, but a
// CreateKey is never sent twice by the SDK's own retries (single-attempt.ts): a second attempt
// after a lost answer would be a second key.
import { KMSClient } from "@aws-sdk/client-kms";
import type { ClientFactory } from "../../credentials/client-pool.ts";
import { sendOnce } from "../../credentials/single-attempt.ts";

export const kmsClientFactory: ClientFactory<KMSClient> = {
  name: "kms",
  create: (config) => sendOnce(new KMSClient(config), ["CreateKey"]),
};
