// How crossrole builds a DynamoDB client (the pool keys and reuses it). The SDK's defaults fit
// DynamoDB; the factory exists so the pool stays service-agnostic.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const dynamodbClientFactory: ClientFactory<DynamoDBClient> = {
  name: "dynamodb",
  create: (config) => new DynamoDBClient(config),
};
