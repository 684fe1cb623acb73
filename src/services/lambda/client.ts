// How crossrole builds a Lambda client (the pool keys and reuses it). The SDK's defaults fit
// Lambda; the factory exists so the pool stays service-agnostic.
import { LambdaClient } from "@aws-sdk/client-lambda";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const lambdaClientFactory: ClientFactory<LambdaClient> = {
  name: "lambda",
  create: (config) => new LambdaClient(config),
};
