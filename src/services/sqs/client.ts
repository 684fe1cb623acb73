// How crossrole builds an SQS client (the pool keys and reuses it). The SDK's defaults fit SQS;
// the factory exists so the pool stays service-agnostic.
import { SQSClient } from "@aws-sdk/client-sqs";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const sqsClientFactory: ClientFactory<SQSClient> = {
  name: "sqs",
  create: (config) => new SQSClient(config),
};
