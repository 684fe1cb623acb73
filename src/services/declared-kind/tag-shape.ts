// The two ways ACK's kinds hold tags, for the generic runtime: a `{key, value}` list (RDS, ECR,
// SNS, DynamoDB: AWS's `{Key, Value}` list) or a string map (SQS: AWS's map too). Which one a kind
// has is its tags field's codec (a `map` codec is a map). Everything the runtime does with tags
// goes through a map: ownership tags added to the spec's, tag and untag by key. Pure.
import { withoutReservedTags } from "../../api/reserved-tag-keys.ts";
import { type Codec, toAws } from "../shape-codec.ts";
import {
  type AwsTag,
  type Tag,
  tagListFromAws,
  tagMapFromAws,
  userTags,
  withOwnerTags,
} from "../tag-list.ts";

export interface TagShape {
  /** The tags AWS should hold: the spec's user tags and the ownership tags (which win). */
  withOwner(specTags: unknown, ownerTags: Readonly<Record<string, string>>): Record<string, string>;
  /** A tag map as the SDK's input member wants it. */
  toAws(tags: Readonly<Record<string, string>>): unknown;
  /** The SDK's answer as a map. */
  mapFromAws(answer: unknown): Record<string, string>;
  /** The SDK's answer in spec form (undefined: no tags), every tag included. */
  specFromAws(answer: unknown): unknown;
  /** The user's part of a tag map in spec form (undefined: none). */
  user(tags: Readonly<Record<string, string>>): unknown;
  /** A tag map as a list member of another call takes it (S3's CreateBucketConfiguration.Tags). */
  listToAws(tags: Readonly<Record<string, string>>): unknown;
}

const stringMap = (answer: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((answer ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [
      k,
      String(v ?? ""),
    ]),
  );

export function tagShapeOf(codec: Codec): TagShape {
  // Tags wrapped in an object of one list member (S3's Tagging: {TagSet: [...]}); AWS's answer
  // gives the list, the spec holds the object.
  const [wrapped, ...others] = Object.entries(codec.object ?? {});
  if (wrapped !== undefined && others.length === 0 && wrapped[1][1].list !== undefined) {
    const [specMember, [awsMember, listCodec]] = wrapped;
    const inner = tagShapeOf(listCodec);
    const unwrap = (specTags: unknown) => (specTags as Record<string, unknown> | undefined)?.[specMember];
    return {
      withOwner: (specTags, ownerTags) => inner.withOwner(unwrap(specTags), ownerTags),
      toAws: (tags) => ({ [awsMember]: inner.toAws(tags) }),
      listToAws: (tags) => inner.toAws(tags),
      mapFromAws: (answer) => inner.mapFromAws(answer),
      specFromAws: (answer) => {
        const tags = inner.specFromAws(answer);
        return tags === undefined ? undefined : { [specMember]: tags };
      },
      // No user tags: the object without its list, as ACK's adopted resource has it.
      user: (tags) => {
        const user = inner.user(tags);
        return user === undefined ? {} : { [specMember]: user };
      },
    };
  }
  if (codec.map !== undefined) {
    return {
      withOwner: (specTags, ownerTags) => ({
        ...withoutReservedTags((specTags ?? {}) as Record<string, string>),
        ...ownerTags,
      }),
      toAws: (tags) => ({ ...tags }),
      listToAws: (tags) => ({ ...tags }),
      mapFromAws: stringMap,
      specFromAws: (answer) => {
        const tags = stringMap(answer);
        return Object.keys(tags).length === 0 ? undefined : tags;
      },
      user: (tags) => {
        const user = withoutReservedTags(tags);
        return Object.keys(user).length === 0 ? undefined : user;
      },
    };
  }
  const pair = pairNamesOf(codec);
  if (pair !== undefined) return renamedPairs(tagShapeOf(plainPairs), pair);
  return {
    withOwner: (specTags, ownerTags) => withOwnerTags(specTags as Tag[] | undefined, ownerTags),
    toAws: (tags) =>
      toAws(
        codec,
        Object.entries(tags).map(([key, value]) => ({ key, value })),
      ),
    listToAws: (tags) =>
      toAws(
        codec,
        Object.entries(tags).map(([key, value]) => ({ key, value })),
      ),
    mapFromAws: (answer) => tagMapFromAws(answer as AwsTag[] | undefined),
    specFromAws: (answer) => {
      const tags = tagListFromAws(answer as AwsTag[] | undefined);
      return tags.length === 0 ? undefined : tags;
    },
    user: userTags,
  };
}

/** The `{key, value}` list as most kinds hold it: AWS's `{Key, Value}`. */
const plainPairs: Codec = {
  list: { object: { key: ["Key", {}], value: ["Value", {}] } },
};

interface PairNames {
  readonly key: string;
  readonly value: string;
  readonly awsKey: string;
  readonly awsValue: string;
}

/**
 * The members of a list of tags named otherwise than `{key, value}` / `{Key, Value}` (KMS's
 * `{tagKey, tagValue}` / `{TagKey, TagValue}`); undefined for the usual names.
 */
function pairNamesOf(codec: Codec): PairNames | undefined {
  const members = Object.entries(codec.list?.object ?? {});
  const key = members.find(([spec]) => /key$/i.test(spec));
  const value = members.find(([spec]) => /value$/i.test(spec));
  if (members.length !== 2 || key === undefined || value === undefined) return undefined;
  const names = { key: key[0], value: value[0], awsKey: key[1][0], awsValue: value[1][0] };
  const usual = names.key === "key" && names.value === "value" && names.awsKey === "Key";
  return usual && names.awsValue === "Value" ? undefined : names;
}

/** A list shape over renamed pairs: each side translated to and from the usual names. */
function renamedPairs(usual: TagShape, n: PairNames): TagShape {
  const rename = (list: unknown, from: [string, string], to: [string, string]) =>
    Array.isArray(list)
      ? (list as Record<string, unknown>[]).map((t) => ({ [to[0]]: t[from[0]], [to[1]]: t[from[1]] }))
      : list;
  const specIn = (l: unknown) => rename(l, [n.key, n.value], ["key", "value"]);
  const specOut = (l: unknown) => rename(l, ["key", "value"], [n.key, n.value]);
  const awsIn = (l: unknown) => rename(l, [n.awsKey, n.awsValue], ["Key", "Value"]);
  const awsOut = (l: unknown) => rename(l, ["Key", "Value"], [n.awsKey, n.awsValue]);
  return {
    withOwner: (specTags, ownerTags) => usual.withOwner(specIn(specTags), ownerTags),
    toAws: (tags) => awsOut(usual.toAws(tags)),
    listToAws: (tags) => awsOut(usual.listToAws(tags)),
    mapFromAws: (answer) => usual.mapFromAws(awsIn(answer)),
    specFromAws: (answer) => specOut(usual.specFromAws(awsIn(answer))),
    user: (tags) => specOut(usual.user(tags)),
  };
}

/** A kind AWS cannot tag (a KMS alias): no tags to send, none read. */
export const noTags: TagShape = {
  withOwner: () => ({}),
  toAws: () => undefined,
  mapFromAws: () => ({}),
  specFromAws: () => undefined,
  user: () => undefined,
  listToAws: () => undefined,
};
