// Object Lock: `objectLockEnabledForBucket` (CreateBucket's flag) and `objectLockConfiguration`
// (the default retention, PutObjectLockConfiguration), compared and written as one group. S3
// can turn Object Lock on for an existing (versioned) bucket but never off, so a spec without
// it leaves it on; removing the configuration's rule removes the default retention. Pure.
import type {
  GetObjectLockConfigurationCommandOutput,
  ObjectLockConfiguration,
  PutObjectLockConfigurationCommandInput,
} from "@aws-sdk/client-s3";
import { type Codec, fromAws, toAws } from "../shape-codec.ts";
import { pruned } from "./configuration-groups.ts";
import { bucketCodecs } from "./generated/bucket-fields.ts";
import type { BucketFields } from "./schema.ts";

export type ObjectLockFields = Pick<BucketFields, "objectLockEnabledForBucket" | "objectLockConfiguration">;

const codec: Codec = bucketCodecs.objectLockConfiguration[1];

/** GetObjectLockConfiguration's answer in spec form (nothing when Object Lock is off). */
export function objectLockFromAws(
  out: Pick<GetObjectLockConfigurationCommandOutput, "ObjectLockConfiguration">,
): ObjectLockFields {
  const c = out.ObjectLockConfiguration;
  if (c?.ObjectLockEnabled !== "Enabled") return {};
  return {
    objectLockEnabledForBucket: true,
    objectLockConfiguration: pruned(fromAws(codec, c)) as ObjectLockFields["objectLockConfiguration"],
  };
}

/** Whether the spec asks for Object Lock to be on. */
export function wantsObjectLock(spec: ObjectLockFields): boolean {
  return spec.objectLockEnabledForBucket === true || spec.objectLockConfiguration !== undefined;
}

/** The default retention in comparable form: a period of 0 (as some stores report) is none. */
function canonicalRule(spec: ObjectLockFields): string {
  const rule = pruned(spec.objectLockConfiguration?.rule) as Record<string, unknown> | undefined;
  return JSON.stringify(rule, (k, v) => ((k === "days" || k === "years") && v === 0 ? undefined : v));
}

export function sameObjectLock(desired: ObjectLockFields, observed: ObjectLockFields): boolean {
  const on = observed.objectLockEnabledForBucket === true;
  if (wantsObjectLock(desired) && !on) return false;
  // Off and not asked for: nothing to compare (and nothing can be removed).
  if (!on) return true;
  return canonicalRule(desired) === canonicalRule(observed);
}

/** PutObjectLockConfiguration's input: Object Lock on, with the spec's default retention if any. */
export function putObjectLockInput(
  name: string,
  spec: ObjectLockFields,
): PutObjectLockConfigurationCommandInput {
  const rule = spec.objectLockConfiguration?.rule;
  const aws = toAws(codec, { rule }) as Pick<ObjectLockConfiguration, "Rule">;
  return {
    Bucket: name,
    ObjectLockConfiguration: {
      ObjectLockEnabled: "Enabled",
      ...(aws.Rule === undefined ? {} : { Rule: aws.Rule }),
    },
  };
}

/** What S3 holds after putObjectLockInput. */
export function objectLockAfterApplying(spec: ObjectLockFields): ObjectLockFields {
  const rule = spec.objectLockConfiguration?.rule;
  return {
    objectLockEnabledForBucket: true,
    objectLockConfiguration: { objectLockEnabled: "Enabled", ...(rule === undefined ? {} : { rule }) },
  };
}
