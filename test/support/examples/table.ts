// Table examples in identities.ts's table form: valid ones, and one invalid one per class
// of mistake. The kind's schema.test.ts (src/services/<service>/) runs them through zod and
// test/integration/dynamodb-table-crd.test.ts through a real kube-apiserver with the generated
// CRD; both must reject each invalid one at `field`, which shows the zod and CEL halves agree.
import type { InvalidExample, ValidExample } from "./identities.ts";

type Obj = Record<string, unknown>;

export const tableExampleNamespace = "shop";

function table(name: string, spec: Obj): Obj {
  return {
    apiVersion: "dynamodb.services.k8s.aws/v1alpha1",
    kind: "Table",
    metadata: { name, namespace: tableExampleNamespace },
    spec,
  };
}

const key = {
  attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
  keySchema: [{ attributeName: "id", keyType: "HASH" }],
};
const onDemand = { ...key, billingMode: "PAY_PER_REQUEST" };

export const tableValidExamples: readonly ValidExample[] = [
  {
    title: "on-demand Table with a partition key",
    object: table("minimal", { tableName: "orders", ...onDemand }),
  },
  {
    title: "provisioned Table without billingMode (DynamoDB's default)",
    object: table("provisioned", {
      tableName: "orders.v1_a-b",
      ...key,
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
    }),
  },
  {
    title: "Table as in ACK's samples: every managed field, ACK's names and shapes, and an identityRef",
    object: table("full", {
      tableName: "shop-orders",
      attributeDefinitions: [
        { attributeName: "customer", attributeType: "S" },
        { attributeName: "orderedAt", attributeType: "N" },
        { attributeName: "status", attributeType: "S" },
      ],
      keySchema: [
        { attributeName: "customer", keyType: "HASH" },
        { attributeName: "orderedAt", keyType: "RANGE" },
      ],
      billingMode: "PROVISIONED",
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 2 },
      globalSecondaryIndexes: [
        {
          indexName: "by-status",
          keySchema: [{ attributeName: "status", keyType: "HASH" }],
          projection: { projectionType: "INCLUDE", nonKeyAttributes: ["total"] },
          provisionedThroughput: { readCapacityUnits: 1, writeCapacityUnits: 1 },
        },
      ],
      streamSpecification: { streamEnabled: true, streamViewType: "NEW_AND_OLD_IMAGES" },
      sseSpecification: { enabled: true, sseType: "KMS", kmsMasterKeyID: "alias/aws/dynamodb" },
      timeToLive: { attributeName: "expiresAt", enabled: true },
      deletionProtectionEnabled: false,
      tableClass: "STANDARD",
      tags: [
        { key: "team", value: "shop" },
        { key: "cost-center", value: "" },
      ],
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    }),
  },
  {
    title: "Table name of 255 characters",
    object: table("long", { tableName: "t".repeat(255), ...onDemand }),
  },
  {
    title: "Table with every field group added for ACK parity (ACK's spellings: contributorInsights ENABLED)",
    object: table("every-group", {
      tableName: "forum",
      attributeDefinitions: [
        { attributeName: "forum", attributeType: "S" },
        { attributeName: "subject", attributeType: "S" },
        { attributeName: "lastPost", attributeType: "S" },
      ],
      keySchema: [
        { attributeName: "forum", keyType: "HASH" },
        { attributeName: "subject", keyType: "RANGE" },
      ],
      billingMode: "PAY_PER_REQUEST",
      onDemandThroughput: { maxReadRequestUnits: 100, maxWriteRequestUnits: 100 },
      localSecondaryIndexes: [
        {
          indexName: "by-last-post",
          keySchema: [
            { attributeName: "forum", keyType: "HASH" },
            { attributeName: "lastPost", keyType: "RANGE" },
          ],
          projection: { projectionType: "KEYS_ONLY" },
        },
      ],
      globalSecondaryIndexes: [
        {
          indexName: "by-subject",
          keySchema: [{ attributeName: "subject", keyType: "HASH" }],
          projection: { projectionType: "ALL" },
          onDemandThroughput: { maxReadRequestUnits: 50 },
        },
      ],
      streamSpecification: { streamEnabled: true, streamViewType: "NEW_AND_OLD_IMAGES" },
      continuousBackups: { pointInTimeRecoveryEnabled: true },
      contributorInsights: "ENABLED",
      resourcePolicy: '{"Version":"2012-10-17","Statement":[]}',
      tableReplicas: [
        { regionName: "eu-west-1", globalSecondaryIndexes: [{ indexName: "by-subject" }] },
        { regionName: "us-west-2", tableClassOverride: "STANDARD_INFREQUENT_ACCESS" },
      ],
    }),
  },
];

export const tableInvalidExamples: readonly InvalidExample[] = [
  {
    title: "Table without spec.tableName",
    object: table("no-name", onDemand),
    field: "spec.tableName",
    message: "tableName is required",
    apiserverMessage: "Required value",
  },
  {
    title: "Table name of 2 characters",
    object: table("short", { tableName: "ab", ...onDemand }),
    field: "spec.tableName",
    message: "tableName must be 3-255 characters",
    apiserverMessage: "at least 3 chars long",
  },
  {
    title: "Table name with a slash",
    object: table("slash", { tableName: "shop/orders", ...onDemand }),
    field: "spec.tableName",
    message: "tableName must be 3-255 characters of letters, digits",
    apiserverMessage: "should match",
  },
  {
    title: "Table without keySchema",
    object: table("no-key", {
      tableName: "orders",
      attributeDefinitions: key.attributeDefinitions,
      billingMode: "PAY_PER_REQUEST",
    }),
    field: "spec.keySchema",
    message: "keySchema is required",
    apiserverMessage: "Required value",
  },
  {
    title: "keySchema starting with a RANGE key",
    object: table("range-first", {
      tableName: "orders",
      ...onDemand,
      keySchema: [{ attributeName: "id", keyType: "RANGE" }],
    }),
    field: "spec.keySchema",
    message: "keySchema must be one HASH element",
  },
  {
    title: "keySchema naming an undefined attribute",
    object: table("undefined-key", {
      tableName: "orders",
      ...onDemand,
      keySchema: [{ attributeName: "other", keyType: "HASH" }],
    }),
    field: "spec.keySchema",
    message: "attributeDefinitions does not define",
  },
  {
    title: "attributeType not S, N or B",
    object: table("bad-type", {
      tableName: "orders",
      ...onDemand,
      attributeDefinitions: [{ attributeName: "id", attributeType: "STRING" }],
    }),
    field: "spec.attributeDefinitions[0].attributeType",
    message: "attributeType must be S (string), N (number) or B (binary)",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "PROVISIONED Table without provisionedThroughput",
    object: table("no-throughput", { tableName: "orders", ...key, billingMode: "PROVISIONED" }),
    field: "spec.provisionedThroughput",
    message: "provisionedThroughput is required when billingMode is PROVISIONED",
  },
  {
    title: "PAY_PER_REQUEST Table with provisionedThroughput",
    object: table("ppr-throughput", {
      tableName: "orders",
      ...onDemand,
      provisionedThroughput: { readCapacityUnits: 1, writeCapacityUnits: 1 },
    }),
    field: "spec.provisionedThroughput",
    message: "not allowed when billingMode is PAY_PER_REQUEST",
  },
  {
    title: "zero read capacity",
    object: table("zero-rcu", {
      tableName: "orders",
      ...key,
      provisionedThroughput: { readCapacityUnits: 0, writeCapacityUnits: 1 },
    }),
    field: "spec.provisionedThroughput.readCapacityUnits",
    message: "provisionedThroughput.readCapacityUnits must be at least 1",
  },
  {
    title: "unknown billingMode",
    object: table("bad-billing", { tableName: "orders", ...key, billingMode: "ON_DEMAND" }),
    field: "spec.billingMode",
    message: "billingMode must be PROVISIONED or PAY_PER_REQUEST",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "stream enabled without a view type",
    object: table("stream-no-view", {
      tableName: "orders",
      ...onDemand,
      streamSpecification: { streamEnabled: true },
    }),
    field: "spec.streamSpecification.streamViewType",
    message: "streamViewType is required when streamEnabled is true",
  },
  {
    title: "index keyed on an undefined attribute",
    object: table("gsi-undefined", {
      tableName: "orders",
      ...onDemand,
      globalSecondaryIndexes: [
        {
          indexName: "by-x",
          keySchema: [{ attributeName: "x", keyType: "HASH" }],
          projection: { projectionType: "ALL" },
        },
      ],
    }),
    field: "spec.globalSecondaryIndexes",
    message: "globalSecondaryIndexes[].keySchema names an attribute",
    admissionOnly:
      "an index that exists may outlive its attribute's definition (DynamoDB, ACK); only a new one needs it",
  },
  {
    title: "onDemandThroughput on a provisioned table",
    object: table("on-demand-provisioned", {
      tableName: "orders",
      ...key,
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
      onDemandThroughput: { maxReadRequestUnits: 10 },
    }),
    field: "spec.onDemandThroughput",
    message: "onDemandThroughput applies only to billingMode PAY_PER_REQUEST",
  },
  {
    title: "onDemandThroughput without either maximum",
    object: table("on-demand-empty", { tableName: "orders", ...onDemand, onDemandThroughput: {} }),
    field: "spec.onDemandThroughput",
    message: "must set maxReadRequestUnits, maxWriteRequestUnits or both",
  },
  {
    title: "a local secondary index on a table without a sort key",
    object: table("lsi-no-sort-key", {
      tableName: "orders",
      ...onDemand,
      localSecondaryIndexes: [
        {
          indexName: "by-id",
          keySchema: [{ attributeName: "id", keyType: "HASH" }],
          projection: { projectionType: "ALL" },
        },
      ],
    }),
    field: "spec.localSecondaryIndexes",
    message: "localSecondaryIndexes need a table with a sort key",
  },
  {
    title: "two replicas in one Region",
    object: table("replica-twice", {
      tableName: "orders",
      ...onDemand,
      tableReplicas: [{ regionName: "eu-west-1" }, { regionName: "eu-west-1" }],
    }),
    field: "spec.tableReplicas[1]",
    message: "tableReplicas must not repeat a regionName",
    apiserverMessage: "Duplicate value",
  },
  {
    title: "contributorInsights neither ENABLE(D) nor DISABLE(D)",
    object: table("insights-on", { tableName: "orders", ...onDemand, contributorInsights: "ON" }),
    field: "spec.contributorInsights",
    message: "contributorInsights must be one of ENABLE, DISABLE, ENABLED, DISABLED",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "tags with a reserved ownership key",
    object: table("reserved-tag", {
      tableName: "orders",
      ...onDemand,
      tags: [{ key: "crossrole.dev/owner", value: "Table/other/x" }],
    }),
    field: "spec.tags[0].key",
    message: 'tags[].key "crossrole.dev/owner" is reserved: keys starting with crossrole.dev/',
  },
  {
    title: "tags with an aws: key",
    object: table("aws-tag", {
      tableName: "orders",
      ...onDemand,
      tags: [{ key: "aws:cloudformation", value: "x" }],
    }),
    field: "spec.tags[0].key",
    message: 'tags[].key "aws:cloudformation" is reserved: keys starting with aws:',
  },
  {
    title: "tags as ACK's map form of another controller instead of a list",
    object: table("tag-map", { tableName: "orders", ...onDemand, tags: { team: "shop" } }),
    field: "spec.tags",
    message: "tags must be a list of {key, value}",
    apiserverMessage: "must be of type array",
  },
];
