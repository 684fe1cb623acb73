// Each service module's resource CRD, by kind, with its fields' descriptions from the kind's
// generated field schemas (src/codegen: AWS's documentation). A kind of src/api/kinds.ts
// missing here has no CRD at all (src/crd-sources.ts refuses it by name). Only generation and
// installation read this file: the controller never loads the documentation.
import { z } from "zod";
import type { CrdSource } from "../api/crd.ts";
import { identityRefSchema } from "../api/identity-ref.ts";
import { tableFieldSchemas } from "./dynamodb/generated/table-fields.ts";
import { tableCrdSource } from "./dynamodb/schema.ts";
import { dbInstanceFieldSchemas } from "./rds/generated/db-instance-fields.ts";
import { dbInstanceCrdSource } from "./rds/schema.ts";
import { bucketFieldSchemas } from "./s3/generated/bucket-fields.ts";
import { bucketCrdSource } from "./s3/schema.ts";
import { topicFieldSchemas } from "./sns/generated/topic-fields.ts";
import { topicCrdSource } from "./sns/schema.ts";
import { queueFieldSchemas } from "./sqs/generated/queue-fields.ts";
import { queueCrdSource } from "./sqs/schema.ts";

const documented = (source: CrdSource, fields: z.ZodRawShape): CrdSource => ({
  ...source,
  specDocumentation: z.object({ identityRef: identityRefSchema, ...fields }),
});

export const serviceCrdSources: Readonly<Record<string, CrdSource>> = {
  Bucket: documented(bucketCrdSource, bucketFieldSchemas),
  Topic: documented(topicCrdSource, topicFieldSchemas),
  Queue: documented(queueCrdSource, queueFieldSchemas),
  Table: documented(tableCrdSource, tableFieldSchemas),
  DBInstance: documented(dbInstanceCrdSource, dbInstanceFieldSchemas),
};
