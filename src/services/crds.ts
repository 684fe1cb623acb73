// Each service module's resource CRD, by kind. A kind of src/api/kinds.ts missing here has no
// CRD at all (src/crd-sources.ts refuses it by name).
import type { CrdSource } from "../api/crd.ts";
import { tableCrdSource } from "./dynamodb/schema.ts";
import { dbInstanceCrdSource } from "./rds/schema.ts";
import { bucketCrdSource } from "./s3/schema.ts";
import { topicCrdSource } from "./sns/schema.ts";
import { queueCrdSource } from "./sqs/schema.ts";

export const serviceCrdSources: Readonly<Record<string, CrdSource>> = {
  Bucket: bucketCrdSource,
  Topic: topicCrdSource,
  Queue: queueCrdSource,
  Table: tableCrdSource,
  DBInstance: dbInstanceCrdSource,
};
