// The one catalog of served kinds: for each kind of src/api/kinds.ts (the compiler checks that
// every one is here, and nothing else), its service module, its CRD source and its declaration.
// Nothing else names the kinds: the served list, the module loaders, the CRDs and the generated
// modules are all read from here.
//
// Everything a kind brings is loaded on demand: `crossrole run` imports a kind's module — and with
// it that service's AWS SDK client and its generated schemas, the largest part of the process's
// code — only once a resource of the kind exists (src/controller/start.ts). A cluster with only
// Buckets never loads the RDS, DynamoDB, SNS or SQS code. The CRD sources (with the generated
// field documentation) are loaded only by generation and installation.
import { z } from "zod";
import type { CrdSource } from "../api/crd.ts";
import { identityRefSchema } from "../api/identity-ref.ts";
import type { KindName } from "../api/kinds.ts";
import type { KindDeclaration } from "../codegen/declaration.ts";
import type { DeclaredKindSource } from "./declared-kind/module.ts";
import { tableDeclaration } from "./dynamodb/table-declaration.ts";
import { dbInstanceDeclaration } from "./rds/db-instance-declaration.ts";
import { dbSubnetGroupDeclaration } from "./rds/db-subnet-group-declaration.ts";
import { bucketDeclaration } from "./s3/bucket-declaration.ts";
import type { ServiceModule } from "./service-module.ts";
import { topicDeclaration } from "./sns/topic-declaration.ts";
import { queueDeclaration } from "./sqs/queue-declaration.ts";

// biome-ignore lint/suspicious/noExplicitAny: modules differ in their spec/observed/client types
export type AnyServiceModule = ServiceModule<any, any, any>;

export interface ServedKind {
  /** The service module the reconciler drives. */
  readonly module: () => Promise<AnyServiceModule>;
  /** The CRD source, its field descriptions from the generated schemas (AWS's documentation). */
  readonly crd: () => Promise<CrdSource>;
  /** What the kind's generated module is made from (src/codegen). */
  readonly declaration: KindDeclaration;
  /** Where the generated module goes, and its exports' prefix (`queue` → queueFieldSchemas). */
  readonly generated: { readonly path: string; readonly prefix: string };
  /** For a kind the generic runtime serves: what it serves it from (tests rebuild the module). */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK client type differs by service
  readonly declared?: () => Promise<DeclaredKindSource<any>>;
}

/** The CRD source with its fields described by the generated schemas, path by path. */
const documented = (source: CrdSource, fields: z.ZodRawShape): CrdSource => ({
  ...source,
  specDocumentation: z.object({ identityRef: identityRefSchema, ...fields }),
});

export const servedKindCatalog = {
  Bucket: {
    module: async () => (await import("./s3/module.ts")).bucketService,
    crd: async () =>
      documented(
        (await import("./s3/schema.ts")).bucketCrdSource,
        (await import("./s3/generated/bucket-fields.ts")).bucketFieldSchemas,
      ),
    declaration: bucketDeclaration,
    generated: { path: "src/services/s3/generated/bucket-fields.ts", prefix: "bucket" },
  },
  Queue: {
    module: async () => (await import("./sqs/module.ts")).queueService,
    crd: async () =>
      documented(
        (await import("./sqs/schema.ts")).queueCrdSource,
        (await import("./sqs/generated/queue-fields.ts")).queueFieldSchemas,
      ),
    declaration: queueDeclaration,
    generated: { path: "src/services/sqs/generated/queue-fields.ts", prefix: "queue" },
  },
  Topic: {
    module: async () => (await import("./sns/module.ts")).topicService,
    crd: async () =>
      documented(
        (await import("./sns/schema.ts")).topicCrdSource,
        (await import("./sns/generated/topic-fields.ts")).topicFieldSchemas,
      ),
    declaration: topicDeclaration,
    generated: { path: "src/services/sns/generated/topic-fields.ts", prefix: "topic" },
  },
  Table: {
    module: async () => (await import("./dynamodb/module.ts")).tableService,
    crd: async () =>
      documented(
        (await import("./dynamodb/schema.ts")).tableCrdSource,
        (await import("./dynamodb/generated/table-fields.ts")).tableFieldSchemas,
      ),
    declaration: tableDeclaration,
    generated: { path: "src/services/dynamodb/generated/table-fields.ts", prefix: "table" },
  },
  DBInstance: {
    module: async () => (await import("./rds/module.ts")).dbInstanceService,
    crd: async () =>
      documented(
        (await import("./rds/schema.ts")).dbInstanceCrdSource,
        (await import("./rds/generated/db-instance-fields.ts")).dbInstanceFieldSchemas,
      ),
    declaration: dbInstanceDeclaration,
    generated: { path: "src/services/rds/generated/db-instance-fields.ts", prefix: "dbInstance" },
  },
  // Served by the generic runtime (src/services/declared-kind/): a declaration and its hooks.
  DBSubnetGroup: {
    module: async () => (await import("./rds/db-subnet-group.ts")).dbSubnetGroupService,
    crd: async () => (await import("./rds/db-subnet-group.ts")).dbSubnetGroupCrdSource,
    declaration: dbSubnetGroupDeclaration,
    generated: { path: "src/services/rds/generated/db-subnet-group-fields.ts", prefix: "dbSubnetGroup" },
    declared: async () => (await import("./rds/db-subnet-group.ts")).dbSubnetGroupSource,
  },
} as const satisfies { readonly [K in KindName]: ServedKind };

/** The served kinds, in the catalog's order. */
export const servedKinds = Object.keys(servedKindCatalog) as KindName[];
