// Which attributes of a queue differ between the spec and what SQS has (drift), and late
// initialisation of the ones SQS gives a default. Pure. The comparison is the declaration's
// (queue-declaration.ts: what an absent field means, in which form each compares); SQS has no
// quirk that needs a hook of its own.
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
// Policies compare as JSON documents (whitespace, key order and a number written as text do
// not matter: SQS answers a redrive policy's maxReceiveCount as a number whichever way it was
// sent); numbers as numbers ("030" is 30).
import { type ComparedField, declaredDrift } from "../declared-drift.ts";
import { type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { queueDeclared, queueFieldGroups } from "./generated/queue-fields.ts";
import type { QueueAttribute, QueueFields } from "./schema.ts";

/** Fields whose absence in the spec means "take SQS's value" (see the file comment). */
export const lateInitializedFields = queueDeclared.lateInitialized satisfies readonly QueueAttribute[];

export type QueueField = ComparedField<typeof queueFieldGroups>;

export type FieldDifference = FieldDifferenceOf<QueueField>;

/** The fields to change so that SQS matches `desired`, in the order they are applied. */
export const diff: (desired: QueueFields, observed: QueueFields) => FieldDifference[] = declaredDrift<
  QueueFields,
  typeof queueFieldGroups
>(queueFieldGroups, {});

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
