import { parseSpecWith, parseStatusWith, type ServiceModule } from "../service-module.ts";
import {
  adoptedSpec,
  errorReporting,
  fromDeclared,
  observationOf,
  pathsOf,
  regionalClient,
  seedFromAddress,
  specFieldComparison,
  withoutKeys,
} from "../service-module-parts.ts";
import { sqsClientFactory } from "./client.ts";
import { diff, lateInitialize } from "./diff.ts";
import { classifyError, isQueueError } from "./errors.ts";
import { queueDeclared } from "./generated/queue-fields.ts";
import { arnOf, regionOfQueueUrl, userTags } from "./mapping.ts";
import {
  claimQueue,
  createQueue,
  deleteQueue,
  type ObservedQueue,
  type QueueClient,
  readQueue,
  updateQueue,
} from "./queue.ts";
import { type QueueFields, type QueueSpec, queueKind, queueSpecSchema, queueStatusSchema } from "./schema.ts";

/** The account, region (where the host says it) and name a queue URL names: `.../<account>/<name>`. */
function queueUrlParts(
  url: string,
): { account: string; region: string | undefined; name: string } | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const m = /^\/([0-9]{12})\/([^/]+)\/?$/.exec(path);
  if (m === null) return undefined;
  return { account: m[1] ?? "", region: regionOfQueueUrl(url), name: decodeURIComponent(m[2] ?? "") };
}

/** The spec fields of what AWS has. */
const fieldsOf = (observed: ObservedQueue): QueueFields =>
  withoutKeys(observed, ["queueURL", "queueARN", "region"]);

export const queueService: ServiceModule<QueueSpec, ObservedQueue, QueueClient> = {
  kind: queueKind,
  parseSpec: parseSpecWith(queueSpecSchema),
  parseStatus: parseStatusWith(queueStatusSchema),
  client: regionalClient(sqsClientFactory, "sqs"),
  ...fromDeclared(queueDeclared),
  adoptionSeed: (fields, at) => {
    const url = fields["queueURL"];
    const seed =
      url !== undefined
        ? seedFromAddress("queueURL", url, queueUrlParts(url), "queueName", at)
        : fields["queueName"] !== undefined
          ? { ok: true as const, value: { queueName: fields["queueName"] } }
          : {
              ok: false as const,
              message: 'names no queueURL: write {"queueURL": "<the queue\'s URL>"} (ACK\'s key)',
            };
    // A FIFO queue's name says it is one; the spec's schema wants both to agree.
    if (seed.ok && String(seed.value["queueName"]).endsWith(".fifo")) {
      return { ok: true, value: { ...seed.value, fifoQueue: "true" } };
    }
    return seed;
  },
  read: async (client, spec, ctx) => observationOf(await readQueue(client, spec, ctx), "queue"),
  tagsOf: (observed) => ({ ...(observed.tags ?? {}) }),
  async create(client, spec, _region, ownerTags, ctx) {
    const r = await createQueue(client, spec, ownerTags, ctx);
    return r.created ? { created: true, status: { queueURL: r.queueURL } } : { created: false };
  },
  update: async (client, desired, observed, ownerTags, ctx) =>
    pathsOf(await updateQueue(client, desired, observed, ownerTags, ctx)),
  claim: (client, observed, ownerTags, ctx) => claimQueue(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteQueue(client, spec.queueName, ctx),
  ...specFieldComparison(fieldsOf, diff, lateInitialize),
  specFromObserved(observed, spec) {
    const { tags, ...fields } = fieldsOf(observed);
    return adoptedSpec(fields, "tags", userTags(tags), spec);
  },
  arn: (spec, region, account) => arnOf(spec.queueName, region, account),
  statusFrom: (observed) => ({
    queueURL: observed.queueURL,
    ...(observed.queueARN === undefined ? {} : { queueARN: observed.queueARN }),
  }),
  observedRegion: (observed) => observed.region,
  ...errorReporting(isQueueError, (err, spec: QueueSpec) =>
    classifyError(err, { operation: "GetQueueAttributes", queue: spec.queueName }),
  ),
};
