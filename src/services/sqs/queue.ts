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
import type { CallContext } from "../call-context.ts";
import { serviceCalls } from "../service-calls.ts";
import { applyTagChanges, claimTags, type TagWrites } from "../tag-changes.ts";
import { diff, type FieldDifference } from "./diff.ts";
import { classifyError, isAlreadyExists, isNotFound } from "./errors.ts";
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

/** SQS calls: logged with the queue's name, failures as QueueErrors. */
const sqs = serviceCalls({ service: "sqs", object: "queue", isGone: isNotFound, classify: classifyError });

const tagsField = { field: "spec.tags" };

/**
 * The URL CreateQueue just answered, per client (so per account and region) and queue name,
 * taken by the read that follows the create: that read need not ask GetQueueUrl for what SQS
 * has just said. Taken once; a later read asks again (a queue may be deleted out of band).
 */
const justCreated = new WeakMap<SQSClient, Map<string, string>>();

function takeJustCreated(client: QueueClient, name: string): string | undefined {
  const urls = justCreated.get(client.sqs);
  const url = urls?.get(name);
  if (url !== undefined) urls?.delete(name);
  return url;
}

/** The URL of the queue of that name in the client's account; undefined when there is none. */
export async function queueUrlOf(
  client: QueueClient,
  name: string,
  ctx: CallContext = {},
): Promise<string | undefined> {
  const out = await sqs.sendUnlessGone(ctx, "GetQueueUrl", name, (o) =>
    client.sqs.send(new GetQueueUrlCommand({ QueueName: name }), o),
  );
  return out?.QueueUrl;
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
  const url = takeJustCreated(client, name) ?? (await queueUrlOf(client, name, ctx));
  if (url === undefined) return { found: false };
  const attributesOut = await sqs.sendUnlessGone(ctx, "GetQueueAttributes", name, (o) =>
    client.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }), o),
  );
  if (attributesOut === undefined) return { found: false };
  const attributes = attributesOut.Attributes ?? {};
  const tagsOut = await sqs.sendUnlessGone(
    ctx,
    "ListQueueTags",
    name,
    (o) => client.sqs.send(new ListQueueTagsCommand({ QueueUrl: url }), o),
    tagsField,
  );
  if (tagsOut === undefined) return { found: false };
  const tags = tagsOut.Tags ?? {};
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
  const out = await sqs.sendUnless(isAlreadyExists, ctx, "CreateQueue", name, (o) =>
    client.sqs.send(new CreateQueueCommand(createQueueInput(spec, ownerTags)), o),
  );
  if (out === undefined) return { created: false };
  const url = out.QueueUrl ?? "";
  if (url !== "") {
    let urls = justCreated.get(client.sqs);
    if (urls === undefined) {
      urls = new Map();
      justCreated.set(client.sqs, urls);
    }
    urls.set(name, url);
  }
  return { created: true, queueURL: url };
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
      const tags = queueTags(desired.tags, ownerTags);
      await applyTagChanges(tags, observed.tags ?? {}, tagWrites(client, name, url, ctx));
      continue;
    }
    const value = attributeValue(desired, d.field);
    if (value === undefined) continue;
    await sqs.send(
      ctx,
      "SetQueueAttributes",
      name,
      (o) =>
        client.sqs.send(
          new SetQueueAttributesCommand({
            QueueUrl: url,
            Attributes: { [attributeNames[d.field as keyof typeof attributeNames]]: value },
          }),
          o,
        ),
      { field: d.path },
    );
  }
  return differences;
}

/** TagQueue and UntagQueue on the queue at `url`. */
function tagWrites(client: QueueClient, name: string, url: string, ctx: CallContext): TagWrites {
  return {
    tag: (tags) =>
      sqs.send(
        ctx,
        "TagQueue",
        name,
        (o) => client.sqs.send(new TagQueueCommand({ QueueUrl: url, Tags: tags }), o),
        tagsField,
      ),
    untag: (keys) =>
      sqs.send(
        ctx,
        "UntagQueue",
        name,
        (o) => client.sqs.send(new UntagQueueCommand({ QueueUrl: url, TagKeys: keys }), o),
        tagsField,
      ),
  };
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
  await claimTags(observed.tags ?? {}, ownerTags, tagWrites(client, name, url, ctx));
}

/** DeleteQueue on the queue of that name in the client's account; one already gone is "not-found". */
export async function deleteQueue(
  client: QueueClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  const url = await queueUrlOf(client, name, ctx);
  if (url === undefined) return "not-found";
  return sqs.deleteUnlessGone(ctx, "DeleteQueue", name, (o) =>
    client.sqs.send(new DeleteQueueCommand({ QueueUrl: url }), o),
  );
}
