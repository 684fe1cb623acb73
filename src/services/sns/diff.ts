// Which attributes of a topic differ between the spec and what SNS has (drift), and late
// initialisation of the ones SNS gives a default. Pure. The comparison is the declaration's
// (topic-declaration.ts: what an absent field means, in which form each compares).
//
// What an absent field means:
// - displayName, kmsMasterKeyID, the delivery status roles: none (""); contentBasedDeduplication:
//   "false"; tags: none. Out-of-band additions are corrected, as ACK does.
// - policy, deliveryPolicy, the sample rates, signatureVersion, tracingConfig,
//   fifoThroughputScope: "whatever SNS has". SNS gives every new topic an access policy (and
//   reports defaults for the others), so `lateInitialize` copies SNS's value into the spec and
//   from then on it is managed. Until it is copied, an absent field never differs.
// - dataProtectionPolicy: managed only while the spec sets it (SNS has no call that removes
//   one; it is read only then, topic.ts). Absent, it never differs.
// - name, fifoTopic: fixed at creation (immutable at admission), never compared.
import { type ComparedField, declaredDrift } from "../declared-drift.ts";
import { type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { topicDeclared, topicFieldGroups } from "./generated/topic-fields.ts";
import type { TopicAttribute, TopicFields } from "./schema.ts";

/** Fields whose absence in the spec means "take SNS's value" (see the file comment). */
export const lateInitializedFields = topicDeclared.lateInitialized satisfies readonly TopicAttribute[];

export type TopicField = ComparedField<typeof topicFieldGroups>;

export type FieldDifference = FieldDifferenceOf<TopicField>;

/** The fields to change so that SNS matches `desired`, in the order they are applied. */
export const diff: (desired: TopicFields, observed: TopicFields) => FieldDifference[] = declaredDrift<
  TopicFields,
  typeof topicFieldGroups
>(topicFieldGroups, {});

/**
 * Fills the late-initialised fields the spec leaves out with what SNS has. Returns the spec (a
 * new object when something was filled) and the fields filled.
 */
export function lateInitialize<Spec extends TopicFields>(
  spec: Spec,
  observed: TopicFields,
): { spec: Spec; initialized: TopicAttribute[] } {
  // An empty attribute is no value: there is nothing to copy.
  return lateInitializeFields(spec, lateInitializedFields, (field) => observed[field] || undefined);
}
