// How crossrole builds an IAM client (the pool keys and reuses it). The SDK's defaults
// fit IAM (its endpoint is global whatever the region); the factory exists so the pool stays service-agnostic.
import { IAMClient } from "@aws-sdk/client-iam";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const iamClientFactory: ClientFactory<IAMClient> = {
  name: "iam",
  create: (config) => new IAMClient(config),
};
