// How crossrole builds a Secrets Manager client (the pool keys and reuses it). The SDK's defaults
// fit; the factory exists so the pool stays service-agnostic.
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const secretsManagerClientFactory: ClientFactory<SecretsManagerClient> = {
  name: "secretsmanager",
  create: (config) => new SecretsManagerClient(config),
};
