// The service modules by kind name, loaded on demand: `crossrole run` imports a kind's module —
// and with it that service's AWS SDK client, the largest part of the process's code — only
// once a resource of the kind exists (src/controller/start.ts). A cluster with only Buckets
// never loads the RDS, DynamoDB, SNS or SQS clients. served.test.ts keeps this list equal to
// the modules listed in registry.ts.
import type { ServiceModule } from "./service-module.ts";

// biome-ignore lint/suspicious/noExplicitAny: modules differ in their spec/observed/client types
type AnyServiceModule = ServiceModule<any, any, any>;

export const serviceModuleLoaders: Readonly<Record<string, () => Promise<AnyServiceModule>>> = {
  Bucket: async () => (await import("./s3/module.ts")).bucketService,
  Topic: async () => (await import("./sns/module.ts")).topicService,
  Queue: async () => (await import("./sqs/module.ts")).queueService,
  Table: async () => (await import("./dynamodb/module.ts")).tableService,
  DBInstance: async () => (await import("./rds/module.ts")).dbInstanceService,
};
