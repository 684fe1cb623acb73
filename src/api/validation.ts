// The shared validators: every shape crossrole checks (ARNs, account IDs, STS parameters,
// Kubernetes names) is written here once. Each pattern is anchored and written in the common
// subset of JavaScript (`u` flag) and RE2 (CEL `matches()`), so the zod check and the CEL
// rule built from it accept exactly the same strings.
import { z } from "zod";
import { listMap, listSet, type Rule, withRules } from "./rules.ts";

/** Anchored regular expressions, valid in JavaScript (with the `u` flag) and in RE2. */
export const patterns = {
  /** arn:<partition>:iam::<account>:role/<path><name>; partitions aws, aws-cn, aws-us-gov, aws-iso-b, ... */
  iamRoleArn: String.raw`^arn:aws(-[a-z]+)*:iam::\d{12}:role/([\x21-\x7E]*/)?[\w+=,.@-]{1,64}$`,
  /** Managed policy ARN; AWS-managed policies use `aws` instead of an account ID. */
  iamPolicyArn: String.raw`^arn:aws(-[a-z]+)*:iam::(\d{12}|aws):policy/([\x21-\x7E]*/)?[\w+=,.@-]{1,128}$`,
  accountId: String.raw`^\d{12}$`,
  /** STS RoleSessionName. */
  sessionName: String.raw`^[\w+=,.@-]{2,64}$`,
  /** STS ExternalId, [\w+=,.@:/-]{2,1224}; split in two because RE2 caps a repeat count at 1000. */
  externalId: String.raw`^[\w+=,.@:/-]{2,1000}[\w+=,.@:/-]{0,224}$`,
  /** STS SourceIdentity. */
  sourceIdentity: String.raw`^[\w+=,.@-]{2,64}$`,
  /** STS session tag key and value (Tag.Key / Tag.Value). */
  tagKey: String.raw`^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$`,
  tagValue: String.raw`^[\p{L}\p{Z}\p{N}_.:/=+\-@]{0,256}$`,
  /** AWS region, e.g. eu-west-1, us-gov-west-1, eusc-de-east-1. */
  region: String.raw`^[a-z]{2,4}(-[a-z]+)+-\d{1,2}$`,
  /** Kubernetes object name (RFC 1123 subdomain). */
  dnsSubdomain: String.raw`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
  /** Kubernetes namespace name (RFC 1123 label). */
  dnsLabel: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
  /** API group, empty allowed (the core group, or "any" in a resource type selector). */
  apiGroupOrEmpty: String.raw`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$`,
  /** API version name (v1, v1alpha1), empty allowed. */
  apiVersionNameOrEmpty: "^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$",
  /** apiVersion as written in a manifest: `group/version`, or `version` for the core group. */
  apiVersion: String.raw`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$`,
  /** Kind, empty allowed ("any kind"). */
  kindOrEmpty: "^([A-Za-z][A-Za-z0-9]*)?$",
  /** A team ID is used as a ConfigMap key, so it uses the ConfigMap key alphabet. */
  teamId: "^[-._a-zA-Z0-9]{1,253}$",
} as const;

export type PatternName = keyof typeof patterns;

const compiled = new Map<string, RegExp>();
/** Tests `value` against one of `patterns` (compiled once, `u` flag like RE2's UTF-8 mode). */
export function matchesPattern(name: PatternName, value: string): boolean {
  let re = compiled.get(name);
  if (re === undefined) {
    re = new RegExp(patterns[name], "u");
    compiled.set(name, re);
  }
  return re.test(value);
}

/** STS limits and Kubernetes limits crossrole enforces, with the reason in the name. */
export const limits = {
  durationSecondsMin: 900,
  durationSecondsMax: 43200,
  /** TokenRequest: at least 10 minutes, at most 2^32 seconds. */
  expirationSecondsMin: 600,
  expirationSecondsMax: 4294967296,
  /** STS accepts at most 50 session tags per AssumeRole call. */
  sessionTagsMax: 50,
  /** tenantSessionTags adds kubernetes-namespace, kubernetes-kind and kubernetes-name. */
  tenantSessionTagCount: 3,
  tagKeyMax: 128,
  tagValueMax: 256,
  /** STS accepts at most 10 managed session policies. */
  policyArnsMax: 10,
  /** STS inline session policy, plain text. */
  inlinePolicyMax: 2048,
  arnMax: 2048,
  dnsSubdomainMax: 253,
  dnsLabelMax: 63,
} as const;

/** The session tag keys `tenantSessionTags: true` adds; users may not set them themselves. */
export const tenantSessionTagKeys = ["kubernetes-namespace", "kubernetes-kind", "kubernetes-name"] as const;

// ---- predicates (plain TypeScript, for annotations and the resolver) ----

export const isIamRoleArn = (s: string): boolean =>
  s.length <= limits.arnMax && matchesPattern("iamRoleArn", s);
export const isAccountId = (s: string): boolean => matchesPattern("accountId", s);
export const isRegion = (s: string): boolean => matchesPattern("region", s);
export const isSessionName = (s: string): boolean => matchesPattern("sessionName", s);

export interface IamRoleArnParts {
  readonly partition: string;
  readonly account: string;
  /** `/` or `/a/b/`. */
  readonly path: string;
  readonly name: string;
}

/** Splits an IAM role ARN; null when it is not one. */
export function parseIamRoleArn(arn: string): IamRoleArnParts | null {
  if (!isIamRoleArn(arn)) return null;
  const [, partition = "", , , account = "", resource = ""] = arn.split(":");
  const rest = resource.slice("role".length);
  const lastSlash = rest.lastIndexOf("/");
  return { partition, account, path: rest.slice(0, lastSlash + 1), name: rest.slice(lastSlash + 1) };
}

/** The account an IAM role ARN belongs to; null when `arn` is not a role ARN. */
export function accountOfRoleArn(arn: string): string | null {
  return parseIamRoleArn(arn)?.account ?? null;
}

// ---- zod fields carrying their CEL rules ----
// Each takes the field's name so that both the zod and the apiserver message name it.

/** A string field whose type error names the field (zod's default does not). */
export function stringField(field: string): z.ZodString {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`),
  });
}

/** A string matching one of `patterns`, with a length cap (CEL needs it to bound a rule's cost). */
export function patternField(
  field: string,
  name: PatternName,
  maxLength: number,
  message: string,
): z.ZodString {
  const rule: Rule<string> = {
    cel: `self.matches(r'${patterns[name]}')`,
    message,
    check: (s) => matchesPattern(name, s),
  };
  return withRules(stringField(field).max(maxLength, message), rule);
}

export function iamRoleArnField(field: string): z.ZodString {
  return patternField(
    field,
    "iamRoleArn",
    limits.arnMax,
    `${field} must be an IAM role ARN, arn:<partition>:iam::<12-digit account ID>:role/<optional path/><name>, e.g. arn:aws:iam::111111111111:role/MyRole`,
  );
}

export function iamPolicyArnField(field: string): z.ZodString {
  return patternField(
    field,
    "iamPolicyArn",
    limits.arnMax,
    `${field} entries must be IAM managed policy ARNs, arn:<partition>:iam::<12-digit account ID or aws>:policy/<optional path/><name>, e.g. arn:aws:iam::aws:policy/ReadOnlyAccess`,
  );
}

export function accountIdField(field: string): z.ZodString {
  return patternField(
    field,
    "accountId",
    12,
    `${field} must be a 12-digit AWS account ID, e.g. 111111111111`,
  );
}

export function sessionNameField(field: string): z.ZodString {
  return patternField(
    field,
    "sessionName",
    64,
    `${field} must be 2-64 characters of letters, digits and _+=,.@- (STS RoleSessionName)`,
  );
}

export function externalIdField(field: string): z.ZodString {
  return patternField(
    field,
    "externalId",
    1224,
    `${field} must be 2-1224 characters of letters, digits and _+=,.@:/- (STS ExternalId)`,
  );
}

export function sourceIdentityField(field: string): z.ZodString {
  return patternField(
    field,
    "sourceIdentity",
    64,
    `${field} must be 2-64 characters of letters, digits and _+=,.@- (STS SourceIdentity)`,
  );
}

/** A Kubernetes object name (RFC 1123 subdomain, at most 253 characters). */
export function objectNameField(field: string): z.ZodString {
  return patternField(
    field,
    "dnsSubdomain",
    limits.dnsSubdomainMax,
    `${field} must be a Kubernetes object name: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters`,
  );
}

/** A namespace name (RFC 1123 label, at most 63 characters). */
export function namespaceNameField(field: string): z.ZodString {
  return patternField(
    field,
    "dnsLabel",
    limits.dnsLabelMax,
    `${field} must be namespace names: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters`,
  );
}

function integerField(field: string): z.ZodNumber {
  return z
    .number({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a number`),
    })
    .int(`${field} must be a whole number of seconds`);
}

/** An integer in [min, max], checked by CEL so the message can say what the range is for. */
export function rangeField(field: string, min: number, max: number, why: string): z.ZodNumber {
  return withRules(integerField(field), {
    cel: `self >= ${min} && self <= ${max}`,
    message: `${field} must be between ${min} and ${max} ${why}`,
    check: (n) => n >= min && n <= max,
  });
}

export function durationSecondsField(field: string): z.ZodNumber {
  return rangeField(
    field,
    limits.durationSecondsMin,
    limits.durationSecondsMax,
    "seconds (15 minutes to 12 hours; STS DurationSeconds)",
  );
}

export function expirationSecondsField(field: string): z.ZodNumber {
  return rangeField(
    field,
    limits.expirationSecondsMin,
    limits.expirationSecondsMax,
    "seconds (a ServiceAccount token must live at least 10 minutes)",
  );
}

export function inlinePolicyField(field: string): z.ZodString {
  return stringField(field)
    .min(1, `${field} must not be empty; remove the field instead`)
    .max(limits.inlinePolicyMax, `${field} must be at most 2048 characters (STS Policy)`);
}

export function policyArnsField(field: string): z.ZodArray<z.ZodString> {
  return listSet(
    z
      .array(iamPolicyArnField(field))
      .max(limits.policyArnsMax, `${field} may hold at most 10 policy ARNs (STS PolicyArns); remove some`),
    `${field} must not repeat a policy ARN`,
  );
}

function tagKeyField(field: string): z.ZodString {
  const key = patternField(
    field,
    "tagKey",
    limits.tagKeyMax,
    `${field} must be 1-128 characters of letters, digits, spaces and _.:/=+-@ (STS tag key)`,
  );
  return withRules(key, {
    cel: "!self.lowerAscii().startsWith('aws:')",
    message: `${field} must not start with 'aws:' (reserved by AWS)`,
    check: (s) => !s.toLowerCase().startsWith("aws:"),
  });
}

export const sessionTagSchema = z.object({
  key: tagKeyField("sessionTags key").describe("The session tag's key."),
  value: patternField(
    "sessionTags value",
    "tagValue",
    limits.tagValueMax,
    "sessionTags value must be 0-256 characters of letters, digits, spaces and _.:/=+-@ (STS tag value)",
  ).describe("The session tag's value."),
});
export type SessionTag = z.infer<typeof sessionTagSchema>;

export function sessionTagsField(field: string): z.ZodArray<typeof sessionTagSchema> {
  return listMap(
    z
      .array(sessionTagSchema)
      .max(limits.sessionTagsMax, `${field} may hold at most 50 tags (STS limit); remove some`),
    "key",
    `${field} must not repeat a key`,
  );
}

export function tagKeysField(field: string): z.ZodArray<z.ZodString> {
  return listSet(
    z.array(tagKeyField(field)).max(limits.sessionTagsMax, `${field} may hold at most 50 keys; remove some`),
    `${field} must not repeat a key`,
  );
}
