// Create, read, update and delete one SQS queue through an SQSClient the caller configured
// (credentials of the decided identity, region, endpoint). Knows nothing about Kubernetes: the
// reconciler decides when to call what (ownership, adoption, deletion policy, region and
// account drift) and turns QueueErrors into conditions. Every call carries the reconcile's
// CallContext: shutdown aborts it, and it is logged with the reconcile ID.
//
// SQS addresses a queue by its URL, which GetQueueUrl gives for a name in the caller's own
// account: `read` therefore only ever looks in the account the client acts as, never at a
// queue of the same name elsewhere.
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  SetQueueAttributesCommand,
  type SQSClient,
  TagQueueCommand,
  UntagQueueCommand,
} from "@aws-sdk/client-sqs";
import { isReservedTagKey } from "../../api/ownership-tags.ts";
import { awsCall, type CallContext, type SendOptions } from "../call-context.ts";
import { diff, type FieldDifference } from "./diff.ts";
import { classifyError, isAlreadyExists, isNotFound, type SqsOperation } from "./errors.ts";
import {
  attributeNames,
  attributeValue,
  createQueueInput,
  parseQueueArn,
  queueFieldsFromAws,
  queueTags,
  regionOfQueueUrl,
} from "./mapping.ts";
import type { QueueFields } from "./schema.ts";

/** An SQS client and the region it acts in (the fallback when SQS's answers do not say). */
export interface QueueClient {
  readonly sqs: SQSClient;
  readonly region: string;
}

/** The ownership tags the reconciler wants on the queue (empty: none, e.g. in module tests). */
export type OwnerTags = Readonly<Record<string, string>>;

/**
 * What SQS has: the managed attributes in spec form (absent = none), `tags` holding every tag
 * (ownership tags included), and where the queue is.
 */
export interface ObservedQueue extends QueueFields {
  readonly queueURL: string;
  /** The QueueArn attribute (it names the account and region SQS holds the queue in). */
  readonly queueARN: string | undefined;
  /** The region the ARN (else the URL, else the client) names. */
  readonly region: string;
}

export type ReadResult = { readonly found: false } | { readonly found: true; readonly queue: ObservedQueue };

/** One SQS call: logged with the reconcile's logger, aborted with its signal. */
function call<T>(
  ctx: CallContext,
  operation: SqsOperation,
  queue: string,
  run: (options: SendOptions) => Promise<T>,
): Promise<T> {
  return awsCall(ctx, `sqs:${operation}`, { queue }, run);
}

/** The URL of the queue of that name in the client's account; undefined when there is none. */
export async function queueUrlOf(
  client: QueueClient,
  name: string,
  ctx: CallContext = {},
): Promise<string | undefined> {
  try {
    const out = await call(ctx, "GetQueueUrl", name, (o) =>
      client.sqs.send(new GetQueueUrlCommand({ QueueName: name }), o),
    );
    return out.QueueUrl;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw classifyError(err, { operation: "GetQueueUrl", queue: name });
  }
}

/**
 * Reads the queue of that name in the client's account: its attributes and tags. Works on any
 * queue the identity can read, whoever created it (the reconciler decides from the tags whether
 * it may touch it). `found: false` when there is none (or it vanished mid-read).
 */
export async function readQueue(
  client: QueueClient,
  spec: Pick<QueueFields, "queueName">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const name = spec.queueName;
  const url = await queueUrlOf(client, name, ctx);
  if (url === undefined) return { found: false };
  let attributes: Record<string, string>;
  try {
    const out = await call(ctx, "GetQueueAttributes", name, (o) =>
      client.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }), o),
    );
    attributes = out.Attributes ?? {};
  } catch (err) {
    if (isNotFound(err)) return { found: false };
    throw classifyError(err, { operation: "GetQueueAttributes", queue: name });
  }
  let tags: Record<string, string>;
  try {
    const out = await call(ctx, "ListQueueTags", name, (o) =>
      client.sqs.send(new ListQueueTagsCommand({ QueueUrl: url }), o),
    );
    tags = out.Tags ?? {};
  } catch (err) {
    if (isNotFound(err)) return { found: false };
    throw classifyError(err, { operation: "ListQueueTags", queue: name, field: "spec.tags" });
  }
  const arn = attributes["QueueArn"] || undefined;
  const region = (arn && parseQueueArn(arn)?.region) || regionOfQueueUrl(url) || client.region;
  const queue: ObservedQueue = {
    ...queueFieldsFromAws(name, attributes, tags),
    queueURL: url,
    queueARN: arn,
    region,
  };
  return { found: true, queue };
}

export type CreateResult =
  /** SQS made the queue. */
  | { readonly created: true; readonly queueURL: string }
  /** The account already had a queue of that name: whose it is, the tags must tell. */
  | { readonly created: false };

/**
 * CreateQueue with the spec's attributes and every tag (the user's and `ownerTags`) in one call.
 * CreateQueue is idempotent: on a name the account already has with the same attributes it
 * answers with the existing URL (with other attributes, QueueNameExists), so the name is looked
 * up first and an existing queue is `created: false` — never taken for ours.
 */
export async function createQueue(
  client: QueueClient,
  spec: QueueFields,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<CreateResult> {
  const name = spec.queueName;
  if ((await queueUrlOf(client, name, ctx)) !== undefined) return { created: false };
  try {
    const out = await call(ctx, "CreateQueue", name, (o) =>
      client.sqs.send(new CreateQueueCommand(createQueueInput(spec, ownerTags)), o),
    );
    return { created: true, queueURL: out.QueueUrl ?? "" };
  } catch (err) {
    if (isAlreadyExists(err)) return { created: false };
    throw classifyError(err, { operation: "CreateQueue", queue: name });
  }
}

/** The queue's URL for a write: from what was observed, else looked up. */
async function urlFor(
  client: QueueClient,
  name: string,
  observed: { readonly queueURL?: string },
  ctx: CallContext,
): Promise<string> {
  if (observed.queueURL) return observed.queueURL;
  const url = await queueUrlOf(client, name, ctx);
  if (url === undefined) {
    throw classifyError(
      Object.assign(new Error("The specified queue does not exist."), { name: "QueueDoesNotExist" }),
      {
        operation: "GetQueueUrl",
        queue: name,
      },
    );
  }
  return url;
}

/**
 * Applies the attributes that differ between `desired` and `observed` (one SetQueueAttributes
 * each, so that a refusal names its field) and the user's tags (TagQueue / UntagQueue), always
 * keeping `ownerTags`. Returns what it changed.
 */
export async function updateQueue(
  client: QueueClient,
  desired: QueueFields,
  observed: QueueFields & { readonly queueURL?: string },
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<FieldDifference[]> {
  const name = desired.queueName;
  const differences = diff(desired, observed);
  if (differences.length === 0) return differences;
  const url = await urlFor(client, name, observed, ctx);
  for (const d of differences) {
    if (d.field === "tags") {
      await applyTags(client, name, url, queueTags(desired.tags, ownerTags), observed.tags ?? {}, ctx);
      continue;
    }
    const value = attributeValue(desired, d.field);
    if (value === undefined) continue;
    try {
      await call(ctx, "SetQueueAttributes", name, (o) =>
        client.sqs.send(
          new SetQueueAttributesCommand({
            QueueUrl: url,
            Attributes: { [attributeNames[d.field as keyof typeof attributeNames]]: value },
          }),
          o,
        ),
      );
    } catch (err) {
      throw classifyError(err, { operation: "SetQueueAttributes", queue: name, field: d.path });
    }
  }
  return differences;
}

/** Tags what differs, then removes the user's tags the spec no longer has (never ownership tags). */
async function applyTags(
  client: QueueClient,
  name: string,
  url: string,
  desired: Readonly<Record<string, string>>,
  observed: Readonly<Record<string, string>>,
  ctx: CallContext,
): Promise<void> {
  const changed = Object.fromEntries(Object.entries(desired).filter(([k, v]) => observed[k] !== v));
  const removed = Object.keys(observed).filter((k) => !(k in desired) && !isReservedTagKey(k));
  if (Object.keys(changed).length > 0) {
    try {
      await call(ctx, "TagQueue", name, (o) =>
        client.sqs.send(new TagQueueCommand({ QueueUrl: url, Tags: changed }), o),
      );
    } catch (err) {
      throw classifyError(err, { operation: "TagQueue", queue: name, field: "spec.tags" });
    }
  }
  if (removed.length > 0) {
    try {
      await call(ctx, "UntagQueue", name, (o) =>
        client.sqs.send(new UntagQueueCommand({ QueueUrl: url, TagKeys: removed }), o),
      );
    } catch (err) {
      throw classifyError(err, { operation: "UntagQueue", queue: name, field: "spec.tags" });
    }
  }
}

/** Puts the ownership tags on a queue that lacks them, keeping every tag it has (adoption). */
export async function claimQueue(
  client: QueueClient,
  observed: ObservedQueue,
  ownerTags: OwnerTags,
  ctx: CallContext = {},
): Promise<void> {
  const name = observed.queueName;
  const url = await urlFor(client, name, observed, ctx);
  try {
    await call(ctx, "TagQueue", name, (o) =>
      client.sqs.send(new TagQueueCommand({ QueueUrl: url, Tags: { ...ownerTags } }), o),
    );
  } catch (err) {
    throw classifyError(err, { operation: "TagQueue", queue: name, field: "spec.tags" });
  }
}

/** DeleteQueue on the queue of that name in the client's account; one already gone is "not-found". */
export async function deleteQueue(
  client: QueueClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  const url = await queueUrlOf(client, name, ctx);
  if (url === undefined) return "not-found";
  try {
    await call(ctx, "DeleteQueue", name, (o) =>
      client.sqs.send(new DeleteQueueCommand({ QueueUrl: url }), o),
    );
    return "deleted";
  } catch (err) {
    if (isNotFound(err)) return "not-found";
    throw classifyError(err, { operation: "DeleteQueue", queue: name });
  }
}
