// The kinds the controller reconciles: one service module each, for every kind of
// src/api/kinds.ts (a kind without one gets no CRD: src/crd-sources.ts refuses it by name).

import { tableService } from "./dynamodb/module.ts";
import { dbInstanceService } from "./rds/module.ts";
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
  dbInstanceService,
];
