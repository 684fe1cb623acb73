// Queue examples in identities.ts's table form: valid ones, and one invalid one per
// class of mistake. The kind's schema.test.ts (src/services/<service>/) runs them through zod and
// test/integration/sqs-queue-crd.test.ts through a real kube-apiserver with the generated CRD;
// both must reject each invalid one at `field`, which shows the zod and CEL halves agree.
// (A policy that is not JSON is the one check only zod makes: CEL cannot parse JSON.)
import type { InvalidExample, ValidExample } from "./identities.ts";

type Obj = Record<string, unknown>;

export const queueExampleNamespace = "shop";

function queue(name: string, spec: Obj): Obj {
  return {
    apiVersion: "sqs.services.k8s.aws/v1alpha1",
    kind: "Queue",
    metadata: { name, namespace: queueExampleNamespace },
    spec,
  };
}

export const queueValidExamples: readonly ValidExample[] = [
  { title: "Queue with only a queueName", object: queue("minimal", { queueName: "shop-orders" }) },
  {
    title: "Queue with every managed field, ACK's field names and string values, and an identityRef",
    object: queue("full", {
      queueName: "shop-events",
      delaySeconds: "5",
      maximumMessageSize: "262144",
      messageRetentionPeriod: "345600",
      receiveMessageWaitTimeSeconds: "20",
      visibilityTimeout: "60",
      policy: '{"Version":"2012-10-17","Statement":[]}',
      redrivePolicy:
        '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:111111111111:shop-dlq","maxReceiveCount":"5"}',
      fifoQueue: "false",
      kmsMasterKeyID: "alias/aws/sqs",
      kmsDataKeyReusePeriodSeconds: "300",
      sqsManagedSSEEnabled: "false",
      tags: { team: "shop", "cost-center": "" },
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    }),
  },
  {
    title: "FIFO Queue as in ACK's own samples (string booleans)",
    object: queue("fifo", {
      queueName: "Shop_Orders-1.fifo",
      fifoQueue: "true",
      contentBasedDeduplication: "true",
      sqsManagedSSEEnabled: "true",
      tags: { tag1: "val1" },
    }),
  },
  { title: "Queue name of 80 characters", object: queue("long", { queueName: "q".repeat(80) }) },
];

export const queueInvalidExamples: readonly InvalidExample[] = [
  {
    title: "Queue without spec.queueName",
    object: queue("no-name", { delaySeconds: "0" }),
    field: "spec.queueName",
    message: "queueName is required",
    apiserverMessage: "Required value",
  },
  {
    title: "Queue name longer than 80 characters",
    object: queue("too-long", { queueName: "q".repeat(81) }),
    field: "spec.queueName",
    message: "queueName must be 1-80 characters",
    apiserverMessage: "may not be more than 80",
  },
  {
    title: "Queue name with a period and a space",
    object: queue("bad-chars", { queueName: "shop orders.v1" }),
    field: "spec.queueName",
    message: "queueName must use only ASCII letters, digits, '-' and '_'",
    apiserverMessage: "should match",
  },
  {
    title: "FIFO Queue whose name lacks .fifo",
    object: queue("fifo-no-suffix", { queueName: "orders", fifoQueue: "true" }),
    field: "spec.queueName",
    message: 'queueName must end with ".fifo" exactly when fifoQueue is "true"',
  },
  {
    title: "standard Queue whose name ends with .fifo",
    object: queue("suffix-no-fifo", { queueName: "orders.fifo" }),
    field: "spec.queueName",
    message: 'queueName must end with ".fifo" exactly when fifoQueue is "true"',
  },
  {
    title: "fifoQueue as a YAML boolean instead of ACK's string",
    object: queue("fifo-bool", { queueName: "orders.fifo", fifoQueue: true }),
    field: "spec.fifoQueue",
    message: 'fifoQueue must be the string "true" or "false"',
    apiserverMessage: "must be of type string",
  },
  {
    title: "visibilityTimeout as a YAML number instead of ACK's string",
    object: queue("vis-number", { queueName: "orders", visibilityTimeout: 30 }),
    field: "spec.visibilityTimeout",
    message: "visibilityTimeout must be a string",
    apiserverMessage: "must be of type string",
  },
  {
    title: "visibilityTimeout over 12 hours",
    object: queue("vis-long", { queueName: "orders", visibilityTimeout: "43201" }),
    field: "spec.visibilityTimeout",
    message: "visibilityTimeout must be a whole number from 0 to 43200 seconds",
  },
  {
    title: "delaySeconds that is not a number",
    object: queue("delay-text", { queueName: "orders", delaySeconds: "1m" }),
    field: "spec.delaySeconds",
    message: "delaySeconds must be a whole number from 0 to 900 seconds",
  },
  {
    title: "maximumMessageSize below 1 KiB",
    object: queue("small-size", { queueName: "orders", maximumMessageSize: "1023" }),
    field: "spec.maximumMessageSize",
    message: "maximumMessageSize must be a whole number from 1024 to 1048576 bytes",
  },
  {
    title: "messageRetentionPeriod over 14 days",
    object: queue("long-retention", { queueName: "orders", messageRetentionPeriod: "1209601" }),
    field: "spec.messageRetentionPeriod",
    message: "messageRetentionPeriod must be a whole number from 60 to 1209600 seconds",
  },
  {
    title: "receiveMessageWaitTimeSeconds over 20",
    object: queue("long-poll", { queueName: "orders", receiveMessageWaitTimeSeconds: "21" }),
    field: "spec.receiveMessageWaitTimeSeconds",
    message: "receiveMessageWaitTimeSeconds must be a whole number from 0 to 20 seconds",
  },
  {
    title: "contentBasedDeduplication on a standard Queue",
    object: queue("dedup-standard", { queueName: "orders", contentBasedDeduplication: "true" }),
    field: "spec.contentBasedDeduplication",
    message: "contentBasedDeduplication applies only to FIFO queues",
  },
  {
    title: "SSE-SQS and a KMS key together",
    object: queue("two-sse", {
      queueName: "orders",
      kmsMasterKeyID: "alias/aws/sqs",
      sqsManagedSSEEnabled: "true",
    }),
    field: "spec.sqsManagedSSEEnabled",
    message: 'sqsManagedSSEEnabled "true" and kmsMasterKeyID are two kinds of encryption',
  },
  {
    title: "Queue tag using a reserved ownership key",
    object: queue("reserved-tag", { queueName: "orders", tags: { "crossrole.dev/owner-uid": "x" } }),
    field: "spec.tags",
    message: 'tags key "crossrole.dev/owner-uid" is reserved',
  },
  {
    title: "Queue tag using ACK's namespace ownership key",
    object: queue("reserved-ack-tag", { queueName: "orders", tags: { "services.k8s.aws/namespace": "x" } }),
    field: "spec.tags",
    message: 'tags key "services.k8s.aws/namespace" is reserved: keys starting with services.k8s.aws/',
  },
  {
    title: "Queue tag key starting with aws:",
    object: queue("aws-tag", { queueName: "orders", tags: { "aws:createdBy": "x" } }),
    field: "spec.tags",
    message: 'tags key "aws:createdBy" is reserved: keys starting with aws:',
  },
  {
    title: "Queue tags as ACK's Bucket-style list instead of a map",
    object: queue("tag-list", { queueName: "orders", tags: [{ key: "team", value: "shop" }] }),
    field: "spec.tags",
    message: "tags must be a map",
    apiserverMessage: "must be of type object",
  },
];
