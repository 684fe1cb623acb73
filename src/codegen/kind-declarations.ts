// The declarations generation reads, with where each kind's generated module goes.
// TODO(issue 20): folded into the one kind catalog.
import { tableDeclaration } from "../services/dynamodb/table-declaration.ts";
import { dbInstanceDeclaration } from "../services/rds/db-instance-declaration.ts";
import { bucketDeclaration } from "../services/s3/bucket-declaration.ts";
import { topicDeclaration } from "../services/sns/topic-declaration.ts";
import { queueDeclaration } from "../services/sqs/queue-declaration.ts";
import type { KindDeclaration } from "./declaration.ts";

export interface DeclaredKind {
  readonly declaration: KindDeclaration;
  /** The generated module, relative to the repository root. */
  readonly output: string;
  /** The generated exports' prefix (`queue` → queueFieldSchemas). */
  readonly prefix: string;
}

export const declaredKinds: readonly DeclaredKind[] = [
  { declaration: bucketDeclaration, output: "src/services/s3/generated/bucket-fields.ts", prefix: "bucket" },
  { declaration: queueDeclaration, output: "src/services/sqs/generated/queue-fields.ts", prefix: "queue" },
  { declaration: topicDeclaration, output: "src/services/sns/generated/topic-fields.ts", prefix: "topic" },
  {
    declaration: tableDeclaration,
    output: "src/services/dynamodb/generated/table-fields.ts",
    prefix: "table",
  },
  {
    declaration: dbInstanceDeclaration,
    output: "src/services/rds/generated/db-instance-fields.ts",
    prefix: "dbInstance",
  },
];
