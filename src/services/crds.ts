// Each service module's resource CRD, by kind. Kinds not listed here still get a provisional
// CRD (src/crds.ts) so that their objects can be created and explained before their module lands.
import type { CrdSource } from "../api/crd.ts";
import { tableCrdSource } from "./dynamodb/schema.ts";
import { bucketCrdSource } from "./s3/schema.ts";
import { topicCrdSource } from "./sns/schema.ts";
import { queueCrdSource } from "./sqs/schema.ts";

export const serviceCrdSources: Readonly<Record<string, CrdSource>> = {
  Bucket: bucketCrdSource,
  Topic: topicCrdSource,
  Queue: queueCrdSource,
  Table: tableCrdSource,
};
