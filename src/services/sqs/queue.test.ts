// The Queue kind on the generic runtime, as pure logic over an in-process SQS (test/support/
// fake-sdk.ts): what it sends (CreateQueue's input, one SetQueueAttributes per attribute, tags by
// URL), how it reads SQS's answers into a spec, drift and late initialisation, and how SQS's errors
// read. What it sends to the real SDK and the emulator: test/integration/sqs-queue.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { awsError, type Fields, fakeSdk, type SentCall } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredObserved } from "../declared-kind/source.ts";
import { noSecrets } from "../service-module.ts";
import { queueService, queueSource, queueUrlParts, regionOfQueueUrl } from "./queue.ts";
import { queueSpecSchema } from "./schema.ts";

const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };
const url = (name: string) => `https://sqs.us-east-1.amazonaws.com/111111111111/${name}`;

/** What SQS reports for a new standard queue (moto's and AWS's defaults). */
const freshAttributes: Record<string, string> = {
  QueueArn: "arn:aws:sqs:us-east-1:111111111111:o",
  ApproximateNumberOfMessages: "0",
  CreatedTimestamp: "1700000000",
  DelaySeconds: "0",
  MaximumMessageSize: "262144",
  MessageRetentionPeriod: "345600",
  ReceiveMessageWaitTimeSeconds: "0",
  VisibilityTimeout: "30",
  SqsManagedSseEnabled: "true",
};

/** SQS with one queue (or none), answering as the SDK does. */
function sqs(
  queue: { name: string; attributes: Record<string, string>; tags: Record<string, string> } | undefined,
) {
  return fakeSdk((call: SentCall): Fields => {
    switch (call.operation) {
      case "GetQueueUrl":
        if (queue === undefined || call.input["QueueName"] !== queue.name) {
          throw Object.assign(awsError("QueueDoesNotExist", "The specified queue does not exist."), {
            Code: "AWS.SimpleQueueService.NonExistentQueue",
          });
        }
        return { QueueUrl: url(queue.name) };
      case "GetQueueAttributes":
        return { Attributes: queue?.attributes ?? {} };
      case "ListQueueTags":
        return { Tags: queue?.tags ?? {} };
      case "CreateQueue":
        return { QueueUrl: url(String(call.input["QueueName"])) };
      default:
        return {};
    }
  });
}

/** The Queue module on this fake SQS. */
const on = (aws: { readonly sdk: Readonly<Record<string, unknown>> }) =>
  declaredKindModule({ ...queueSource, sdk: aws.sdk } as unknown as typeof queueSource);

const observed = (fields: Fields): DeclaredObserved => ({
  fields,
  tags: (fields["tags"] as Record<string, string> | undefined) ?? {},
  status: {},
  arn: "arn:aws:sqs:us-east-1:111111111111:o",
  handle: url("o"),
});
const fresh: Fields = {
  queueName: "o",
  delaySeconds: "0",
  maximumMessageSize: "262144",
  messageRetentionPeriod: "345600",
  receiveMessageWaitTimeSeconds: "0",
  visibilityTimeout: "30",
  sqsManagedSSEEnabled: "true",
  tags: owner,
};
const paths = (desired: Fields, fields: Fields) => queueService.diff(desired, observed(fields));

describe("create", () => {
  test("looks the name up first, then sends a bare CreateQueue with the ownership tags; the URL is the status", async () => {
    const aws = sqs(undefined);
    const made = await on(aws).create(aws.client, { queueName: "o" }, "us-east-1", owner, {}, noSecrets);
    assert.deepEqual(made, { created: true, status: { queueURL: url("o") } });
    assert.deepEqual(aws.sent, [
      { operation: "GetQueueUrl", input: { QueueName: "o" } },
      { operation: "CreateQueue", input: { QueueName: "o", tags: owner } },
    ]);
  });

  test("every attribute the spec sets goes in Attributes, user tags beside ownership tags (ownership wins)", async () => {
    const aws = sqs(undefined);
    const spec = {
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
      kmsDataKeyReusePeriodSeconds: "300",
      tags: { team: "shop", "services.k8s.aws/owner-uid": "spoofed" },
    };
    await on(aws).create(aws.client, spec, "us-east-1", owner, {}, noSecrets);
    assert.deepEqual(aws.sent[1], {
      operation: "CreateQueue",
      input: {
        QueueName: "o.fifo",
        Attributes: {
          ContentBasedDeduplication: "true",
          DelaySeconds: "5",
          FifoQueue: "true",
          KmsDataKeyReusePeriodSeconds: "300",
          KmsMasterKeyId: "alias/k",
          MaximumMessageSize: "2048",
          MessageRetentionPeriod: "60",
          Policy: "{}",
          ReceiveMessageWaitTimeSeconds: "10",
          RedrivePolicy: '{"maxReceiveCount":3}',
          VisibilityTimeout: "40",
        },
        tags: { team: "shop", ...owner },
      },
    });
  });

  test("a name the account already has is created:false, and nothing is sent after the lookup", async () => {
    const aws = sqs({ name: "o", attributes: freshAttributes, tags: {} });
    assert.deepEqual(
      await on(aws).create(aws.client, { queueName: "o" }, "us-east-1", owner, {}, noSecrets),
      {
        created: false,
      },
    );
    assert.deepEqual(
      aws.sent.map((c) => c.operation),
      ["GetQueueUrl"],
    );
  });

  test("the read right after a create takes the URL CreateQueue answered; a later read asks again", async () => {
    const aws = sqs(undefined);
    const module = on(aws);
    await module.create(aws.client, { queueName: "n" }, "us-east-1", owner, {}, noSecrets);
    aws.sent.length = 0;
    await module.read(aws.client, { queueName: "n" }, {});
    assert.deepEqual(aws.sent[0], {
      operation: "GetQueueAttributes",
      input: { AttributeNames: ["All"], QueueUrl: url("n") },
    });
    aws.sent.length = 0;
    await module.read(aws.client, { queueName: "n" }, {}).catch(() => undefined);
    assert.equal(aws.sent[0]?.operation, "GetQueueUrl");
  });
});

describe("read", () => {
  test("GetQueueAttributes(All) and ListQueueTags in spec form: read-only attributes left out, the URL and ARN in status", async () => {
    const aws = sqs({
      name: "o",
      attributes: { ...freshAttributes, ContentBasedDeduplication: "True", Policy: "" },
      tags: { team: "shop", ...owner },
    });
    const seen = await on(aws).read(aws.client, { queueName: "o" }, {});
    assert.ok(seen.found);
    assert.deepEqual(seen.observed.fields, {
      queueName: "o",
      contentBasedDeduplication: "true",
      delaySeconds: "0",
      maximumMessageSize: "262144",
      messageRetentionPeriod: "345600",
      receiveMessageWaitTimeSeconds: "0",
      sqsManagedSSEEnabled: "true",
      visibilityTimeout: "30",
      tags: { team: "shop", ...owner },
    });
    assert.deepEqual(queueService.statusFrom?.(seen.observed), {
      queueURL: url("o"),
      queueARN: "arn:aws:sqs:us-east-1:111111111111:o",
    });
    assert.equal(queueService.observedRegion?.(seen.observed), "us-east-1");
    assert.deepEqual(aws.sent[2], { operation: "ListQueueTags", input: { QueueUrl: url("o") } });
  });

  test("no such queue: found:false after GetQueueUrl alone", async () => {
    const aws = sqs(undefined);
    assert.deepEqual(await on(aws).read(aws.client, { queueName: "o" }, {}), { found: false });
    assert.equal(aws.sent.length, 1);
  });

  test("beside a KMS key there is no sqsManagedSSEEnabled, so late initialisation cannot copy a conflicting one", async () => {
    // The emulator answers SqsManagedSseEnabled "true" beside a key; the Queue schema refuses the two.
    for (const key of ["arn:aws:kms:us-east-1:222222222222:key/1234abcd", "alias/aws/sqs"]) {
      const aws = sqs({
        name: "o",
        attributes: {
          KmsMasterKeyId: key,
          KmsDataKeyReusePeriodSeconds: "300",
          SqsManagedSseEnabled: "true",
        },
        tags: {},
      });
      const seen = await on(aws).read(aws.client, { queueName: "o" }, {});
      assert.ok(seen.found);
      assert.deepEqual(seen.observed.fields, {
        queueName: "o",
        kmsMasterKeyID: key,
        kmsDataKeyReusePeriodSeconds: "300",
      });
      const filled = queueService.lateInitialize({ queueName: "o", kmsMasterKeyID: key }, seen.observed).spec;
      assert.equal(queueSpecSchema.safeParse(filled).success, true, JSON.stringify(filled));
    }
  });
});

describe("update", () => {
  test("one SetQueueAttributes per differing attribute; a removed document is '' and redriveAllowPolicy SQS's default", async () => {
    const aws = sqs({ name: "o", attributes: freshAttributes, tags: {} });
    const was = { ...fresh, policy: "{}", redriveAllowPolicy: '{"redrivePermission":"denyAll"}' };
    const changed = await on(aws).update(
      aws.client,
      { ...fresh, visibilityTimeout: "60", delaySeconds: undefined, tags: undefined },
      observed(was),
      owner,
      {},
      noSecrets,
    );
    assert.deepEqual(changed, ["spec.visibilityTimeout", "spec.policy", "spec.redriveAllowPolicy"]);
    assert.deepEqual(
      aws.sent.map((c) => c.input["Attributes"]),
      [
        { VisibilityTimeout: "60" },
        { Policy: "" },
        { RedriveAllowPolicy: '{"redrivePermission":"allowAll"}' },
      ],
    );
    assert.ok(
      aws.sent.every((c) => c.operation === "SetQueueAttributes" && c.input["QueueUrl"] === url("o")),
    );
  });

  test("user tags by URL: TagQueue what is new, UntagQueue what the spec dropped; ownership tags stay", async () => {
    const aws = sqs({ name: "o", attributes: freshAttributes, tags: {} });
    await on(aws).update(
      aws.client,
      { queueName: "o", tags: { a: "2" } },
      observed({ queueName: "o", tags: { ...owner, a: "1", b: "x" } }),
      owner,
      {},
      noSecrets,
    );
    assert.deepEqual(aws.sent, [
      { operation: "TagQueue", input: { QueueUrl: url("o"), Tags: { a: "2" } } },
      { operation: "UntagQueue", input: { QueueUrl: url("o"), TagKeys: ["b"] } },
    ]);
  });
});

describe("drift (the declaration's rules)", () => {
  test("a spec with only the name matches a fresh queue: defaults and ownership tags are not drift", () => {
    assert.deepEqual(paths({ queueName: "o" }, fresh), []);
  });
  test("a managed number that differs is drift; '030' and '30' are the same", () => {
    assert.deepEqual(paths({ queueName: "o", visibilityTimeout: "60" }, fresh), ["spec.visibilityTimeout"]);
    assert.deepEqual(paths({ queueName: "o", visibilityTimeout: "030" }, fresh), []);
  });
  test("policy and redrivePolicy compare as JSON; absent means none, so one added out of band is drift", () => {
    const policy = '{"Version":"2012-10-17","Statement":[]}';
    assert.deepEqual(
      paths({ queueName: "o", policy }, { ...fresh, policy: '{ "Statement": [], "Version": "2012-10-17" }' }),
      [],
    );
    assert.deepEqual(paths({ queueName: "o" }, { ...fresh, policy }), ["spec.policy"]);
    assert.deepEqual(
      paths(
        { queueName: "o", redrivePolicy: '{"deadLetterTargetArn":"arn:x","maxReceiveCount":"5"}' },
        { ...fresh, redrivePolicy: '{"maxReceiveCount":5,"deadLetterTargetArn":"arn:x"}' },
      ),
      [],
    );
  });
  test("contentBasedDeduplication absent means false on a FIFO queue", () => {
    const fifo = { ...fresh, queueName: "o.fifo", fifoQueue: "true", contentBasedDeduplication: "true" };
    assert.deepEqual(paths({ queueName: "o.fifo", fifoQueue: "true" }, fifo), [
      "spec.contentBasedDeduplication",
    ]);
  });
  test("user tags are compared as a map; ownership tags never count; queueName and fifoQueue never", () => {
    assert.deepEqual(
      paths({ queueName: "o", tags: { a: "1" } }, { ...fresh, tags: { ...owner, a: "1" } }),
      [],
    );
    assert.deepEqual(paths({ queueName: "o" }, { ...fresh, tags: { ...owner, extra: "x" } }), ["spec.tags"]);
    assert.deepEqual(paths({ queueName: "o", fifoQueue: "false" }, { ...fresh, fifoQueue: "true" }), []);
  });
  test("lateInitialize fills the defaults the user left out with what SQS reports, never policy, tags or the key", () => {
    const r = queueService.lateInitialize({ queueName: "o", visibilityTimeout: "60" }, observed(fresh));
    assert.deepEqual(r.initialized, [
      "spec.delaySeconds",
      "spec.maximumMessageSize",
      "spec.messageRetentionPeriod",
      "spec.receiveMessageWaitTimeSeconds",
      "spec.sqsManagedSSEEnabled",
    ]);
    const again = queueService.lateInitialize(
      r.spec,
      observed({ ...fresh, policy: "{}", kmsMasterKeyID: "k" }),
    );
    assert.deepEqual(again.initialized, []);
  });
});

describe("SQS's errors", () => {
  // Errors are the module's own class: the module that threw them reads them.
  let m = queueService;
  const failing = (operation: string, err: Error) =>
    fakeSdk((call) => {
      if (call.operation === operation) throw err;
      if (call.operation === "GetQueueUrl" && operation === "CreateQueue")
        throw awsError("QueueDoesNotExist");
      return {};
    });
  /** The error the create ends with; `m` is the module that threw it. */
  const createFails = async (err: Error) => {
    const aws = failing("CreateQueue", err);
    m = on(aws);
    return m.create(aws.client, { queueName: "orders" }, "us-east-1", owner, {}, noSecrets).then(
      () => assert.fail("no error"),
      (e: unknown) => e,
    );
  };

  test("an attribute SQS refuses on CreateQueue is named from its message, terminal", async () => {
    const e = await createFails(
      awsError("InvalidAttributeValue", "Invalid value for the parameter MaximumMessageSize."),
    );
    assert.equal(m.isTerminal(e), true);
    assert.match(
      m.describeError(e, { queueName: "orders" }),
      /^spec\.maximumMessageSize: CreateQueue on queue "orders" failed with InvalidAttributeValue/,
    );
    const unknown = await createFails(awsError("InvalidAttributeName", "Unknown Attribute KmsMasterKeyId."));
    assert.match(m.describeError(unknown, { queueName: "orders" }), /^spec\.kmsMasterKeyID: /);
    const unnamed = await createFails(awsError("InvalidAttributeName", "something else"));
    assert.match(m.describeError(unnamed, { queueName: "orders" }), /^CreateQueue on queue "orders"/);
  });

  test("retryable: throttling, 5xx, network, access denied, a name deleted less than 60 s ago", async () => {
    for (const [err, fragment] of [
      [awsError("RequestThrottled", "slow down"), "throttled"],
      [
        Object.assign(new Error("boom"), { name: "InternalError", $metadata: { httpStatusCode: 500 } }),
        "server error",
      ],
      [Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }), "ECONNRESET"],
      [
        Object.assign(new Error("no"), { name: "AccessDenied", $metadata: { httpStatusCode: 403 } }),
        "sqs:CreateQueue",
      ],
      [
        Object.assign(awsError("QueueDeletedRecently", "wait"), {
          Code: "AWS.SimpleQueueService.QueueDeletedRecently",
        }),
        "60 seconds",
      ],
    ] as const) {
      const e = await createFails(err);
      assert.equal(m.isTerminal(e), false, String(e));
      assert.ok(m.describeError(e, { queueName: "orders" }).includes(fragment), String(e));
    }
  });

  test("SetQueueAttributes names the field it applied; a missing dead-letter queue is retryable and says so", async () => {
    const aws = failing(
      "SetQueueAttributes",
      Object.assign(awsError("QueueDoesNotExist", "Could not find DLQ for arn:aws:sqs:us-east-1:1:dlq"), {
        Code: "AWS.SimpleQueueService.NonExistentQueue",
      }),
    );
    m = on(aws);
    const e = await m
      .update(
        aws.client,
        { queueName: "q", redrivePolicy: '{"maxReceiveCount":3}' },
        observed({ queueName: "q" }),
        owner,
        {},
        noSecrets,
      )
      .then(
        () => assert.fail("no error"),
        (err: unknown) => err,
      );
    assert.equal(m.isTerminal(e), false);
    assert.match(
      m.describeError(e, { queueName: "q" }),
      /^spec\.redrivePolicy: SetQueueAttributes on queue "q"/,
    );
    assert.match(
      m.describeError(e, { queueName: "q" }),
      /dead-letter queue spec\.redrivePolicy names does not exist/,
    );
  });

  test("KmsNotFound is terminal naming kmsMasterKeyID", async () => {
    const e = await createFails(awsError("KmsNotFound", "no key"));
    assert.equal(m.isTerminal(e), true);
    assert.match(m.describeError(e, { queueName: "orders" }), /spec\.kmsMasterKeyID/);
  });
});

describe("ARNs and URLs", () => {
  test("arn:<partition>:sqs:<region>:<account>:<name>", () => {
    assert.equal(
      queueService.arn({ queueName: "orders" }, "eu-west-1", "111111111111"),
      "arn:aws:sqs:eu-west-1:111111111111:orders",
    );
    assert.equal(
      queueService.arn({ queueName: "o.fifo" }, "cn-north-1", "1"),
      "arn:aws-cn:sqs:cn-north-1:1:o.fifo",
    );
  });
  test("the region of AWS queue URLs, none for an emulator's; a URL's account and name", () => {
    assert.equal(regionOfQueueUrl("https://sqs.eu-west-1.amazonaws.com/111111111111/o"), "eu-west-1");
    assert.equal(regionOfQueueUrl("https://sqs.cn-north-1.amazonaws.com.cn/111111111111/o"), "cn-north-1");
    assert.equal(regionOfQueueUrl("https://us-west-2.queue.amazonaws.com/111111111111/o"), "us-west-2");
    assert.equal(regionOfQueueUrl("http://127.0.0.1:4566/111111111111/o"), undefined);
    assert.deepEqual(queueUrlParts("https://sqs.eu-west-1.amazonaws.com/111111111111/o"), {
      account: "111111111111",
      region: "eu-west-1",
      name: "o",
    });
    assert.equal(queueUrlParts("not a url"), undefined);
  });
});
