import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { lateInitialize } from "./diff.ts";
import {
  arnOf,
  attributeValue,
  createQueueInput,
  fieldOfAttribute,
  parseQueueArn,
  queueFieldsFromAws,
  queueTags,
  regionOfQueueUrl,
  stringBoolean,
  userTags,
} from "./mapping.ts";
import { queueSpecSchema } from "./schema.ts";

const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };

describe("arnOf / parseQueueArn / regionOfQueueUrl", () => {
  test("build and split arn:<partition>:sqs:<region>:<account>:<name>", () => {
    assert.equal(arnOf("orders", "eu-west-1", "111111111111"), "arn:aws:sqs:eu-west-1:111111111111:orders");
    assert.equal(arnOf("o.fifo", "cn-north-1", "1"), "arn:aws-cn:sqs:cn-north-1:1:o.fifo");
    assert.equal(arnOf("o", "us-gov-west-1", "1"), "arn:aws-us-gov:sqs:us-gov-west-1:1:o");
    assert.deepEqual(parseQueueArn("arn:aws:sqs:eu-west-1:111111111111:orders"), {
      region: "eu-west-1",
      account: "111111111111",
      name: "orders",
    });
    assert.equal(parseQueueArn("arn:aws:sns:eu-west-1:111111111111:orders"), undefined);
  });
  test("the region of AWS queue URLs; none for an emulator's", () => {
    assert.equal(regionOfQueueUrl("https://sqs.eu-west-1.amazonaws.com/111111111111/o"), "eu-west-1");
    assert.equal(regionOfQueueUrl("https://sqs.cn-north-1.amazonaws.com.cn/111111111111/o"), "cn-north-1");
    assert.equal(regionOfQueueUrl("https://us-west-2.queue.amazonaws.com/111111111111/o"), "us-west-2");
    assert.equal(regionOfQueueUrl("http://127.0.0.1:4566/111111111111/o"), undefined);
    assert.equal(regionOfQueueUrl("not a url"), undefined);
  });
});

describe("createQueueInput", () => {
  test("a name alone is a bare CreateQueue, with the ownership tags when given", () => {
    assert.deepEqual(createQueueInput({ queueName: "o" }, {}), { QueueName: "o" });
    assert.deepEqual(createQueueInput({ queueName: "o" }, owner), { QueueName: "o", tags: owner });
  });
  test("every attribute the spec sets, user tags beside ownership tags (ownership wins)", () => {
    assert.deepEqual(
      createQueueInput(
        {
          queueName: "o.fifo",
          fifoQueue: "true",
          contentBasedDeduplication: "true",
          delaySeconds: "5",
          maximumMessageSize: "2048",
          messageRetentionPeriod: "60",
          receiveMessageWaitTimeSeconds: "10",
          visibilityTimeout: "40",
          policy: "{}",
          redrivePolicy: '{"maxReceiveCount":3}',
          kmsMasterKeyID: "alias/k",
          kmsDataKeyReusePeriodSeconds: "120",
          sqsManagedSSEEnabled: "false",
          tags: { team: "shop", "services.k8s.aws/owner-uid": "forged" },
        },
        owner,
      ),
      {
        QueueName: "o.fifo",
        Attributes: {
          FifoQueue: "true",
          ContentBasedDeduplication: "true",
          DelaySeconds: "5",
          MaximumMessageSize: "2048",
          MessageRetentionPeriod: "60",
          ReceiveMessageWaitTimeSeconds: "10",
          VisibilityTimeout: "40",
          Policy: "{}",
          RedrivePolicy: '{"maxReceiveCount":3}',
          KmsMasterKeyId: "alias/k",
          KmsDataKeyReusePeriodSeconds: "120",
          SqsManagedSseEnabled: "false",
        },
        tags: { team: "shop", ...owner },
      },
    );
  });
});

describe("attributeValue", () => {
  test("absent documents and KMS key are '' (none), absent deduplication 'false', late-initialised ones nothing", () => {
    assert.equal(attributeValue({ queueName: "o" }, "policy"), "");
    assert.equal(attributeValue({ queueName: "o" }, "redrivePolicy"), "");
    assert.equal(attributeValue({ queueName: "o" }, "kmsMasterKeyID"), "");
    assert.equal(attributeValue({ queueName: "o" }, "contentBasedDeduplication"), "false");
    assert.equal(attributeValue({ queueName: "o" }, "visibilityTimeout"), undefined);
    assert.equal(attributeValue({ queueName: "o", visibilityTimeout: "9" }, "visibilityTimeout"), "9");
  });
});

describe("queueFieldsFromAws", () => {
  test("reads GetQueueAttributes(All) and ListQueueTags in spec form, ignoring read-only attributes", () => {
    assert.deepEqual(
      queueFieldsFromAws(
        "o.fifo",
        {
          ApproximateNumberOfMessages: "0",
          CreatedTimestamp: "1",
          DelaySeconds: "0",
          MaximumMessageSize: "262144",
          MessageRetentionPeriod: "345600",
          QueueArn: "arn:aws:sqs:us-east-1:1:o.fifo",
          ReceiveMessageWaitTimeSeconds: "0",
          VisibilityTimeout: "30",
          SqsManagedSseEnabled: "True",
          FifoQueue: "true",
          ContentBasedDeduplication: "false",
          DeduplicationScope: "queue",
          Policy: "",
        },
        { team: "shop", ...owner },
      ),
      {
        queueName: "o.fifo",
        delaySeconds: "0",
        maximumMessageSize: "262144",
        messageRetentionPeriod: "345600",
        receiveMessageWaitTimeSeconds: "0",
        visibilityTimeout: "30",
        sqsManagedSSEEnabled: "true",
        fifoQueue: "true",
        contentBasedDeduplication: "false",
        deduplicationScope: "queue",
        tags: { team: "shop", ...owner },
      },
    );
    assert.deepEqual(queueFieldsFromAws("o", {}, {}), { queueName: "o" });
  });
  test("beside a KMS key there is no sqsManagedSSEEnabled, so late initialisation cannot copy a conflicting one", () => {
    // The emulator answers SqsManagedSseEnabled "true" beside a key (of this account, another
    // account, or an alias); the Queue schema refuses the two together.
    for (const key of [
      "arn:aws:kms:us-east-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      "alias/aws/sqs",
    ]) {
      const fields = queueFieldsFromAws(
        "o",
        { KmsMasterKeyId: key, KmsDataKeyReusePeriodSeconds: "300", SqsManagedSseEnabled: "true" },
        {},
      );
      assert.deepEqual(fields, { queueName: "o", kmsMasterKeyID: key, kmsDataKeyReusePeriodSeconds: "300" });
      const filled = lateInitialize({ queueName: "o", kmsMasterKeyID: key }, fields).spec;
      assert.equal(queueSpecSchema.safeParse(filled).success, true, JSON.stringify(filled));
    }
    assert.equal(
      queueFieldsFromAws("o", { SqsManagedSseEnabled: "true" }, {}).sqsManagedSSEEnabled,
      "true",
      "without a key SSE-SQS is what SQS reports",
    );
  });
});

describe("tags and attribute names", () => {
  test("queueTags keeps ownership tags; userTags drops them", () => {
    assert.deepEqual(queueTags(undefined, owner), owner);
    assert.deepEqual(queueTags({ a: "1", "services.k8s.aws/owner": "x" }, owner), { a: "1", ...owner });
    assert.deepEqual(userTags({ a: "1", ...owner }), { a: "1" });
    assert.equal(userTags(owner), undefined);
    assert.equal(userTags(undefined), undefined);
  });
  test("fieldOfAttribute maps SQS names back to spec fields; stringBoolean normalises", () => {
    assert.equal(fieldOfAttribute("VisibilityTimeout"), "visibilityTimeout");
    assert.equal(fieldOfAttribute("KmsMasterKeyId"), "kmsMasterKeyID");
    assert.equal(fieldOfAttribute("QueueArn"), undefined);
    assert.equal(stringBoolean("True"), "true");
    assert.equal(stringBoolean("no"), "false");
    assert.equal(stringBoolean(""), undefined);
  });
});
