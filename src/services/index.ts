// The kinds the controller reconciles: one service module each. A kind listed in
// src/api/kinds.ts but not here has a CRD and can be explained, but is not reconciled yet.

import { tableService } from "./dynamodb/module.ts";
import { bucketService } from "./s3/module.ts";
import type { ServiceModule } from "./service-module.ts";
import { topicService } from "./sns/module.ts";
import { queueService } from "./sqs/module.ts";

// biome-ignore lint/suspicious/noExplicitAny: modules differ in their spec/observed/client types
export const serviceModules: readonly ServiceModule<any, any, any>[] = [
  bucketService,
  topicService,
  queueService,
  tableService,
];
