// The Topic kind (the generic runtime serving topic-declaration.ts) against the real AWS emulator (moto in server mode): create with
// attributes and tags (ownership tags included) in one call, read back, attributes and tags
// updated with ownership tags kept, drift corrected, claim, delete, an existing name answered
// `created: false` (CreateTopic is idempotent in SNS), and isolation between accounts (moto maps
// sts:AssumeRole keys for 222222222222 to that account).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  CreateTopicCommand,
  GetTopicAttributesCommand,
  ListTagsForResourceCommand,
  SetTopicAttributesCommand,
  SNSClient,
  TagResourceCommand,
} from "@aws-sdk/client-sns";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { noSecrets } from "../../src/services/service-module.ts";
import { type TopicFields, topicSpecSchema } from "../../src/services/sns/schema.ts";
import { topicService } from "../../src/services/sns/topic.ts";
import { type AwsProxy, type RecordedRequest, startAwsProxy } from "../support/aws-proxy.ts";
import { flatObserved, observedOf } from "../support/flat-observed.ts";

// The module's calls, named as the operations this test was first written against (the functions
// of the hand-written module the generic runtime replaced), so that its assertions stay as they were.

/** The module's client (`sdk`, and the account its ARNs name), and the same client as `sns`. */
interface TopicClient {
  readonly sns: SNSClient;
  readonly sdk: SNSClient;
  readonly account: string;
  readonly region: string;
}
const topicClient = (sns: SNSClient, account: string): TopicClient => ({ sns, sdk: sns, account, region });

/** What the module observed, with its spec fields, ARN and owner also at the top (tags: every tag, as a map). */
type ObservedTopic = DeclaredObserved & Omit<TopicFields, "tags"> & { owner?: string };
const flat = (o: DeclaredObserved) => flatObserved<ObservedTopic>(o, { owner: o.status["owner"] });
const unflat = (o: ObservedTopic) => observedOf(o, ["owner"]);

async function createTopic(c: TopicClient, spec: TopicFields, ownerTags: Record<string, string> = {}) {
  const r = await topicService.create(c as never, spec, region, ownerTags, {}, noSecrets);
  return r.created
    ? { created: true as const, arn: topicService.arn(spec, region, c.account) }
    : { created: false as const };
}
async function readTopic(c: TopicClient, spec: Pick<TopicFields, "name">) {
  const r = await topicService.read(c as never, spec as TopicFields, {});
  return r.found ? { found: true as const, topic: flat(r.observed) } : { found: false as const };
}
const diff = (desired: TopicFields, observed: ObservedTopic) =>
  topicService.diff(desired, unflat(observed)).map((path) => ({ path, field: path.slice("spec.".length) }));
function lateInitialize(spec: TopicFields, observed: ObservedTopic) {
  const r = topicService.lateInitialize(spec, unflat(observed));
  return {
    spec: r.spec as TopicFields,
    initialized: r.initialized.map((path) => path.slice("spec.".length)),
  };
}
async function updateTopic(
  c: TopicClient,
  desired: TopicFields,
  observed: ObservedTopic,
  ownerTags: Record<string, string>,
) {
  return (await topicService.update(c as never, desired, unflat(observed), ownerTags, {}, noSecrets)).map(
    (path) => ({ path }),
  );
}
const claimTopic = (c: TopicClient, observed: ObservedTopic, ownerTags: Record<string, string>) =>
  topicService.claim(c as never, unflat(observed), ownerTags, {});
const deleteTopic = (c: TopicClient, name: string) => topicService.delete(c as never, { name }, {}, {});

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const otherAccount = "222222222222";
const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Topic/shop/orders",
  "services.k8s.aws/owner-uid": "uid-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

let dir: string;
let emulator: Emulator;
let mine: TopicClient;
let other: TopicClient;

function sns(credentials: AwsCredentialIdentity): SNSClient {
  return new SNSClient({ region, endpoint: emulator.endpoint, credentials });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-sns-topic-"));
  emulator = await startEmulator({ dir });
  const sts = new STSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
  const me = await sts.send(new GetCallerIdentityCommand({}));
  mine = topicClient(sns(defaultCredentials), me.Account ?? "");
  const assumed = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${otherAccount}:role/x`,
      RoleSessionName: "sns-topic-test",
    }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
  other = topicClient(
    sns({ accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken }),
    otherAccount,
  );
  sts.destroy();
});

after(async () => {
  for (const c of [mine, other]) c?.sns.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
function uniqueName(label: string): string {
  counter += 1;
  return `crossrole-${label}-${process.pid}-${counter}`;
}

const arnIn = (client: TopicClient, name: string) => `arn:aws:sns:${region}:${client.account}:${name}`;

async function tagsIn(client: TopicClient, name: string): Promise<Record<string, string>> {
  const out = await client.sns.send(new ListTagsForResourceCommand({ ResourceArn: arnIn(client, name) }));
  return Object.fromEntries((out.Tags ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
}

async function attributesIn(client: TopicClient, name: string): Promise<Record<string, string>> {
  const out = await client.sns.send(new GetTopicAttributesCommand({ TopicArn: arnIn(client, name) }));
  return out.Attributes ?? {};
}

describe("SNS Topic module against the emulator", () => {
  test("creates with attributes, user tags and ownership tags in one call, and reads it all back", async () => {
    const name = uniqueName("full");
    const spec: TopicFields = topicSpecSchema.parse({
      name,
      displayName: "Orders",
      deliveryPolicy: '{"http":{"defaultHealthyRetryPolicy":{"numRetries":5}}}',
      tags: [{ key: "team", value: "shop" }],
    });
    assert.deepEqual(await createTopic(mine, spec, owner), {
      created: true,
      arn: arnIn(mine, name),
    });
    assert.deepEqual(await tagsIn(mine, name), { team: "shop", ...owner });
    const r = await readTopic(mine, { name });
    assert.ok(r.found);
    assert.equal(r.topic.arn, arnIn(mine, name));
    assert.equal(r.topic.owner, mine.account);
    assert.equal(r.topic.displayName, "Orders");
    assert.ok(r.topic.policy, "SNS gives every topic a default policy");
    assert.deepEqual(diff(spec, r.topic), []);
    // The default policy is late-initialised; afterwards the spec still matches.
    const late = lateInitialize(spec, r.topic);
    assert.deepEqual(late.initialized, ["policy"]);
    assert.deepEqual(diff(late.spec, r.topic), []);
    // The module's own view: tagsOf holds every tag, the ARN and region are the account's.
    assert.deepEqual(topicService.tagsOf(r.topic), { team: "shop", ...owner });
    assert.equal(topicService.observedRegion(r.topic), region);
    assert.equal(topicService.arn(spec, region, mine.account), arnIn(mine, name));
    assert.equal(await deleteTopic(mine, name), "deleted");
  });

  test("a FIFO topic keeps FifoTopic and ContentBasedDeduplication", async () => {
    const name = `${uniqueName("fifo")}.fifo`;
    const spec = topicSpecSchema.parse({ name, fifoTopic: "true", contentBasedDeduplication: "true" });
    assert.equal((await createTopic(mine, spec, owner)).created, true);
    const r = await readTopic(mine, { name });
    assert.ok(r.found);
    assert.equal(r.topic.fifoTopic, "true");
    assert.equal(r.topic.contentBasedDeduplication, "true");
    assert.deepEqual(diff(spec, r.topic), []);
    const off = { ...spec, contentBasedDeduplication: "false" as const };
    assert.deepEqual(
      (await updateTopic(mine, off, r.topic, owner)).map((d) => d.path),
      ["spec.contentBasedDeduplication"],
    );
    const again = await readTopic(mine, { name });
    assert.ok(again.found);
    assert.deepEqual(diff(off, again.topic), []);
    await deleteTopic(mine, name);
  });

  test("updates changed attributes and user tags, keeps ownership tags, and corrects out-of-band drift", async () => {
    const name = uniqueName("update");
    const spec = topicSpecSchema.parse({
      name,
      displayName: "Before",
      tags: [
        { key: "team", value: "shop" },
        { key: "old", value: "x" },
      ],
    });
    await createTopic(mine, spec, owner);
    let r = await readTopic(mine, { name });
    assert.ok(r.found);
    const policy = JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "Publish",
          Effect: "Allow",
          Principal: { AWS: "arn:aws:iam::111111111111:root" },
          Action: "sns:Publish",
          Resource: arnIn(mine, name),
        },
      ],
    });
    const desired = topicSpecSchema.parse({
      name,
      displayName: "After",
      policy,
      tags: [
        { key: "team", value: "platform" },
        { key: "new", value: "y" },
      ],
    });
    const changed = await updateTopic(mine, desired, r.topic, owner);
    assert.deepEqual(
      changed.map((d) => d.path),
      ["spec.displayName", "spec.policy", "spec.tags"],
    );
    assert.deepEqual(await tagsIn(mine, name), { team: "platform", new: "y", ...owner });
    r = await readTopic(mine, { name });
    assert.ok(r.found);
    assert.equal(r.topic.displayName, "After");
    assert.deepEqual(diff(desired, r.topic), []);

    // Out of band: another display name and a stray tag; the next update puts both back.
    await mine.sns.send(
      new SetTopicAttributesCommand({
        TopicArn: arnIn(mine, name),
        AttributeName: "DisplayName",
        AttributeValue: "oob",
      }),
    );
    await mine.sns.send(
      new TagResourceCommand({ ResourceArn: arnIn(mine, name), Tags: [{ Key: "stray", Value: "1" }] }),
    );
    r = await readTopic(mine, { name });
    assert.ok(r.found);
    assert.deepEqual(
      diff(desired, r.topic).map((d) => d.path),
      ["spec.displayName", "spec.tags"],
    );
    await updateTopic(mine, desired, r.topic, owner);
    assert.equal((await attributesIn(mine, name))["DisplayName"], "After");
    assert.deepEqual(await tagsIn(mine, name), { team: "platform", new: "y", ...owner });

    // Removing every user tag still keeps the ownership tags.
    r = await readTopic(mine, { name });
    assert.ok(r.found);
    await updateTopic(mine, { name, displayName: "After", policy }, r.topic, owner);
    assert.deepEqual(await tagsIn(mine, name), owner);
    await deleteTopic(mine, name);
  });

  test("an existing name is created: false, whether its tags differ or it is untagged; nothing is written to it", async () => {
    const name = uniqueName("existing");
    await mine.sns.send(new CreateTopicCommand({ Name: name, Tags: [{ Key: "team", Value: "someone" }] }));
    const before = await tagsIn(mine, name);
    assert.deepEqual(await createTopic(mine, topicSpecSchema.parse({ name, displayName: "mine" }), owner), {
      created: false,
    });
    assert.deepEqual(await tagsIn(mine, name), before, "the existing topic's tags are untouched");
    assert.equal((await attributesIn(mine, name))["DisplayName"] ?? "", "");

    // Adoption: claim adds the ownership tags and keeps the user's.
    const r = await readTopic(mine, { name });
    assert.ok(r.found);
    await claimTopic(mine, r.topic, owner);
    assert.deepEqual(await tagsIn(mine, name), { team: "someone", ...owner });
    const adopted = topicService.specFromObserved(
      await readTopic(mine, { name }).then((x) => (x.found ? x.topic : assert.fail("gone"))),
      { name },
    );
    assert.deepEqual(adopted.tags, [{ key: "team", value: "someone" }]);
    await deleteTopic(mine, name);
  });

  test("another account cannot see the topic, and creates its own of the same name", async () => {
    const name = uniqueName("isolated");
    await createTopic(mine, { name }, owner);
    assert.deepEqual(await readTopic(other, { name }), { found: false });
    const theirs = await createTopic(other, { name }, { ...owner, "services.k8s.aws/owner-uid": "uid-2" });
    assert.deepEqual(theirs, { created: true, arn: arnIn(other, name) });
    const r = await readTopic(mine, { name });
    assert.ok(r.found);
    assert.equal(r.topic.tags["services.k8s.aws/owner-uid"], "uid-1");
    await deleteTopic(other, name);
    assert.ok((await readTopic(mine, { name })).found, "deleting theirs leaves mine");
    await deleteTopic(mine, name);
  });

  test("delete removes the topic; reading it then is found: false, and deleting again is harmless", async () => {
    const name = uniqueName("delete");
    await createTopic(mine, { name }, owner);
    assert.equal(await deleteTopic(mine, name), "deleted");
    assert.deepEqual(await readTopic(mine, { name }), { found: false });
    assert.ok(["deleted", "not-found"].includes(await deleteTopic(mine, name)));
  });

  test("an invalid attribute is a terminal TopicError naming the field", async () => {
    const name = uniqueName("invalid");
    await assert.rejects(
      () => createTopic(mine, { name: "bad name!" }, owner),
      (err: unknown) => {
        const e = err as { terminal?: boolean; message: string };
        assert.equal(e.terminal, true);
        assert.match(e.message, /spec\.name/);
        return true;
      },
    );
    assert.deepEqual(await readTopic(mine, { name }), { found: false });
  });

  describe("the attributes moto keeps but never reports back: checked on the wire, through a recording proxy", () => {
    // moto's GetTopicAttributes lists a fixed set (Owner, Policy, DisplayName, DeliveryPolicy,
    // KmsMasterKeyId, FifoTopic, ...), without the delivery status roles and sample rates,
    // SignatureVersion, TracingConfig or FifoThroughputScope, and it has no data protection
    // policy calls at all. What crossrole sends is checked where it leaves: the wire.
    let proxy: AwsProxy;
    let viaProxy: TopicClient;
    before(async () => {
      proxy = await startAwsProxy(emulator.endpoint);
      viaProxy = topicClient(
        new SNSClient({ region, endpoint: proxy.endpoint, credentials: defaultCredentials }),
        mine.account,
      );
    });
    after(async () => {
      viaProxy?.sns.destroy();
      await proxy?.close();
    });

    /** CreateTopic's `Attributes.entry.N.key/value` form fields as a map. */
    const createAttributes = (r: RecordedRequest | undefined): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(r?.params ?? {})) {
        const m = /^Attributes\.entry\.(\d+)\.key$/.exec(k);
        if (m) out[v] = r?.params[`Attributes.entry.${m[1]}.value`] ?? "";
      }
      return out;
    };
    const setCalls = () =>
      proxy.calls("SetTopicAttributes").map((c) => [c.params["AttributeName"], c.params["AttributeValue"]]);
    const role = (name: string) => `arn:aws:iam::${mine.account}:role/${name}`;

    test("create sends every delivery status role and sample rate, signatureVersion and tracingConfig", async () => {
      proxy.clearRecording();
      const name = uniqueName("feedback");
      const spec = topicSpecSchema.parse({
        name,
        httpSuccessFeedbackRoleARN: role("ok"),
        httpFailureFeedbackRoleARN: role("fail"),
        httpSuccessFeedbackSampleRate: "50",
        sqsSuccessFeedbackRoleARN: role("sqs-ok"),
        lambdaFailureFeedbackRoleARN: role("lambda-fail"),
        signatureVersion: "2",
        tracingConfig: "Active",
      });
      assert.equal((await createTopic(viaProxy, spec, owner)).created, true);
      assert.deepEqual(createAttributes(proxy.calls("CreateTopic")[0]), {
        HTTPSuccessFeedbackRoleArn: role("ok"),
        HTTPFailureFeedbackRoleArn: role("fail"),
        HTTPSuccessFeedbackSampleRate: "50",
        SQSSuccessFeedbackRoleArn: role("sqs-ok"),
        LambdaFailureFeedbackRoleArn: role("lambda-fail"),
        SignatureVersion: "2",
        TracingConfig: "Active",
      });

      // What SNS reports (here: none of them) is compared: each differing field is set again,
      // one SetTopicAttributes each; a role removed from the spec is cleared with "".
      const r = await readTopic(viaProxy, { name });
      assert.ok(r.found);
      proxy.clearRecording();
      const changed = {
        ...spec,
        httpFailureFeedbackRoleARN: undefined,
        tracingConfig: "PassThrough" as const,
      };
      const observed = { ...r.topic, httpFailureFeedbackRoleARN: role("fail") };
      await updateTopic(viaProxy, changed, observed, owner);
      assert.deepEqual(setCalls(), [
        ["SignatureVersion", "2"],
        ["TracingConfig", "PassThrough"],
        ["HTTPSuccessFeedbackRoleArn", role("ok")],
        ["HTTPFailureFeedbackRoleArn", ""],
        ["LambdaFailureFeedbackRoleArn", role("lambda-fail")],
        ["SQSSuccessFeedbackRoleArn", role("sqs-ok")],
        ["HTTPSuccessFeedbackSampleRate", "50"],
      ]);
      assert.equal(await deleteTopic(mine, name), "deleted");
    });

    test("a FIFO topic's fifoThroughputScope is sent on create and on change", async () => {
      proxy.clearRecording();
      const name = `${uniqueName("fifo-scope")}.fifo`;
      const spec = topicSpecSchema.parse({ name, fifoTopic: "true", fifoThroughputScope: "MessageGroup" });
      assert.equal((await createTopic(viaProxy, spec, owner)).created, true);
      assert.equal(createAttributes(proxy.calls("CreateTopic")[0])["FifoThroughputScope"], "MessageGroup");
      const r = await readTopic(viaProxy, { name });
      assert.ok(r.found);
      proxy.clearRecording();
      await updateTopic(
        viaProxy,
        { ...spec, fifoThroughputScope: "Topic" },
        { ...r.topic, fifoThroughputScope: "MessageGroup" },
        owner,
      );
      assert.deepEqual(setCalls(), [["FifoThroughputScope", "Topic"]]);
      assert.equal(await deleteTopic(mine, name), "deleted");
    });

    test("dataProtectionPolicy: sent with CreateTopic, put when it differs, read only while the spec has one", async () => {
      proxy.clearRecording();
      const name = uniqueName("dpp");
      const policy = '{"Name":"dpp","Version":"2021-06-01","Statement":[]}';
      const spec = topicSpecSchema.parse({ name, dataProtectionPolicy: policy });
      assert.equal((await createTopic(viaProxy, spec, owner)).created, true);
      assert.equal(proxy.calls("CreateTopic")[0]?.params["DataProtectionPolicy"], policy);
      // Without one in the spec, no GetDataProtectionPolicy is made.
      proxy.clearRecording();
      const r = await readTopic(viaProxy, { name });
      assert.ok(r.found);
      assert.equal(proxy.calls("GetDataProtectionPolicy").length, 0);
      // A differing one is put. moto does not implement PutDataProtectionPolicy (it answers 500):
      // the call is checked as it left, and its failure is a retryable error, never a silent one.
      const next = '{"Name":"dpp2","Version":"2021-06-01","Statement":[]}';
      await assert.rejects(
        updateTopic(
          viaProxy,
          { ...spec, dataProtectionPolicy: next },
          { ...r.topic, dataProtectionPolicy: policy },
          owner,
        ),
        (err: Error & { operation?: string; field?: string }) =>
          err.operation === "PutDataProtectionPolicy" && err.field === "spec.dataProtectionPolicy",
      );
      const [put] = proxy.calls("PutDataProtectionPolicy");
      assert.equal(put?.params["DataProtectionPolicy"], next);
      assert.equal(put?.params["ResourceArn"], arnIn(mine, name));
      assert.equal(await deleteTopic(mine, name), "deleted");
    });
  });
});
