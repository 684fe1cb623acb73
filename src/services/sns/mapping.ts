// Topic spec ⇄ SNS API shapes, as pure functions: the ARN, CreateTopic's input, the attribute
// each spec field is written to, and GetTopicAttributes / ListTagsForResource answers in spec
// form. SNS's attribute map is string-valued, like ACK's spec fields.
import type { CreateTopicCommandInput, Tag as SnsTag } from "@aws-sdk/client-sns";
import { parseNamedArn, regionalArn } from "../arn.ts";
import { attributeWhenAbsent, ruleOf } from "../declared-drift.ts";
import { userTagList } from "../pattern-tag-list.ts";
import { stringBoolean } from "../string-boolean.ts";
import { awsTags, tagListFromAws, tagMapOf, withOwnerTags } from "../tag-list.ts";
import { topicAwsNames, topicFieldGroups } from "./generated/topic-fields.ts";
import { type Tag, type TopicAttribute, type TopicFields, topicAttributes } from "./schema.ts";

export { stringBoolean, tagMapOf };

/** `arn:<partition>:sns:<region>:<account>:<name>`: a topic's ARN is known before it exists. */
export function arnOf(name: string, region: string, account: string): string {
  return regionalArn("sns", region, account, name);
}

/** The region, account and name an SNS topic ARN names; undefined when it is not one. */
export function parseTopicArn(arn: string) {
  return parseNamedArn(arn, "sns");
}

/** The SNS attribute name each spec field is stored under (generated from the SNS model). */
export const attributeNames: Readonly<Record<TopicAttribute | "fifoTopic", string>> = Object.fromEntries(
  [...topicAttributes, "fifoTopic" as const].map((field) => [field, topicAwsNames[field]]),
) as Record<TopicAttribute | "fifoTopic", string>;

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
  for (const field of topicAttributes) {
    if (field === "contentBasedDeduplication" && spec.fifoTopic !== "true") continue;
    const value = spec[field];
    if (value) attributes[attributeNames[field]] = value;
  }
  const tags = toSnsTags(topicTags(spec.tags, ownerTags));
  return {
    Name: spec.name,
    ...(Object.keys(attributes).length > 0 ? { Attributes: attributes } : {}),
    ...(tags.length > 0 ? { Tags: tags } : {}),
    ...(spec.dataProtectionPolicy ? { DataProtectionPolicy: spec.dataProtectionPolicy } : {}),
  };
}

/**
 * The value SetTopicAttributes writes for `field` so that SNS matches `spec`, by the field's
 * declared absence (topic-declaration.ts): an absent displayName / kmsMasterKeyID / delivery
 * status role is "" (none), an absent contentBasedDeduplication "false". The late-initialised
 * ones (policies, sample rates, signature version, tracing, FIFO throughput scope) mean "keep
 * SNS's" when absent, so there is nothing to write (undefined).
 */
export function attributeValue(spec: TopicFields, field: TopicAttribute): string | undefined {
  return spec[field] ?? attributeWhenAbsent(ruleOf(topicFieldGroups, field));
}

/**
 * What GetTopicAttributes, ListTagsForResource and (when read) GetDataProtectionPolicy say, in
 * spec form ("" / absent = none).
 */
export function topicFieldsFromAws(
  name: string,
  attributes: Readonly<Record<string, string | undefined>>,
  tags: readonly SnsTag[],
  dataProtectionPolicy?: string,
): TopicFields {
  const out: Record<string, unknown> = { name };
  for (const [field, attribute] of Object.entries(attributeNames)) {
    const value = attributes[attribute];
    if (value === undefined || value === "") continue;
    const isBoolean = field === "fifoTopic" || field === "contentBasedDeduplication";
    out[field] = isBoolean ? stringBoolean(value) : value;
  }
  if (dataProtectionPolicy) out["dataProtectionPolicy"] = dataProtectionPolicy;
  const tagList: Tag[] = tagListFromAws(tags);
  if (tagList.length > 0) out["tags"] = tagList;
  return out as TopicFields;
}
