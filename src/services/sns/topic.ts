// Create, read, update and delete one SNS topic through an SNSClient the caller configured
// (credentials of the decided identity, region, endpoint). Knows nothing about Kubernetes: the
// reconciler decides when to call what (ownership, adoption, deletion policy, region and
// account drift) and turns TopicErrors into conditions. Every call carries the reconcile's
// CallContext: shutdown aborts it, and it is logged with the reconcile ID.
//
// Topics are addressed by ARN, which names the account: the TopicClient carries the account
// (and region) the client acts in, so that `read` only ever looks in that account and never at
// a topic of the same name elsewhere.
import {
  CreateTopicCommand,
  DeleteTopicCommand,
  GetDataProtectionPolicyCommand,
  GetTopicAttributesCommand,
  ListTagsForResourceCommand,
  PutDataProtectionPolicyCommand,
  SetTopicAttributesCommand,
  type SNSClient,
  TagResourceCommand,
  UntagResourceCommand,
} from "@aws-sdk/client-sns";
import type { CallContext } from "../call-context.ts";
import { serviceCalls } from "../service-calls.ts";
import { applyTagChanges, claimTags, type TagWrites } from "../tag-changes.ts";
import { diff, type FieldDifference } from "./diff.ts";
import { classifyError, isAlreadyExists, isNotFound } from "./errors.ts";
import {
  arnOf,
  attributeNames,
  attributeValue,
  createTopicInput,
  tagMapOf,
  topicFieldsFromAws,
  topicTags,
  toSnsTags,
} from "./mapping.ts";
import type { TopicFields } from "./schema.ts";

/** An SNS client and the account and region it acts in (topic ARNs name both). */
export interface TopicClient {
  readonly sns: SNSClient;
  readonly account: string;
  readonly region: string;
}

/** The ownership tags the reconciler wants on the topic (empty: none, e.g. in module tests). */
export type OwnerTags = Readonly<Record<string, string>>;

/**
 * What SNS has: the managed attributes in spec form (absent = none), `tags` holding every tag
 * (ownership tags included), and the read-only attributes ACK puts in status.
 */
export interface ObservedTopic extends TopicFields {
  readonly arn: string;
  readonly owner?: string;
  readonly effectiveDeliveryPolicy?: string;
}

export type ReadResult = { readonly found: false } | { readonly found: true; readonly topic: ObservedTopic };

/** SNS calls: logged with the topic's name, failures as TopicErrors. */
const sns = serviceCalls({ service: "sns", object: "topic", isGone: isNotFound, classify: classifyError });

const tagsField = { field: "spec.tags" };

export function topicArn(client: TopicClient, name: string): string {
  return arnOf(name, client.region, client.account);
}

/**
 * Reads the topic of that name in the client's account and region: its attributes and tags.
 * Works on any topic the identity can read, whoever created it (the reconciler decides from the
 * tags whether it may touch it). `found: false` when there is none (or it vanished mid-read).
 */
export async function readTopic(
  client: TopicClient,
  spec: Pick<TopicFields, "name" | "dataProtectionPolicy">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const name = spec.name;
  const arn = topicArn(client, name);
  const attributesOut = await sns.sendUnlessGone(ctx, "GetTopicAttributes", name, (o) =>
    client.sns.send(new GetTopicAttributesCommand({ TopicArn: arn }), o),
  );
  if (attributesOut === undefined) return { found: false };
  const attributes = attributesOut.Attributes ?? {};
  const tagsOut = await sns.sendUnlessGone(
    ctx,
    "ListTagsForResource",
    name,
    (o) => client.sns.send(new ListTagsForResourceCommand({ ResourceArn: arn }), o),
    tagsField,
  );
  if (tagsOut === undefined) return { found: false };
  const tags = tagsOut.Tags ?? [];
  // The data protection policy is its own call; it is read only while the spec manages one
  // (diff.ts), so a topic without one costs no extra call.
  let dataProtectionPolicy: string | undefined;
  if (spec.dataProtectionPolicy !== undefined) {
    const out = await sns.sendUnlessGone(
      ctx,
      "GetDataProtectionPolicy",
      name,
      (o) => client.sns.send(new GetDataProtectionPolicyCommand({ ResourceArn: arn }), o),
      { field: "spec.dataProtectionPolicy" },
    );
    if (out === undefined) return { found: false };
    dataProtectionPolicy = out?.DataProtectionPolicy || undefined;
  }
  const owner = attributes["Owner"];
  const effective = attributes["EffectiveDeliveryPolicy"];
  const topic: ObservedTopic = {
    ...topicFieldsFromAws(name, attributes, tags, dataProtectionPolicy),
    arn: attributes["TopicArn"] || arn,
    ...(owner ? { owner } : {}),
    ...(effective ? { effectiveDeliveryPolicy: effective } : {}),
  };
  return { found: true, topic };
}

export type CreateResult =
  /** SNS made the topic. */
  | { readonly created: true; readonly arn: string }
  /** The account already had a topic of that name: whose it is, the tags must tell. */
  | { readonly created: false };

/**
 * CreateTopic with the spec's attributes and every tag (the user's and `ownerTags`) in one call.
 * CreateTopic is idempotent: on a name the account already has it answers with the existing
 * ARN (or, with other tags or attributes, InvalidParameter "... already exists ..."), so the
 * name is looked up first and an existing topic is `created: false` — never taken for ours.
 */
export async function createTopic(
  client: TopicClient,
  spec: TopicFields,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<CreateResult> {
  const name = spec.name;
  if ((await readTopic(client, spec, ctx)).found) return { created: false };
  const out = await sns.sendUnless(
    isAlreadyExists,
    ctx,
    "CreateTopic",
    name,
    (o) => client.sns.send(new CreateTopicCommand(createTopicInput(spec, ownerTags)), o),
    { field: "spec.name" },
  );
  return out === undefined
    ? { created: false }
    : { created: true, arn: out.TopicArn ?? topicArn(client, name) };
}

/**
 * Applies the attributes that differ between `desired` and `observed` (one SetTopicAttributes
 * each, as SNS takes them) and the user's tags (TagResource / UntagResource), always keeping
 * `ownerTags`. Returns what it changed.
 */
export async function updateTopic(
  client: TopicClient,
  desired: TopicFields,
  observed: TopicFields,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<FieldDifference[]> {
  const name = desired.name;
  const arn = topicArn(client, name);
  const differences = diff(desired, observed);
  for (const d of differences) {
    if (d.field === "tags") {
      const tags = topicTags(desired.tags, ownerTags);
      await applyTagChanges(tags, tagMapOf(observed.tags), tagWrites(client, name, ctx));
      continue;
    }
    if (d.field === "dataProtectionPolicy") {
      const policy = desired.dataProtectionPolicy;
      if (policy === undefined) continue;
      await sns.send(
        ctx,
        "PutDataProtectionPolicy",
        name,
        (o) =>
          client.sns.send(
            new PutDataProtectionPolicyCommand({ ResourceArn: arn, DataProtectionPolicy: policy }),
            o,
          ),
        { field: d.path },
      );
      continue;
    }
    const value = attributeValue(desired, d.field);
    if (value === undefined) continue;
    await sns.send(
      ctx,
      "SetTopicAttributes",
      name,
      (o) =>
        client.sns.send(
          new SetTopicAttributesCommand({
            TopicArn: arn,
            AttributeName: attributeNames[d.field as keyof typeof attributeNames],
            AttributeValue: value,
          }),
          o,
        ),
      { field: d.path },
    );
  }
  return differences;
}

/** TagResource and UntagResource on the topic of that name. */
function tagWrites(client: TopicClient, name: string, ctx: CallContext): TagWrites {
  const arn = topicArn(client, name);
  return {
    tag: (tags) =>
      sns.send(
        ctx,
        "TagResource",
        name,
        (o) => client.sns.send(new TagResourceCommand({ ResourceArn: arn, Tags: toSnsTags(tags) }), o),
        tagsField,
      ),
    untag: (keys) =>
      sns.send(
        ctx,
        "UntagResource",
        name,
        (o) => client.sns.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: keys }), o),
        tagsField,
      ),
  };
}

/** Puts the ownership tags on a topic that lacks them, keeping every tag it has (adoption). */
export async function claimTopic(
  client: TopicClient,
  observed: ObservedTopic,
  ownerTags: OwnerTags,
  ctx: CallContext = {},
): Promise<void> {
  await claimTags(tagMapOf(observed.tags), ownerTags, tagWrites(client, observed.name, ctx));
}

/** DeleteTopic (idempotent in SNS); a topic already gone is "not-found". */
export async function deleteTopic(
  client: TopicClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  return sns.deleteUnlessGone(ctx, "DeleteTopic", name, (o) =>
    client.sns.send(new DeleteTopicCommand({ TopicArn: topicArn(client, name) }), o),
  );
}
