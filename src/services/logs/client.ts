// How crossrole builds a CloudWatch Logs client (the pool keys and reuses it). The SDK's defaults
// fit CloudWatch Logs; the factory exists so the pool stays service-agnostic.
import { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import type { ClientFactory } from "../../credentials/client-pool.ts";

export const logsClientFactory: ClientFactory<CloudWatchLogsClient> = {
  name: "logs",
  create: (config) => new CloudWatchLogsClient(config),
};
