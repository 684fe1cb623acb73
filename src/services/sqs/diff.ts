// Which attributes of a queue differ between the spec and what SQS has (drift), and late
// initialisation of the ones SQS gives a default. Pure.
//
// What an absent field means:
// - delaySeconds, maximumMessageSize, messageRetentionPeriod, receiveMessageWaitTimeSeconds,
//   visibilityTimeout, kmsDataKeyReusePeriodSeconds, sqsManagedSSEEnabled, and on a FIFO queue
//   deduplicationScope and fifoThroughputLimit: "whatever SQS has".
//   SQS gives every queue a value, so `lateInitialize` copies it into the spec (as ACK does)
//   and from then on it is managed. Until it is copied, an absent field never differs.
// - redriveAllowPolicy: SQS's default, which lets every queue use this one as its dead-letter
//   queue ({"redrivePermission": "allowAll"}).
// - policy, redrivePolicy, kmsMasterKeyID: none; contentBasedDeduplication: "false" (on a FIFO
//   queue; a standard queue has no such attribute); tags: none. Out-of-band additions are
//   corrected, as ACK does.
// - queueName, fifoQueue: fixed at creation (immutable at admission), never compared.
import { canonicalDocument, canonicalTagMap, sameJson } from "../canonical-forms.ts";
import { differingFields, type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { queueDeclared } from "./generated/queue-fields.ts";
import { defaultRedriveAllowPolicy, stringBoolean } from "./mapping.ts";
import type { QueueAttribute, QueueFields } from "./schema.ts";
import { queueAttributes } from "./schema.ts";

/** Fields whose absence in the spec means "take SQS's value" (see the file comment). */
export const lateInitializedFields = queueDeclared.lateInitialized satisfies readonly QueueAttribute[];

const lateInitialized: ReadonlySet<string> = new Set(lateInitializedFields);

export type QueueField = QueueAttribute | "tags";

export type FieldDifference = FieldDifferenceOf<QueueField>;

/** The fields to change so that SQS matches `desired`, in the order they are applied. */
export function diff(desired: QueueFields, observed: QueueFields): FieldDifference[] {
  return differingFields([...queueAttributes, "tags"] as const, desired, observed, equalField);
}

function equalField(field: QueueField, desired: QueueFields, observed: QueueFields): boolean {
  if (field === "tags") {
    // Tags are a map; ownership tags are the controller's, never drift (DESIGN §3.5).
    return sameJson(canonicalTagMap(desired.tags ?? {}), canonicalTagMap(observed.tags ?? {}));
  }
  if (lateInitialized.has(field)) {
    const want = desired[field];
    if (want === undefined) return true;
    switch (field) {
      case "sqsManagedSSEEnabled":
        return canonicalBoolean(want) === canonicalBoolean(observed[field]);
      case "deduplicationScope":
      case "fifoThroughputLimit":
        return want === observed[field];
      default:
        return canonicalNumber(want) === canonicalNumber(observed[field]);
    }
  }
  switch (field) {
    case "kmsMasterKeyID":
      return (desired.kmsMasterKeyID ?? "") === (observed.kmsMasterKeyID ?? "");
    case "contentBasedDeduplication":
      // Only FIFO queues have it; the schema refuses it on a standard queue.
      if (stringBoolean(observed.fifoQueue) !== "true") return true;
      return (
        canonicalBoolean(desired.contentBasedDeduplication) ===
        canonicalBoolean(observed.contentBasedDeduplication)
      );
    case "redriveAllowPolicy":
      return sameJson(
        canonicalDocument(desired.redriveAllowPolicy ?? defaultRedriveAllowPolicy),
        canonicalDocument(observed.redriveAllowPolicy ?? defaultRedriveAllowPolicy),
      );
    case "policy":
    case "redrivePolicy":
      // Policies compare as JSON documents: whitespace and key order do not matter, nor does a
      // number written as a string (SQS answers a redrive policy's maxReceiveCount as a number
      // whichever way it was sent).
      return sameJson(
        canonicalDocument(desired[field], numberFromString),
        canonicalDocument(observed[field], numberFromString),
      );
    default:
      return true;
  }
}

/**
 * Fills the late-initialised fields the spec leaves out with what SQS has. Returns the spec (a
 * new object when something was filled) and the fields filled.
 */
export function lateInitialize<Spec extends QueueFields>(
  spec: Spec,
  observed: QueueFields,
): { spec: Spec; initialized: QueueAttribute[] } {
  // An empty attribute is no value: there is nothing to copy.
  return lateInitializeFields(spec, lateInitializedFields, (field) => observed[field] || undefined);
}

// ---- canonical forms: equal exactly when SQS would behave the same ----

function canonicalBoolean(value: string | undefined): boolean {
  return stringBoolean(value) === "true";
}

/** "030" and "30" are the same number of seconds. */
function canonicalNumber(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? String(n) : value;
}

/** A whole number written as a string ("5") is the number SQS answers with. */
function numberFromString(value: unknown): unknown {
  return typeof value === "string" && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
}
