// Topic spec ⇄ SNS API shapes, as pure functions: the ARN, CreateTopic's input, the attribute
// each spec field is written to, and GetTopicAttributes / ListTagsForResource answers in spec
// form. SNS's attribute map is string-valued, like ACK's spec fields.
import type { CreateTopicCommandInput, Tag as SnsTag } from "@aws-sdk/client-sns";
import { parseNamedArn, regionalArn } from "../arn.ts";
import { userTagList } from "../pattern-tag-list.ts";
import { stringBoolean } from "../string-boolean.ts";
import { awsTags, tagListFromAws, tagMapOf, withOwnerTags } from "../tag-list.ts";
import type { Tag, TopicAttribute, TopicFields } from "./schema.ts";

export { stringBoolean, tagMapOf };

/** `arn:<partition>:sns:<region>:<account>:<name>`: a topic's ARN is known before it exists. */
export function arnOf(name: string, region: string, account: string): string {
  return regionalArn("sns", region, account, name);
}

/** The region, account and name an SNS topic ARN names; undefined when it is not one. */
export function parseTopicArn(arn: string) {
  return parseNamedArn(arn, "sns");
}

/** The SNS attribute name each spec field is stored under. */
export const attributeNames: Readonly<Record<TopicAttribute | "fifoTopic", string>> = {
  displayName: "DisplayName",
  policy: "Policy",
  deliveryPolicy: "DeliveryPolicy",
  kmsMasterKeyID: "KmsMasterKeyId",
  contentBasedDeduplication: "ContentBasedDeduplication",
  fifoTopic: "FifoTopic",
};

/** The tag set SNS should hold: the user's tags and the ownership tags (which win on a clash). */
export const topicTags = withOwnerTags;
/** The user's part of a topic's tags, in spec form (undefined = no tags). */
export const userTags: (tags: readonly Tag[] | undefined) => Tag[] | undefined = userTagList;
/** A tag map as SNS's `{Key, Value}` list. */
export const toSnsTags: (tags: Readonly<Record<string, string>>) => SnsTag[] = awsTags;

/**
 * CreateTopic with every attribute the spec sets and every tag (the user's and ownership), so
 * the topic never exists untagged or half-configured. Empty strings are left out: they mean
 * "none", which is what a new topic has.
 */
export function createTopicInput(
  spec: TopicFields,
  ownerTags: Readonly<Record<string, string>>,
): CreateTopicCommandInput {
  const attributes: Record<string, string> = {};
  if (spec.fifoTopic === "true") attributes[attributeNames.fifoTopic] = "true";
  if (spec.displayName) attributes[attributeNames.displayName] = spec.displayName;
  if (spec.policy) attributes[attributeNames.policy] = spec.policy;
  if (spec.deliveryPolicy) attributes[attributeNames.deliveryPolicy] = spec.deliveryPolicy;
  if (spec.kmsMasterKeyID) attributes[attributeNames.kmsMasterKeyID] = spec.kmsMasterKeyID;
  if (spec.fifoTopic === "true" && spec.contentBasedDeduplication !== undefined)
    attributes[attributeNames.contentBasedDeduplication] = spec.contentBasedDeduplication;
  const tags = toSnsTags(topicTags(spec.tags, ownerTags));
  return {
    Name: spec.name,
    ...(Object.keys(attributes).length > 0 ? { Attributes: attributes } : {}),
    ...(tags.length > 0 ? { Tags: tags } : {}),
  };
}

/**
 * The value SetTopicAttributes writes for `field` so that SNS matches `spec`: an absent
 * displayName / kmsMasterKeyID is "" (none: no display name, no server-side encryption), an
 * absent contentBasedDeduplication "false". policy and deliveryPolicy are late-initialised:
 * absent means "keep SNS's", so there is nothing to write (undefined).
 */
export function attributeValue(spec: TopicFields, field: TopicAttribute): string | undefined {
  switch (field) {
    case "displayName":
      return spec.displayName ?? "";
    case "kmsMasterKeyID":
      return spec.kmsMasterKeyID ?? "";
    case "contentBasedDeduplication":
      return spec.contentBasedDeduplication ?? "false";
    case "policy":
      return spec.policy;
    case "deliveryPolicy":
      return spec.deliveryPolicy;
  }
}

/** What GetTopicAttributes and ListTagsForResource say, in spec form ("" / absent = none). */
export function topicFieldsFromAws(
  name: string,
  attributes: Readonly<Record<string, string | undefined>>,
  tags: readonly SnsTag[],
): TopicFields {
  const text = (key: string): string | undefined => {
    const v = attributes[key];
    return v === undefined || v === "" ? undefined : v;
  };
  const fifo = stringBoolean(text(attributeNames.fifoTopic));
  const dedup = stringBoolean(text(attributeNames.contentBasedDeduplication));
  const displayName = text(attributeNames.displayName);
  const policy = text(attributeNames.policy);
  const deliveryPolicy = text(attributeNames.deliveryPolicy);
  const kmsMasterKeyID = text(attributeNames.kmsMasterKeyID);
  const tagList: Tag[] = tagListFromAws(tags);
  return {
    name,
    ...(displayName === undefined ? {} : { displayName }),
    ...(policy === undefined ? {} : { policy }),
    ...(deliveryPolicy === undefined ? {} : { deliveryPolicy }),
    ...(fifo === undefined ? {} : { fifoTopic: fifo }),
    ...(dedup === undefined ? {} : { contentBasedDeduplication: dedup }),
    ...(kmsMasterKeyID === undefined ? {} : { kmsMasterKeyID }),
    ...(tagList.length === 0 ? {} : { tags: tagList }),
  };
}
