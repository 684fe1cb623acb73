// How crossrole builds an ECR client (the pool keys and reuses it). The SDK's defaults fit ECR;
// the factory exists so the pool stays service-agnostic.
import { ECRClient } from "@aws-sdk/client-ecr";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const ecrClientFactory: ClientFactory<ECRClient> = {
  name: "ecr",
  create: (config) => new ECRClient(config),
};
