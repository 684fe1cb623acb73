// Queue spec ⇄ SQS API shapes, as pure functions: the ARN, CreateQueue's input, the attribute
// each spec field is stored under, and GetQueueAttributes / ListQueueTags answers in spec form.
// SQS's attribute map is string-valued, like ACK's spec fields.
import type { CreateQueueCommandInput } from "@aws-sdk/client-sqs";
import { withoutReservedTags } from "../../api/reserved-tag-keys.ts";
import { parseNamedArn, regionalArn } from "../arn.ts";
import { attributeWhenAbsent, ruleOf } from "../declared-drift.ts";
import { stringBoolean } from "../string-boolean.ts";
import { queueAwsNames, queueFieldGroups } from "./generated/queue-fields.ts";
import { type QueueAttribute, type QueueFields, queueAttributes } from "./schema.ts";

export { stringBoolean };

/** `arn:<partition>:sqs:<region>:<account>:<name>`: a queue's ARN is known before it exists. */
export function arnOf(name: string, region: string, account: string): string {
  return regionalArn("sqs", region, account, name);
}

/** The region, account and name an SQS queue ARN names; undefined when it is not one. */
export function parseQueueArn(arn: string) {
  return parseNamedArn(arn, "sqs");
}

/**
 * The region a queue URL names (`https://sqs.<region>.amazonaws.com/<account>/<name>`, or the
 * legacy `https://<region>.queue.amazonaws.com/...`); undefined for other endpoints (emulators).
 */
export function regionOfQueueUrl(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const m =
    /^sqs\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(host) ??
    /^([a-z0-9-]+)\.queue\.amazonaws\.com$/.exec(host);
  return m?.[1];
}

/** The SQS attribute name each spec field is stored under (generated from the SQS model). */
export const attributeNames: Readonly<Record<QueueAttribute | "fifoQueue", string>> = Object.fromEntries(
  [...queueAttributes, "fifoQueue" as const].map((field) => [field, queueAwsNames[field]]),
) as Record<QueueAttribute | "fifoQueue", string>;

/** The spec field an SQS attribute name belongs to (for errors that name the attribute). */
export function fieldOfAttribute(attribute: string): QueueAttribute | "fifoQueue" | undefined {
  for (const [field, name] of Object.entries(attributeNames)) {
    if (name.toLowerCase() === attribute.toLowerCase()) return field as QueueAttribute | "fifoQueue";
  }
  return undefined;
}

/** The tag map SQS should hold: the user's tags and the ownership tags (which win on a clash). */
export function queueTags(
  tags: Readonly<Record<string, string>> | undefined,
  ownerTags: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...withoutReservedTags(tags ?? {}), ...ownerTags };
}

/** The user's part of a queue's tags (undefined = no tags). */
export function userTags(
  tags: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  const user = withoutReservedTags(tags ?? {});
  return Object.keys(user).length === 0 ? undefined : user;
}

/**
 * CreateQueue with every attribute the spec sets and every tag (the user's and ownership), so
 * the queue never exists untagged or half-configured.
 */
export function createQueueInput(
  spec: QueueFields,
  ownerTags: Readonly<Record<string, string>>,
): CreateQueueCommandInput {
  const attributes: Record<string, string> = {};
  if (spec.fifoQueue === "true") attributes[attributeNames.fifoQueue] = "true";
  for (const [field, name] of Object.entries(attributeNames)) {
    if (field === "fifoQueue") continue;
    const value = spec[field as QueueAttribute];
    if (value !== undefined && value !== "") attributes[name] = value;
  }
  const tags = queueTags(spec.tags, ownerTags);
  return {
    QueueName: spec.queueName,
    ...(Object.keys(attributes).length > 0 ? { Attributes: attributes } : {}),
    ...(Object.keys(tags).length > 0 ? { tags } : {}),
  };
}

/** What SQS does without a RedriveAllowPolicy: any queue may use this one as its dead-letter queue. */
export const defaultRedriveAllowPolicy = String(ruleOf(queueFieldGroups, "redriveAllowPolicy").default);

/**
 * The value SetQueueAttributes writes for `field` so that SQS matches `spec`, by the field's
 * declared absence (queue-declaration.ts): an absent policy / redrivePolicy / kmsMasterKeyID is
 * "" (none), an absent redriveAllowPolicy SQS's default (allowAll), an absent
 * contentBasedDeduplication "false". The late-initialised attributes (numbers,
 * sqsManagedSSEEnabled) mean "keep SQS's" when absent, so there is nothing to write (undefined).
 */
export function attributeValue(spec: QueueFields, field: QueueAttribute): string | undefined {
  return spec[field] ?? attributeWhenAbsent(ruleOf(queueFieldGroups, field));
}

/**
 * What GetQueueAttributes and ListQueueTags say, in spec form ("" / absent = none). A queue
 * encrypted with a KMS key reports no sqsManagedSSEEnabled: SQS keeps one kind of server-side
 * encryption, so SSE-SQS does not apply beside a key, whatever SqsManagedSseEnabled says (AWS
 * answers "false" there, the emulator "true"). Copied into a spec beside kmsMasterKeyID, a
 * "true" would be refused by the Queue schema, and the spec already chose SSE-KMS.
 */
export function queueFieldsFromAws(
  name: string,
  attributes: Readonly<Record<string, string | undefined>>,
  tags: Readonly<Record<string, string | undefined>>,
): QueueFields {
  const out: Record<string, unknown> = { queueName: name };
  for (const [field, attribute] of Object.entries(attributeNames)) {
    const value = attributes[attribute];
    if (value === undefined || value === "") continue;
    const isBoolean =
      field === "fifoQueue" || field === "contentBasedDeduplication" || field === "sqsManagedSSEEnabled";
    out[field] = isBoolean ? stringBoolean(value) : value;
  }
  if (out["kmsMasterKeyID"] !== undefined) delete out["sqsManagedSSEEnabled"];
  const tagMap = Object.fromEntries(Object.entries(tags).map(([k, v]): [string, string] => [k, v ?? ""]));
  if (Object.keys(tagMap).length > 0) out["tags"] = tagMap;
  return out as QueueFields;
}
