// Tags as a map of key to value (SQS's ACK spec holds a queue's tags so): the spec schema, with
// AWS's limits and the reserved keys every kind refuses (src/api/reserved-tag-keys.ts). The
// list forms are tag-list.ts and pattern-tag-list.ts.
import { z } from "zod";
import { ownershipTagCount } from "../api/ownership-tags.ts";
import { reservedTagMapKeysRule, serviceTagPrefixes } from "../api/reserved-tag-keys.ts";
import { withRules } from "../api/rules.ts";
import { stringField } from "../api/validation.ts";
import type { TagRules } from "./tag-list.ts";

/** AWS allows 50 tags on a resource; crossrole's ownership tags take some of them. */
export const maxUserMapTags = 50 - ownershipTagCount;

/** The `tags` map: keys 1-128 characters and not reserved, values at most 256, at most maxUserMapTags. */
export function tagMapSchema(rules: TagRules) {
  return withRules(
    z
      .record(
        z.string(),
        stringField("tags value").max(
          256,
          `tags values must be at most 256 characters (${rules.service} tag limit)`,
        ),
        { error: "tags must be a map of tag keys to string values" },
      )
      .refine((tags) => Object.keys(tags).length <= maxUserMapTags, {
        message: `tags may hold at most ${maxUserMapTags} tags (${rules.service}'s 50 less crossrole's ${ownershipTagCount} ownership tags)`,
      })
      .meta({ maxProperties: maxUserMapTags }),
    reservedTagMapKeysRule("tags", serviceTagPrefixes(rules.reservedPrefixes)),
    {
      cel: "self.all(k, size(k) >= 1 && size(k) <= 128)",
      message: `tags keys must be 1-128 characters (${rules.service} tag limit)`,
      check: (tags) => Object.keys(tags).every((k) => k.length >= 1 && k.length <= 128),
    },
  );
}
