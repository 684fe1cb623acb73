// Tags as a list of {key, value} whose characters AWS restricts (an S3 bucket's tag set, an SNS
// topic's tags): both parts required, only letters, digits, spaces and _.:/=+-@. DynamoDB and
// RDS tags, which allow any characters, are in tag-list.ts.
import { z } from "zod";
import { ownershipTagCount } from "../api/ownership-tags.ts";
import { userTagKey } from "../api/reserved-tag-keys.ts";
import { listMap } from "../api/rules.ts";
import { patternField } from "../api/validation.ts";
import { maxUserTags } from "./tag-list.ts";

/** One tag of the list at `path` ("tags", "tagging.tagSet"); the path names it in messages. */
export function patternTagSchema(path: string) {
  return z.object({
    key: userTagKey(
      patternField(
        `${path}[].key`,
        "tagKey",
        128,
        `${path}[].key must be 1-128 characters of letters, digits, spaces and _.:/=+-@`,
      ),
      `${path}[].key`,
    ),
    value: patternField(
      `${path}[].value`,
      "tagValue",
      256,
      `${path}[].value must be 0-256 characters of letters, digits, spaces and _.:/=+-@`,
    ),
  });
}

/** The list at `path` of `tag`s: keys unique, at most the tags `service` allows besides crossrole's. */
export function patternTagListSchema(
  path: string,
  service: string,
  tag: ReturnType<typeof patternTagSchema>,
) {
  return listMap(
    z
      .array(tag)
      .max(
        maxUserTags,
        `${path} may hold at most ${maxUserTags} tags (${service}'s limit of 50 less crossrole's ${ownershipTagCount} ownership tags)`,
      ),
    "key",
    `${path} must not repeat a key`,
  );
}
