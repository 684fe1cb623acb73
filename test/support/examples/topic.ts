// Topic examples in identities.ts's table form: valid ones, and one invalid one per
// class of mistake. The kind's schema.test.ts (src/services/<service>/) runs them through zod and
// test/integration/sns-topic-crd.test.ts through a real kube-apiserver with the generated CRD;
// both must reject each invalid one at `field`, which shows the zod and CEL halves agree.
// (A policy that is not JSON is the one check only zod makes: CEL cannot parse JSON.)
import type { InvalidExample, ValidExample } from "./identities.ts";

type Obj = Record<string, unknown>;

export const topicExampleNamespace = "shop";

function topic(name: string, spec: Obj): Obj {
  return {
    apiVersion: "sns.services.k8s.aws/v1alpha1",
    kind: "Topic",
    metadata: { name, namespace: topicExampleNamespace },
    spec,
  };
}

export const topicValidExamples: readonly ValidExample[] = [
  { title: "Topic with only a name", object: topic("minimal", { name: "shop-orders" }) },
  {
    title: "Topic with every managed field, ACK's field names, and an identityRef",
    object: topic("full", {
      name: "shop-events",
      displayName: "Shop events",
      policy: '{"Version":"2012-10-17","Statement":[]}',
      deliveryPolicy: '{"http":{"defaultHealthyRetryPolicy":{"numRetries":3}}}',
      fifoTopic: "false",
      contentBasedDeduplication: "false",
      kmsMasterKeyID: "alias/aws/sns",
      tags: [
        { key: "team", value: "shop" },
        { key: "cost-center", value: "" },
      ],
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    }),
  },
  {
    title: "FIFO Topic as in ACK's own e2e manifest (string booleans)",
    object: topic("fifo", {
      name: "Shop_Orders-1.fifo",
      displayName: "orders",
      fifoTopic: "true",
      contentBasedDeduplication: "true",
      tags: [{ key: "tag1", value: "val1" }],
    }),
  },
  { title: "Topic name of 256 characters", object: topic("long", { name: "a".repeat(256) }) },
];

export const topicInvalidExamples: readonly InvalidExample[] = [
  {
    title: "Topic without spec.name",
    object: topic("no-name", { displayName: "x" }),
    field: "spec.name",
    message: "name is required",
    apiserverMessage: "Required value",
  },
  {
    title: "Topic name longer than 256 characters",
    object: topic("too-long", { name: "a".repeat(257) }),
    field: "spec.name",
    message: "name must be 1-256 characters",
    apiserverMessage: "may not be more than 256",
  },
  {
    title: "Topic name with a period and a space",
    object: topic("bad-chars", { name: "shop orders.v1" }),
    field: "spec.name",
    message: "name must use only ASCII letters, digits, '_' and '-'",
    apiserverMessage: "should match",
  },
  {
    title: "FIFO Topic whose name lacks .fifo",
    object: topic("fifo-no-suffix", { name: "orders", fifoTopic: "true" }),
    field: "spec.name",
    message: 'name must end with ".fifo" exactly when fifoTopic is "true"',
  },
  {
    title: "standard Topic whose name ends with .fifo",
    object: topic("suffix-no-fifo", { name: "orders.fifo" }),
    field: "spec.name",
    message: 'name must end with ".fifo" exactly when fifoTopic is "true"',
  },
  {
    title: "fifoTopic as a YAML boolean instead of ACK's string",
    object: topic("fifo-bool", { name: "orders.fifo", fifoTopic: true }),
    field: "spec.fifoTopic",
    message: 'fifoTopic must be the string "true" or "false"',
    apiserverMessage: "must be of type string",
  },
  {
    title: "contentBasedDeduplication on a standard Topic",
    object: topic("dedup-standard", { name: "orders", contentBasedDeduplication: "true" }),
    field: "spec.contentBasedDeduplication",
    message: 'contentBasedDeduplication "true" needs fifoTopic "true"',
  },
  {
    title: "Topic tag using a reserved ownership key",
    object: topic("reserved-tag", { name: "orders", tags: [{ key: "crossrole.dev/owner-uid", value: "x" }] }),
    field: "spec.tags[0].key",
    message: 'tags[].key "crossrole.dev/owner-uid" is reserved',
  },
  {
    title: "Topic tag key starting with aws:",
    object: topic("aws-tag", { name: "orders", tags: [{ key: "aws:createdBy", value: "x" }] }),
    field: "spec.tags[0].key",
    message: 'tags[].key "aws:createdBy" is reserved: keys starting with aws:',
  },
  {
    title: "Topic with a repeated tag key",
    object: topic("dup-tag", {
      name: "orders",
      tags: [
        { key: "team", value: "a" },
        { key: "team", value: "b" },
      ],
    }),
    field: "spec.tags[1]",
    message: "tags must not repeat a key",
    apiserverMessage: "Duplicate value",
  },
  {
    title: "Topic displayName over 100 characters",
    object: topic("long-display", { name: "orders", displayName: "d".repeat(101) }),
    field: "spec.displayName",
    message: "displayName must be at most 100 characters",
    apiserverMessage: "may not be more than 100",
  },
];
