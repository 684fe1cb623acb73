// Tags in ACK's list form, `[{key, value}]` (DynamoDB tables, RDS instances): the spec schema,
// and the conversions between that list, a map (what ownership is judged on) and the AWS SDK's
// `{Key, Value}` list. SQS's ACK spec holds tags as a map; the lists whose characters AWS
// restricts (S3 tag sets, SNS tags) are in pattern-tag-list.ts.
import { z } from "zod";
import { ownershipTagCount } from "../api/ownership-tags.ts";
import { isReservedTagKey, serviceTagPrefixes, userTagKey } from "../api/reserved-tag-keys.ts";
import { listMap } from "../api/rules.ts";
import { stringField } from "../api/validation.ts";

export interface Tag {
  readonly key: string;
  readonly value?: string | undefined;
}

/**
 * The service's name in messages ("DynamoDB") and the key prefixes it reserves besides those
 * every kind refuses (reserved-tag-keys.ts: `aws:`, ACK's and crossrole's), by prefix.
 */
export interface TagRules {
  readonly service: string;
  readonly reservedPrefixes?: Readonly<Record<string, string>>;
}

/** AWS allows 50 tags on these resources; crossrole's ownership tags take some of them. */
export const maxUserTags = 50 - ownershipTagCount;

/** The `tags` field: a list of {key, value}, keys unique, AWS's limits and reserved prefixes. */
export function tagListSchema(rules: TagRules) {
  const tag = z.object({
    key: userTagKey(
      stringField("tags[].key")
        .min(1, `tags[].key must be 1-128 characters (${rules.service} tag limit)`)
        .max(128, `tags[].key must be 1-128 characters (${rules.service} tag limit)`),
      "tags[].key",
      serviceTagPrefixes(rules.reservedPrefixes),
    ),
    value: stringField("tags[].value")
      .max(256, `tags[].value must be at most 256 characters (${rules.service} tag limit)`)
      .optional(),
  });
  return listMap(
    z
      .array(tag, { error: "tags must be a list of {key, value}" })
      .max(
        maxUserTags,
        `tags may hold at most ${maxUserTags} tags (${rules.service}'s 50 less crossrole's ${ownershipTagCount} ownership tags)`,
      ),
    "key",
    "tags must not repeat a key",
  );
}

/** A tag list (spec form) as a map. */
export function tagMapOf(tags: readonly Tag[] | undefined): Record<string, string> {
  return Object.fromEntries((tags ?? []).map((t): [string, string] => [t.key, t.value ?? ""]));
}

/** The map AWS should hold: the user's tags and the ownership tags (which win). */
export function withOwnerTags(
  tags: readonly Tag[] | undefined,
  ownerTags: Readonly<Record<string, string>>,
): Record<string, string> {
  const user = Object.entries(tagMapOf(tags)).filter(([k]) => !isReservedTagKey(k));
  return { ...Object.fromEntries(user), ...ownerTags };
}

/** The user's part of a tag map in spec form, sorted by key (undefined = no tags). */
export function userTags(tags: Readonly<Record<string, string>>): Tag[] | undefined {
  const user = Object.entries(tags)
    .filter(([k]) => !isReservedTagKey(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ({ key, value }));
  return user.length === 0 ? undefined : user;
}

/** A tag map in the AWS SDK's `{Key, Value}` list form. */
export function awsTags(tags: Readonly<Record<string, string>>): { Key: string; Value: string }[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

/** A tag in the AWS SDK's form: the SDK types both parts as optional. */
export interface AwsTag {
  readonly Key?: string | undefined;
  readonly Value?: string | undefined;
}

/** The AWS SDK's `{Key, Value}` tags as a map; a tag without a key is skipped, a missing value is "". */
export function tagMapFromAws(tags: readonly AwsTag[] | undefined): Record<string, string> {
  // fromEntries, not assignment: a tag may be named "__proto__".
  return Object.fromEntries(
    (tags ?? [])
      .filter((t) => t.Key !== undefined)
      .map((t): [string, string] => [t.Key ?? "", t.Value ?? ""]),
  );
}

/** The AWS SDK's `{Key, Value}` tags as a spec-form list, in AWS's order; a missing part is "". */
export function tagListFromAws(tags: readonly AwsTag[] | undefined): { key: string; value: string }[] {
  return (tags ?? []).map((t) => ({ key: t.Key ?? "", value: t.Value ?? "" }));
}
