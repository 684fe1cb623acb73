import { parseSpecWith, type ServiceModule } from "../service-module.ts";
import { sqsClientFactory } from "./client.ts";
import { diff, lateInitialize } from "./diff.ts";
import { classifyError, isQueueError } from "./errors.ts";
import { arnOf, userTags } from "./mapping.ts";
import {
  claimQueue,
  createQueue,
  deleteQueue,
  type ObservedQueue,
  type QueueClient,
  readQueue,
  updateQueue,
} from "./queue.ts";
import { type QueueFields, type QueueSpec, queueKind, queueSpecSchema } from "./schema.ts";

function fieldsOf(observed: ObservedQueue): QueueFields {
  const { queueURL: _url, queueARN: _arn, region: _region, ...fields } = observed;
  return fields;
}

export const queueService: ServiceModule<QueueSpec, ObservedQueue, QueueClient> = {
  kind: queueKind,
  parseSpec: parseSpecWith(queueSpecSchema),
  async client(credentials, decision, resource) {
    const sqs = await credentials.client(sqsClientFactory, decision, resource);
    return { sqs, region: await sqs.config.region() };
  },
  identifier: (spec) => spec.queueName,
  identifierField: "spec.queueName",
  async read(client, spec, ctx) {
    const r = await readQueue(client, spec, ctx);
    return r.found ? { found: true, observed: r.queue } : { found: false };
  },
  tagsOf: (observed) => ({ ...(observed.tags ?? {}) }),
  async create(client, spec, _region, ownerTags, ctx) {
    const r = await createQueue(client, spec, ownerTags, ctx);
    return r.created ? { created: true, status: { queueURL: r.queueURL } } : { created: false };
  },
  async update(client, desired, observed, ownerTags, ctx) {
    return (await updateQueue(client, desired, observed, ownerTags, ctx)).map((d) => d.path);
  },
  claim: (client, observed, ownerTags, ctx) => claimQueue(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteQueue(client, spec.queueName, ctx),
  diff: (desired, observed) => diff(desired, fieldsOf(observed)).map((d) => d.path),
  lateInitialize(spec, observed) {
    const r = lateInitialize(spec, fieldsOf(observed));
    return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
  },
  specFromObserved(observed, spec) {
    const { tags, ...fields } = fieldsOf(observed);
    const user = userTags(tags);
    return {
      ...fields,
      ...(user ? { tags: user } : {}),
      ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
    };
  },
  arn: (spec, region, account) => arnOf(spec.queueName, region, account),
  statusFrom: (observed) => ({
    queueURL: observed.queueURL,
    ...(observed.queueARN === undefined ? {} : { queueARN: observed.queueARN }),
  }),
  observedRegion: (observed) => observed.region,
  isTerminal: (err) => isQueueError(err) && err.terminal,
  describeError(err, spec) {
    return (
      isQueueError(err) ? err : classifyError(err, { operation: "GetQueueAttributes", queue: spec.queueName })
    ).message;
  },
};
