import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  arnOf,
  attributeValue,
  createTopicInput,
  parseTopicArn,
  stringBoolean,
  topicFieldsFromAws,
  topicTags,
  userTags,
} from "./mapping.ts";

const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };

describe("arnOf / parseTopicArn", () => {
  test("build and split arn:<partition>:sns:<region>:<account>:<name>", () => {
    assert.equal(arnOf("orders", "eu-west-1", "111111111111"), "arn:aws:sns:eu-west-1:111111111111:orders");
    assert.equal(
      arnOf("o.fifo", "cn-north-1", "111111111111"),
      "arn:aws-cn:sns:cn-north-1:111111111111:o.fifo",
    );
    assert.equal(arnOf("o", "us-gov-west-1", "1"), "arn:aws-us-gov:sns:us-gov-west-1:1:o");
    assert.deepEqual(parseTopicArn("arn:aws:sns:eu-west-1:111111111111:orders"), {
      region: "eu-west-1",
      account: "111111111111",
      name: "orders",
    });
    assert.equal(parseTopicArn("arn:aws:s3:::bucket"), undefined);
  });
});

describe("createTopicInput", () => {
  test("a name alone is a bare CreateTopic, with the ownership tags when given", () => {
    assert.deepEqual(createTopicInput({ name: "o" }, {}), { Name: "o" });
    assert.deepEqual(createTopicInput({ name: "o" }, owner), {
      Name: "o",
      Tags: [
        { Key: "services.k8s.aws/owner-uid", Value: "u1" },
        { Key: "services.k8s.aws/namespace", Value: "shop" },
      ],
    });
  });
  test("carries every attribute the spec sets and the user's tags beside the ownership tags, in one call", () => {
    const input = createTopicInput(
      {
        name: "o.fifo",
        displayName: "Orders",
        policy: "{}",
        deliveryPolicy: '{"http":{}}',
        fifoTopic: "true",
        contentBasedDeduplication: "true",
        kmsMasterKeyID: "alias/aws/sns",
        tags: [{ key: "team", value: "shop" }],
      },
      owner,
    );
    assert.deepEqual(input.Attributes, {
      FifoTopic: "true",
      DisplayName: "Orders",
      Policy: "{}",
      DeliveryPolicy: '{"http":{}}',
      KmsMasterKeyId: "alias/aws/sns",
      ContentBasedDeduplication: "true",
    });
    assert.deepEqual(input.Tags?.map((t) => t.Key).sort(), [
      "services.k8s.aws/namespace",
      "services.k8s.aws/owner-uid",
      "team",
    ]);
  });
  test("a standard topic sends neither FifoTopic nor ContentBasedDeduplication", () => {
    const input = createTopicInput({ name: "o", fifoTopic: "false", contentBasedDeduplication: "false" }, {});
    assert.equal(input.Attributes, undefined);
  });
});

describe("tags", () => {
  test("ownership tags win over the user's and reserved keys are never the user's", () => {
    assert.deepEqual(
      topicTags(
        [
          { key: "team", value: "shop" },
          { key: "services.k8s.aws/owner-uid", value: "forged" },
        ],
        owner,
      ),
      { team: "shop", ...owner },
    );
    assert.deepEqual(userTags([{ key: "services.k8s.aws/owner", value: "x" }]), undefined);
    assert.deepEqual(
      userTags([
        { key: "a", value: "1" },
        { key: "services.k8s.aws/namespace", value: "x" },
      ]),
      [{ key: "a", value: "1" }],
    );
  });
});

describe("attributeValue", () => {
  test("absent displayName / kmsMasterKeyID are none, absent dedup is false, absent policies are SNS's", () => {
    assert.equal(attributeValue({ name: "o" }, "displayName"), "");
    assert.equal(attributeValue({ name: "o" }, "kmsMasterKeyID"), "");
    assert.equal(attributeValue({ name: "o" }, "contentBasedDeduplication"), "false");
    assert.equal(attributeValue({ name: "o" }, "policy"), undefined);
    assert.equal(attributeValue({ name: "o" }, "deliveryPolicy"), undefined);
    assert.equal(attributeValue({ name: "o", displayName: "D" }, "displayName"), "D");
  });
});

describe("topicFieldsFromAws", () => {
  test("reads GetTopicAttributes and ListTagsForResource in spec form; empty means none", () => {
    assert.deepEqual(
      topicFieldsFromAws(
        "o.fifo",
        {
          DisplayName: "",
          Policy: "{}",
          DeliveryPolicy: "",
          FifoTopic: "true",
          ContentBasedDeduplication: "True",
          KmsMasterKeyId: "alias/k",
          Owner: "111111111111",
        },
        [{ Key: "team", Value: "shop" }],
      ),
      {
        name: "o.fifo",
        policy: "{}",
        fifoTopic: "true",
        contentBasedDeduplication: "true",
        kmsMasterKeyID: "alias/k",
        tags: [{ key: "team", value: "shop" }],
      },
    );
    assert.deepEqual(topicFieldsFromAws("o", {}, []), { name: "o" });
  });
  test("stringBoolean reads SNS's and emulators' spellings", () => {
    assert.equal(stringBoolean("TRUE"), "true");
    assert.equal(stringBoolean("false"), "false");
    assert.equal(stringBoolean(""), undefined);
  });
});
