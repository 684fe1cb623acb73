// How crossrole builds an RDS client (the pool keys and reuses it). The SDK's defaults fit RDS;
// the factory exists so the pool stays service-agnostic.
import { RDSClient } from "@aws-sdk/client-rds";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const rdsClientFactory: ClientFactory<RDSClient> = {
  name: "rds",
  create: (config) => new RDSClient(config),
};
