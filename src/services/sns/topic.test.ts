// The Topic kind on the generic runtime, as pure logic over an in-process SNS (test/support/
// fake-sdk.ts): what it sends (CreateTopic's input, one SetTopicAttributes per attribute, every call
// by the ARN in the client's account), how it reads SNS's answers into a spec, drift and late
// initialisation, and how SNS's errors read. What it sends to the real SDK and the emulator:
// test/integration/sns-topic.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { awsError, type Fields, fakeSdk, type SentCall } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredObserved } from "../declared-kind/source.ts";
import { noSecrets } from "../service-module.ts";
import { parseTopicArn, topicService, topicSource } from "./topic.ts";

const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };
const arn = (name: string) => `arn:aws:sns:us-east-1:111111111111:${name}`;

/** SNS with one topic (or none), answering as the SDK does. */
function sns(topic: { name: string; attributes: Record<string, string>; tags: Fields[] } | undefined) {
  return fakeSdk((call: SentCall): Fields => {
    const target = call.input["TopicArn"] ?? call.input["ResourceArn"];
    if (call.operation !== "CreateTopic" && (topic === undefined || target !== arn(topic.name))) {
      throw awsError("NotFoundException", "Topic does not exist");
    }
    switch (call.operation) {
      case "GetTopicAttributes":
        return { Attributes: { TopicArn: arn(topic?.name ?? ""), ...topic?.attributes } };
      case "ListTagsForResource":
        return { Tags: topic?.tags ?? [] };
      case "GetDataProtectionPolicy":
        return { DataProtectionPolicy: "" };
      case "CreateTopic":
        return { TopicArn: arn(String(call.input["Name"])) };
      default:
        return {};
    }
  });
}

/** The Topic module on this fake SNS. */
const on = (aws: { readonly sdk: Readonly<Record<string, unknown>> }) =>
  declaredKindModule({ ...topicSource, sdk: aws.sdk } as unknown as typeof topicSource);

const observed = (fields: Fields): DeclaredObserved => ({
  fields,
  tags: Object.fromEntries(
    ((fields["tags"] as { key: string; value: string }[] | undefined) ?? []).map((t) => [t.key, t.value]),
  ),
  status: {},
  arn: arn(String(fields["name"])),
});
const paths = (desired: Fields, fields: Fields) => topicService.diff(desired, observed(fields));

describe("create", () => {
  test("reads the ARN in the client's account first, then one CreateTopic with the ownership tags", async () => {
    const aws = sns(undefined);
    const made = await on(aws).create(aws.client, { name: "o" }, "us-east-1", owner, {}, noSecrets);
    assert.deepEqual(made, { created: true, status: {} });
    assert.deepEqual(aws.sent, [
      { operation: "GetTopicAttributes", input: { TopicArn: arn("o") } },
      {
        operation: "CreateTopic",
        input: {
          Name: "o",
          Tags: [
            { Key: "services.k8s.aws/owner-uid", Value: "u1" },
            { Key: "services.k8s.aws/namespace", Value: "shop" },
          ],
        },
      },
    ]);
  });

  test("every attribute the spec sets goes in Attributes, user tags beside ownership tags, in one call", async () => {
    const aws = sns(undefined);
    const spec = {
      name: "o.fifo",
      displayName: "Orders",
      policy: "{}",
      deliveryPolicy: '{"http":{}}',
      fifoTopic: "true",
      contentBasedDeduplication: "true",
      kmsMasterKeyID: "alias/aws/sns",
      dataProtectionPolicy: '{"Name":"p"}',
      tags: [{ key: "team", value: "shop" }],
    };
    await on(aws).create(aws.client, spec, "us-east-1", owner, {}, noSecrets);
    const input = aws.sent[1]?.input ?? {};
    assert.deepEqual(input["Attributes"], {
      FifoTopic: "true",
      DisplayName: "Orders",
      Policy: "{}",
      DeliveryPolicy: '{"http":{}}',
      KmsMasterKeyId: "alias/aws/sns",
      ContentBasedDeduplication: "true",
    });
    assert.equal(input["DataProtectionPolicy"], '{"Name":"p"}');
    assert.deepEqual((input["Tags"] as { Key: string }[]).map((t) => t.Key).sort(), [
      "services.k8s.aws/namespace",
      "services.k8s.aws/owner-uid",
      "team",
    ]);
  });

  test("a standard topic never sends ContentBasedDeduplication (SNS refuses it there, even false)", async () => {
    const aws = sns(undefined);
    await on(aws).create(
      aws.client,
      { name: "o", contentBasedDeduplication: "false" },
      "us-east-1",
      {},
      {},
      noSecrets,
    );
    assert.equal(aws.sent[1]?.input["Attributes"], undefined);
  });

  test("a topic the account already has is created:false, nothing sent after the read", async () => {
    const aws = sns({ name: "o", attributes: {}, tags: [] });
    assert.deepEqual(await on(aws).create(aws.client, { name: "o" }, "us-east-1", owner, {}, noSecrets), {
      created: false,
    });
    assert.deepEqual(
      aws.sent.map((c) => c.operation),
      ["GetTopicAttributes"],
    );
  });

  test("CreateTopic's 'already exists' (a race) is created:false; another InvalidParameter is not", async () => {
    const failing = (message: string) =>
      fakeSdk((call) => {
        throw call.operation === "CreateTopic"
          ? awsError("InvalidParameterException", message)
          : awsError("NotFoundException", "Topic does not exist");
      });
    const race = failing("Invalid parameter: Tags Reason: Topic already exists with different tags");
    assert.deepEqual(await on(race).create(race.client, { name: "o" }, "us-east-1", owner, {}, noSecrets), {
      created: false,
    });
    const bad = failing("Invalid parameter: Name");
    const m = on(bad);
    const e = await m.create(bad.client, { name: "o" }, "us-east-1", owner, {}, noSecrets).then(
      () => assert.fail("no error"),
      (err: unknown) => err,
    );
    assert.equal(m.isTerminal(e), true);
  });
});

describe("read", () => {
  test("GetTopicAttributes and ListTagsForResource by ARN in spec form; empty is none; owner and delivery policy in status", async () => {
    const aws = sns({
      name: "o.fifo",
      attributes: {
        DisplayName: "",
        Policy: "{}",
        DeliveryPolicy: "",
        FifoTopic: "true",
        ContentBasedDeduplication: "True",
        KmsMasterKeyId: "alias/k",
        Owner: "111111111111",
        EffectiveDeliveryPolicy: '{"http":{}}',
      },
      tags: [
        { Key: "team", Value: "shop" },
        { Key: "services.k8s.aws/owner-uid", Value: "u1" },
      ],
    });
    const seen = await on(aws).read(aws.client, { name: "o.fifo" }, {});
    assert.ok(seen.found);
    assert.deepEqual(seen.observed.fields, {
      name: "o.fifo",
      policy: "{}",
      fifoTopic: "true",
      contentBasedDeduplication: "true",
      kmsMasterKeyID: "alias/k",
      tags: [
        { key: "team", value: "shop" },
        { key: "services.k8s.aws/owner-uid", value: "u1" },
      ],
    });
    assert.deepEqual(topicService.statusFrom?.(seen.observed), {
      owner: "111111111111",
      effectiveDeliveryPolicy: '{"http":{}}',
      topicARN: arn("o.fifo"),
    });
    assert.equal(topicService.observedRegion?.(seen.observed), "us-east-1");
    assert.deepEqual(
      aws.sent.map((c) => c.operation),
      ["GetTopicAttributes", "ListTagsForResource"],
      "no data protection policy read while the spec sets none",
    );
    assert.deepEqual(aws.sent[1]?.input, { ResourceArn: arn("o.fifo") });
  });

  test("the data protection policy is read while the spec sets one; none is absent", async () => {
    const aws = sns({ name: "o", attributes: {}, tags: [] });
    const seen = await on(aws).read(aws.client, { name: "o", dataProtectionPolicy: "{}" }, {});
    assert.ok(seen.found);
    assert.deepEqual(aws.sent[2], {
      operation: "GetDataProtectionPolicy",
      input: { ResourceArn: arn("o") },
    });
    assert.equal(seen.observed.fields["dataProtectionPolicy"], undefined);
  });

  test("no such topic: found:false after GetTopicAttributes alone", async () => {
    const aws = sns(undefined);
    assert.deepEqual(await on(aws).read(aws.client, { name: "o" }, {}), { found: false });
    assert.equal(aws.sent.length, 1);
  });
});

describe("update", () => {
  test("one SetTopicAttributes per differing attribute, by name and value; an absent displayName is ''", async () => {
    const aws = sns({ name: "o", attributes: {}, tags: [] });
    const changed = await on(aws).update(
      aws.client,
      { name: "o", policy: '{"a":2}', dataProtectionPolicy: '{"p":1}' },
      observed({ name: "o", displayName: "oob", policy: '{"a":1}' }),
      owner,
      {},
      noSecrets,
    );
    assert.deepEqual(changed, ["spec.displayName", "spec.policy", "spec.dataProtectionPolicy"]);
    assert.deepEqual(aws.sent, [
      {
        operation: "SetTopicAttributes",
        input: { TopicArn: arn("o"), AttributeName: "DisplayName", AttributeValue: "" },
      },
      {
        operation: "SetTopicAttributes",
        input: { TopicArn: arn("o"), AttributeName: "Policy", AttributeValue: '{"a":2}' },
      },
      {
        operation: "PutDataProtectionPolicy",
        input: { ResourceArn: arn("o"), DataProtectionPolicy: '{"p":1}' },
      },
    ]);
  });

  test("user tags by ARN: TagResource what is new, UntagResource what the spec dropped; ownership tags stay", async () => {
    const aws = sns({ name: "o", attributes: {}, tags: [] });
    await on(aws).update(
      aws.client,
      { name: "o", tags: [{ key: "a", value: "2" }] },
      observed({
        name: "o",
        tags: [
          { key: "services.k8s.aws/owner-uid", value: "u1" },
          { key: "services.k8s.aws/namespace", value: "shop" },
          { key: "a", value: "1" },
          { key: "b", value: "x" },
        ],
      }),
      owner,
      {},
      noSecrets,
    );
    assert.deepEqual(aws.sent, [
      { operation: "TagResource", input: { ResourceArn: arn("o"), Tags: [{ Key: "a", Value: "2" }] } },
      { operation: "UntagResource", input: { ResourceArn: arn("o"), TagKeys: ["b"] } },
    ]);
  });
});

describe("drift (the declaration's rules)", () => {
  test("nothing differs when SNS has what the spec says", () => {
    const t = {
      name: "o",
      displayName: "D",
      policy: '{"a":1,"b":2}',
      kmsMasterKeyID: "k",
      tags: [{ key: "team", value: "shop" }],
    };
    assert.deepEqual(paths(t, t), []);
  });
  test("displayName and kmsMasterKeyID absent mean none: an out-of-band value is drift", () => {
    assert.deepEqual(paths({ name: "o" }, { name: "o", displayName: "oob", kmsMasterKeyID: "k" }), [
      "spec.displayName",
      "spec.kmsMasterKeyID",
    ]);
    assert.deepEqual(paths({ name: "o", displayName: "" }, { name: "o" }), []);
  });
  test("policies compare as JSON documents and absent ones are SNS's (late-initialised)", () => {
    assert.deepEqual(
      paths({ name: "o", policy: '{"b":2, "a":1}' }, { name: "o", policy: '{"a":1,"b":2}' }),
      [],
    );
    assert.deepEqual(paths({ name: "o", policy: '{"a":1}' }, { name: "o", policy: '{"a":2}' }), [
      "spec.policy",
    ]);
    assert.deepEqual(paths({ name: "o" }, { name: "o", policy: '{"a":2}', deliveryPolicy: "{}" }), []);
    assert.deepEqual(paths({ name: "o", deliveryPolicy: '{"x":1}' }, { name: "o" }), ["spec.deliveryPolicy"]);
  });
  test("contentBasedDeduplication: absent is false", () => {
    assert.deepEqual(paths({ name: "o" }, { name: "o", contentBasedDeduplication: "false" }), []);
    assert.deepEqual(
      paths({ name: "o.fifo", fifoTopic: "true", contentBasedDeduplication: "true" }, { name: "o.fifo" }),
      ["spec.contentBasedDeduplication"],
    );
  });
  test("a data protection policy left out of the spec is SNS's: never drift", () => {
    assert.deepEqual(paths({ name: "o" }, { name: "o", dataProtectionPolicy: "{}" }), []);
  });
  test("tags compare as a map, and ownership tags never count", () => {
    const ownerTag = [{ key: "services.k8s.aws/owner-uid", value: "u" }];
    assert.deepEqual(
      paths(
        {
          name: "o",
          tags: [
            { key: "b", value: "2" },
            { key: "a", value: "1" },
          ],
        },
        { name: "o", tags: [{ key: "a", value: "1" }, ...ownerTag, { key: "b", value: "2" }] },
      ),
      [],
    );
    assert.deepEqual(paths({ name: "o" }, { name: "o", tags: ownerTag }), []);
    assert.deepEqual(paths({ name: "o" }, { name: "o", tags: [{ key: "oob", value: "x" }] }), ["spec.tags"]);
  });
  test("name and fifoTopic are never compared (immutable at admission)", () => {
    assert.deepEqual(paths({ name: "o", fifoTopic: "false" }, { name: "o" }), []);
  });
  test("lateInitialize fills policy and deliveryPolicy from SNS, never displayName; nothing to fill keeps the spec", () => {
    const r = topicService.lateInitialize(
      { name: "o" },
      observed({ name: "o", policy: "{}", deliveryPolicy: '{"h":1}', displayName: "x" }),
    );
    assert.deepEqual(r.initialized, ["spec.policy", "spec.deliveryPolicy"]);
    assert.deepEqual(r.spec, { name: "o", policy: "{}", deliveryPolicy: '{"h":1}' });
    const spec = { name: "o", policy: '{"a":1}' };
    const again = topicService.lateInitialize(spec, observed({ name: "o", policy: "{}" }));
    assert.equal(again.spec, spec);
    assert.deepEqual(again.initialized, []);
  });
});

describe("SNS's errors", () => {
  let m = topicService;
  /** The error `operation` ends with, the topic existing; `m` is the module that threw it. */
  const failsWith = async (operation: string, err: unknown) => {
    const aws = fakeSdk((call) => {
      if (call.operation === operation) throw err;
      if (call.operation === "GetTopicAttributes") throw awsError("NotFoundException", "x");
      return {};
    });
    m = on(aws);
    const run =
      operation === "CreateTopic"
        ? m.create(aws.client, { name: "orders" }, "us-east-1", owner, {}, noSecrets)
        : m.update(
            aws.client,
            { name: "orders", displayName: "D", kmsMasterKeyID: "k", tags: [{ key: "a", value: "1" }] },
            observed({ name: "orders" }),
            owner,
            {},
            noSecrets,
          );
    return run.then(
      () => assert.fail("no error"),
      (e: unknown) => e,
    );
  };
  const withStatus = (name: string, message: string, status: number) =>
    Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

  test("a value SNS refuses is terminal and names the field and the fix", async () => {
    const e = await failsWith(
      "SetTopicAttributes",
      awsError("InvalidParameterException", "Invalid parameter: DisplayName"),
    );
    assert.equal(m.isTerminal(e), true);
    const text = m.describeError(e, { name: "orders" });
    assert.match(
      text,
      /^spec\.displayName: SetTopicAttributes on topic "orders" failed with InvalidParameter/,
    );
    assert.match(text, /fix spec\.displayName/);
  });

  test("too many tags and an unknown KMS key are terminal; their fields are named", async () => {
    const tags = await failsWith("TagResource", awsError("TagLimitExceededException", "x"));
    assert.equal(m.isTerminal(tags), true);
    assert.match(m.describeError(tags, { name: "orders" }), /spec\.tags/);
    assert.match(m.describeError(tags, { name: "orders" }), /at most 50 tags/);
    const kms = await failsWith("CreateTopic", awsError("KMSNotFoundException", "x"));
    assert.equal(m.isTerminal(kms), true);
    assert.match(m.describeError(kms, { name: "orders" }), /fix spec\.kmsMasterKeyID/);
  });

  test("permissions, throttling, KMS state, 5xx and the network are retryable", async () => {
    for (const err of [
      withStatus("AuthorizationErrorException", "not authorized", 403),
      awsError("ThrottledException", "slow down"),
      awsError("KMSDisabledException", "x"),
      withStatus("InternalErrorException", "x", 500),
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    ]) {
      const e = await failsWith("CreateTopic", err);
      assert.equal(m.isTerminal(e), false, String(err));
    }
    const denied = await failsWith("CreateTopic", withStatus("AuthorizationErrorException", "x", 403));
    assert.match(m.describeError(denied, { name: "orders" }), /lacks sns:CreateTopic/);
  });
});

describe("ARNs", () => {
  test("build and split arn:<partition>:sns:<region>:<account>:<name>", () => {
    assert.equal(
      topicService.arn({ name: "orders" }, "eu-west-1", "111111111111"),
      "arn:aws:sns:eu-west-1:111111111111:orders",
    );
    assert.equal(
      topicService.arn({ name: "o.fifo" }, "cn-north-1", "1"),
      "arn:aws-cn:sns:cn-north-1:1:o.fifo",
    );
    assert.deepEqual(parseTopicArn("arn:aws:sns:eu-west-1:111111111111:orders"), {
      region: "eu-west-1",
      account: "111111111111",
      name: "orders",
    });
    assert.equal(parseTopicArn("arn:aws:s3:::bucket"), undefined);
  });
});
