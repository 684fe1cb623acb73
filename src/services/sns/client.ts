// How crossrole builds an SNS client (the pool keys and reuses it). The SDK's defaults fit SNS;
// the factory exists so the pool stays service-agnostic.
import { SNSClient } from "@aws-sdk/client-sns";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const snsClientFactory: ClientFactory<SNSClient> = {
  name: "sns",
  create: (config) => new SNSClient(config),
};
