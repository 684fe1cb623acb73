// The Queue kind (the generic runtime serving queue-declaration.ts) against the real AWS emulator
// (moto in server mode): create with
// attributes and tags (ownership tags included) in one call, read back, attributes and tags
// updated with ownership tags kept, drift corrected, claim, delete, an existing name answered
// `created: false` (CreateQueue is idempotent in SQS: it returns the existing URL), and
// isolation between accounts (moto maps sts:AssumeRole keys for 222222222222 to that account).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  SetQueueAttributesCommand,
  SQSClient,
  TagQueueCommand,
} from "@aws-sdk/client-sqs";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { noSecrets } from "../../src/services/service-module.ts";
import { queueService } from "../../src/services/sqs/queue.ts";
import { type QueueFields, queueSpecSchema } from "../../src/services/sqs/schema.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";

// The module's calls, named as the operations this test was first written against (the functions
// of the hand-written module the generic runtime replaced), so that its assertions stay as they were.

/** The module's client (`sdk`), and the same SQS client as `sqs` for the test's own calls. */
interface QueueClient {
  readonly sqs: SQSClient;
  readonly sdk: SQSClient;
  readonly region: string;
}
const queueClient = (sqs: SQSClient): QueueClient => ({ sqs, sdk: sqs, region });

/** What the module observed, with its spec fields, URL and ARN also at the top. */
type ObservedQueue = DeclaredObserved & QueueFields & { queueURL?: string; queueARN?: string };
const flat = (o: DeclaredObserved): ObservedQueue =>
  ({ ...o.fields, ...o, queueURL: o.handle, queueARN: o.arn || undefined }) as ObservedQueue;

async function createQueue(c: QueueClient, spec: QueueFields, ownerTags: Record<string, string> = {}) {
  const r = await queueService.create(c as never, spec, region, ownerTags, {}, noSecrets);
  return r.created
    ? { created: true as const, queueURL: String(r.status["queueURL"]) }
    : { created: false as const };
}
async function readQueue(c: QueueClient, spec: Pick<QueueFields, "queueName">) {
  const r = await queueService.read(c as never, spec as QueueFields, {});
  return r.found ? { found: true as const, queue: flat(r.observed) } : { found: false as const };
}
const diff = (desired: QueueFields, observed: ObservedQueue) =>
  queueService.diff(desired, observed).map((path) => ({ path, field: path.slice("spec.".length) }));
function lateInitialize(spec: QueueFields, observed: ObservedQueue) {
  const r = queueService.lateInitialize(spec, observed);
  return {
    spec: r.spec as QueueFields,
    initialized: r.initialized.map((path) => path.slice("spec.".length)),
  };
}
async function updateQueue(
  c: QueueClient,
  desired: QueueFields,
  observed: ObservedQueue,
  ownerTags: Record<string, string>,
) {
  return (await queueService.update(c as never, desired, observed, ownerTags, {}, noSecrets)).map((path) => ({
    path,
  }));
}
const claimQueue = (c: QueueClient, observed: ObservedQueue, ownerTags: Record<string, string>) =>
  queueService.claim(c as never, observed, ownerTags, {});
const deleteQueue = (c: QueueClient, name: string) =>
  queueService.delete(c as never, { queueName: name }, {}, {});

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const otherAccount = "222222222222";
const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Queue/shop/orders",
  "services.k8s.aws/owner-uid": "uid-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

let dir: string;
let emulator: Emulator;
let mine: QueueClient;
let other: QueueClient;
let myAccount: string;

function sqs(credentials: AwsCredentialIdentity): SQSClient {
  return new SQSClient({ region, endpoint: emulator.endpoint, credentials });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-sqs-queue-"));
  emulator = await startEmulator({ dir });
  const sts = new STSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
  myAccount = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? "";
  mine = queueClient(sqs(defaultCredentials));
  const assumed = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${otherAccount}:role/x`,
      RoleSessionName: "sqs-queue-test",
    }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
  other = queueClient(
    sqs({
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    }),
  );
  sts.destroy();
});

after(async () => {
  for (const c of [mine, other]) c?.sqs.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
function uniqueName(label: string): string {
  counter += 1;
  return `crossrole-${label}-${process.pid}-${counter}`;
}

function policyFor(name: string) {
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${myAccount}:root` },
        Action: "sqs:SendMessage",
        Resource: `arn:aws:sqs:${region}:${myAccount}:${name}`,
      },
    ],
  };
}

async function urlIn(client: QueueClient, name: string): Promise<string> {
  return (await client.sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl ?? "";
}

async function tagsIn(client: QueueClient, name: string): Promise<Record<string, string>> {
  return (
    (await client.sqs.send(new ListQueueTagsCommand({ QueueUrl: await urlIn(client, name) }))).Tags ?? {}
  );
}

async function attributesIn(client: QueueClient, name: string): Promise<Record<string, string>> {
  const out = await client.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: await urlIn(client, name), AttributeNames: ["All"] }),
  );
  return out.Attributes ?? {};
}

describe("SQS Queue module against the emulator", () => {
  test("creates with attributes, user tags and ownership tags in one call, and reads it all back", async () => {
    const name = uniqueName("full");
    const spec: QueueFields = queueSpecSchema.parse({
      queueName: name,
      visibilityTimeout: "45",
      delaySeconds: "3",
      policy: JSON.stringify(policyFor(name)),
      tags: { team: "shop" },
    });
    const created = await createQueue(mine, spec, owner);
    assert.ok(created.created);
    assert.match(created.queueURL, new RegExp(`/${myAccount}/${name}$`));
    assert.deepEqual(await tagsIn(mine, name), { team: "shop", ...owner });
    const attributes = await attributesIn(mine, name);
    assert.equal(attributes["VisibilityTimeout"], "45");
    assert.equal(attributes["DelaySeconds"], "3");

    const r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.equal(r.queue.queueURL, created.queueURL);
    assert.equal(r.queue.queueARN, `arn:aws:sqs:${region}:${myAccount}:${name}`);
    assert.equal(r.queue.visibilityTimeout, "45");
    assert.deepEqual(diff(spec, r.queue), []);
    // AWS's defaults are late-initialised; afterwards the spec still matches.
    const late = lateInitialize(spec, r.queue);
    assert.deepEqual(late.initialized, [
      "maximumMessageSize",
      "messageRetentionPeriod",
      "receiveMessageWaitTimeSeconds",
      "sqsManagedSSEEnabled",
    ]);
    assert.equal(late.spec.messageRetentionPeriod, "345600");
    assert.deepEqual(diff(late.spec, r.queue), []);
    // The module's own view: tagsOf holds every tag; ARN, region and status are the account's.
    assert.deepEqual(queueService.tagsOf(r.queue), { team: "shop", ...owner });
    assert.equal(queueService.observedRegion(r.queue), region);
    assert.equal(queueService.arn(spec, region, myAccount), r.queue.queueARN);
    assert.deepEqual(queueService.statusFrom?.(r.queue), {
      queueURL: created.queueURL,
      queueARN: r.queue.queueARN,
    });
    assert.equal(await deleteQueue(mine, name), "deleted");
    assert.deepEqual(await readQueue(mine, { queueName: name }), { found: false });
  });

  test("the read right after a create uses the URL CreateQueue answered: no GetQueueUrl; later reads ask again", async () => {
    const counting = queueClient(sqs(defaultCredentials));
    after(() => counting.sqs.destroy());
    const calls: string[] = [];
    counting.sqs.middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(String(context.commandName).replace(/Command$/, ""));
        return next(args);
      },
      { step: "initialize" },
    );
    const name = uniqueName("handoff");
    const spec: QueueFields = queueSpecSchema.parse({ queueName: name });
    assert.ok((await createQueue(counting, spec, owner)).created);
    assert.deepEqual(calls.splice(0), ["GetQueueUrl", "CreateQueue"]);
    assert.ok((await readQueue(counting, spec)).found);
    assert.deepEqual(calls.splice(0), ["GetQueueAttributes", "ListQueueTags"]);
    // Taken once: the next read asks for the URL (the queue may have gone out of band).
    await counting.sqs.send(new DeleteQueueCommand({ QueueUrl: await urlIn(counting, name) }));
    calls.length = 0;
    assert.deepEqual(await readQueue(counting, spec), { found: false });
    assert.deepEqual(calls, ["GetQueueUrl"]);
  });

  test("a FIFO queue keeps FifoQueue and ContentBasedDeduplication", async () => {
    const name = `${uniqueName("fifo")}.fifo`;
    const spec = queueSpecSchema.parse({
      queueName: name,
      fifoQueue: "true",
      contentBasedDeduplication: "true",
    });
    assert.equal((await createQueue(mine, spec, owner)).created, true);
    const r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.equal(r.queue.fifoQueue, "true");
    assert.equal(r.queue.contentBasedDeduplication, "true");
    assert.deepEqual(diff(spec, r.queue), []);
    const off = { ...spec, contentBasedDeduplication: "false" as const };
    assert.deepEqual(
      (await updateQueue(mine, off, r.queue, owner)).map((d) => d.path),
      ["spec.contentBasedDeduplication"],
    );
    assert.equal((await attributesIn(mine, name))["ContentBasedDeduplication"], "false");
    assert.equal(await deleteQueue(mine, name), "deleted");
  });

  test("update: changed attributes and user tags applied, ownership tags kept, out-of-band drift corrected", async () => {
    const name = uniqueName("update");
    const spec = queueSpecSchema.parse({ queueName: name, tags: { team: "shop", old: "x" } });
    assert.equal((await createQueue(mine, spec, owner)).created, true);
    let r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    const dlq = uniqueName("dlq");
    await mine.sqs.send(new CreateQueueCommand({ QueueName: dlq }));

    const desired = queueSpecSchema.parse({
      queueName: name,
      visibilityTimeout: "120",
      messageRetentionPeriod: "86400",
      redrivePolicy: `{"deadLetterTargetArn":"arn:aws:sqs:${region}:${myAccount}:${dlq}","maxReceiveCount":"3"}`,
      tags: { team: "platform", tier: "gold" },
    });
    const changed = (await updateQueue(mine, desired, r.queue, owner)).map((d) => d.path);
    assert.deepEqual(changed, [
      "spec.messageRetentionPeriod",
      "spec.visibilityTimeout",
      "spec.redrivePolicy",
      "spec.tags",
    ]);
    const attributes = await attributesIn(mine, name);
    assert.equal(attributes["VisibilityTimeout"], "120");
    assert.equal(attributes["MessageRetentionPeriod"], "86400");
    assert.ok(attributes["RedrivePolicy"]);
    assert.deepEqual(await tagsIn(mine, name), { team: "platform", tier: "gold", ...owner });
    r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.deepEqual(diff(desired, r.queue), []);

    // Out of band: another visibility timeout, a tag added. Both are drift, corrected.
    const url = await urlIn(mine, name);
    await mine.sqs.send(
      new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: "5" } }),
    );
    await mine.sqs.send(new TagQueueCommand({ QueueUrl: url, Tags: { sneaky: "1" } }));
    r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.deepEqual(
      diff(desired, r.queue).map((d) => d.path),
      ["spec.visibilityTimeout", "spec.tags"],
    );
    await queueService.update(mine, desired, r.queue, owner, {}, noSecrets);
    assert.equal((await attributesIn(mine, name))["VisibilityTimeout"], "120");
    assert.deepEqual(await tagsIn(mine, name), { team: "platform", tier: "gold", ...owner });

    // Removing the redrive policy from the spec removes it in SQS.
    const noRedrive = { ...desired, redrivePolicy: undefined };
    r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.deepEqual(
      (await updateQueue(mine, noRedrive, r.queue, owner)).map((d) => d.path),
      ["spec.redrivePolicy"],
    );
    assert.equal((await attributesIn(mine, name))["RedrivePolicy"] ?? "", "");
    assert.equal(await deleteQueue(mine, name), "deleted");
    assert.equal(await deleteQueue(mine, dlq), "deleted");
  });

  test("an existing name is created:false — same attributes (SQS returns its URL) or different ones", async () => {
    const name = uniqueName("existing");
    await mine.sqs.send(new CreateQueueCommand({ QueueName: name, tags: { theirs: "yes" } }));
    // Same (default) attributes: SQS would answer with the existing URL; never taken for ours.
    assert.deepEqual(await createQueue(mine, queueSpecSchema.parse({ queueName: name }), owner), {
      created: false,
    });
    // Other attributes: SQS says QueueNameExists.
    assert.deepEqual(
      await createQueue(mine, queueSpecSchema.parse({ queueName: name, visibilityTimeout: "99" }), owner),
      { created: false },
    );
    // Nothing was written to it: no ownership tags, attributes as they were.
    assert.deepEqual(await tagsIn(mine, name), { theirs: "yes" });
    assert.equal((await attributesIn(mine, name))["VisibilityTimeout"], "30");
    // Claiming (adoption) adds the ownership tags and keeps the others.
    const r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    await claimQueue(mine, r.queue, owner);
    assert.deepEqual(await tagsIn(mine, name), { theirs: "yes", ...owner });
    assert.equal(await deleteQueue(mine, name), "deleted");
  });

  test("specFromObserved describes what SQS has, without ownership tags", async () => {
    const name = uniqueName("adopt");
    await mine.sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: { VisibilityTimeout: "77" },
        tags: { legacy: "1" },
      }),
    );
    const r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    await claimQueue(mine, r.queue, owner);
    const again = await readQueue(mine, { queueName: name });
    assert.ok(again.found);
    const spec = queueService.specFromObserved(again.queue, {
      queueName: name,
      identityRef: { kind: "AWSRoleIdentity", name: "x" },
    });
    assert.equal(spec.visibilityTimeout, "77");
    assert.deepEqual(spec.tags, { legacy: "1" });
    assert.deepEqual(spec.identityRef, { kind: "AWSRoleIdentity", name: "x" });
    assert.ok(queueSpecSchema.safeParse(spec).success, "the adopted spec is valid");
    assert.deepEqual(queueService.diff(spec, again.queue), []);
    assert.equal(await deleteQueue(mine, name), "deleted");
  });

  test("another account cannot see it: its read is found:false, its create makes its own queue", async () => {
    const name = uniqueName("isolated");
    const spec = queueSpecSchema.parse({ queueName: name, visibilityTimeout: "40" });
    assert.equal((await createQueue(mine, spec, owner)).created, true);
    assert.deepEqual(await readQueue(other, { queueName: name }), { found: false });
    assert.equal(await deleteQueue(other, name), "not-found");
    const theirs = await createQueue(other, spec, {});
    assert.ok(theirs.created);
    assert.match(theirs.queueURL, new RegExp(`/${otherAccount}/${name}$`));
    assert.deepEqual(await tagsIn(other, name), {});
    assert.deepEqual(await tagsIn(mine, name), owner, "mine is untouched");
    assert.equal(await deleteQueue(other, name), "deleted");
    assert.ok((await readQueue(mine, { queueName: name })).found, "deleting theirs leaves mine");
    assert.equal(await deleteQueue(mine, name), "deleted");
  });

  test("delete of a queue already gone is not-found", async () => {
    assert.equal(await deleteQueue(mine, uniqueName("never")), "not-found");
  });

  test("FIFO throughput (ACK's queue_fifo.yaml): deduplicationScope and fifoThroughputLimit sent, read back, updated, drift corrected", async () => {
    const name = `${uniqueName("fifo-tp")}.fifo`;
    const spec = queueSpecSchema.parse({
      queueName: name,
      fifoQueue: "true",
      deduplicationScope: "queue",
      fifoThroughputLimit: "perQueue",
    });
    assert.equal((await createQueue(mine, spec, owner)).created, true);
    let r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.equal(r.queue.deduplicationScope, "queue");
    assert.equal(r.queue.fifoThroughputLimit, "perQueue");
    assert.deepEqual(diff(spec, r.queue), []);

    // ACK's update step: high throughput.
    const high = {
      ...spec,
      deduplicationScope: "messageGroup" as const,
      fifoThroughputLimit: "perMessageGroupId" as const,
    };
    assert.deepEqual(
      (await updateQueue(mine, high, r.queue, owner)).map((d) => d.path),
      ["spec.deduplicationScope", "spec.fifoThroughputLimit"],
    );
    const attributes = await attributesIn(mine, name);
    assert.equal(attributes["DeduplicationScope"], "messageGroup");
    assert.equal(attributes["FifoThroughputLimit"], "perMessageGroupId");

    // Changed out of band: the diff names both, and the update puts them back.
    await mine.sqs.send(
      new SetQueueAttributesCommand({
        QueueUrl: await urlIn(mine, name),
        Attributes: { DeduplicationScope: "queue", FifoThroughputLimit: "perQueue" },
      }),
    );
    r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    assert.deepEqual(
      diff(high, r.queue).map((d) => d.path),
      ["spec.deduplicationScope", "spec.fifoThroughputLimit"],
    );
    await updateQueue(mine, high, r.queue, owner);
    assert.equal((await attributesIn(mine, name))["DeduplicationScope"], "messageGroup");

    // Left out of a spec, SQS's values are kept and late-initialised (they cannot be "removed").
    r = await readQueue(mine, { queueName: name });
    assert.ok(r.found);
    const bare = queueSpecSchema.parse({ queueName: name, fifoQueue: "true" });
    assert.deepEqual(diff(bare, r.queue), []);
    const late = lateInitialize(bare, r.queue);
    assert.equal(late.spec.deduplicationScope, "messageGroup");
    assert.equal(late.spec.fifoThroughputLimit, "perMessageGroupId");
    assert.equal(await deleteQueue(mine, name), "deleted");
  });

  test("redriveAllowPolicy: sent on create, set on update, SQS's default written on removal (the emulator does not report it back)", async () => {
    // moto keeps RedriveAllowPolicy but GetQueueAttributes never lists it (its attribute lists
    // lack it), so what reaches "AWS" is checked on the wire, through a recording proxy.
    let proxy: AwsProxy | undefined;
    try {
      proxy = await startAwsProxy(emulator.endpoint);
      const viaProxy = queueClient(
        new SQSClient({ region, endpoint: proxy.endpoint, credentials: defaultCredentials }),
      );
      const name = uniqueName("rap");
      const allow = {
        redrivePermission: "byQueue",
        sourceQueueArns: [`arn:aws:sqs:${region}:${myAccount}:src`],
      };
      const spec = queueSpecSchema.parse({ queueName: name, redriveAllowPolicy: JSON.stringify(allow) });
      assert.equal((await createQueue(viaProxy, spec, owner)).created, true);
      const [create] = proxy.calls("CreateQueue");
      assert.deepEqual(JSON.parse(JSON.parse(create?.body ?? "{}").Attributes.RedriveAllowPolicy), allow);

      // Read back without it (the emulator's gap): the diff then asks to set it again.
      const r = await readQueue(viaProxy, { queueName: name });
      assert.ok(r.found);
      assert.equal(r.queue.redriveAllowPolicy, undefined, "moto does not report RedriveAllowPolicy");
      assert.deepEqual(
        diff(spec, r.queue).map((d) => d.path),
        ["spec.redriveAllowPolicy"],
      );
      const denyAll = queueSpecSchema.parse({
        queueName: name,
        redriveAllowPolicy: '{"redrivePermission":"denyAll"}',
      });
      await updateQueue(viaProxy, denyAll, r.queue, owner);
      const set = proxy.calls("SetQueueAttributes").map((c) => JSON.parse(c.body).Attributes);
      assert.deepEqual(set, [{ RedriveAllowPolicy: '{"redrivePermission":"denyAll"}' }]);

      // Removed from the spec while SQS has one: SQS's default (allowAll) is written.
      proxy.clearRecording();
      const withPolicy = { ...r.queue.fields, redriveAllowPolicy: '{"redrivePermission":"denyAll"}' };
      const observedWithPolicy = { ...r.queue, ...withPolicy, fields: withPolicy };
      await updateQueue(viaProxy, queueSpecSchema.parse({ queueName: name }), observedWithPolicy, owner);
      assert.deepEqual(
        proxy.calls("SetQueueAttributes").map((c) => JSON.parse(c.body).Attributes),
        [{ RedriveAllowPolicy: '{"redrivePermission":"allowAll"}' }],
      );
      assert.equal(await deleteQueue(mine, name), "deleted");
    } finally {
      await proxy?.close();
    }
  });
});
