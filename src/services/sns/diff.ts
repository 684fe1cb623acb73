// Which attributes of a topic differ between the spec and what SNS has (drift), and late
// initialisation of the ones SNS gives a default. Pure.
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
import { canonicalDocument, canonicalTagMap, sameJson } from "../canonical-forms.ts";
import { differingFields, type FieldDifferenceOf, lateInitializeFields } from "../field-drift.ts";
import { topicDeclared } from "./generated/topic-fields.ts";
import { stringBoolean, tagMapOf } from "./mapping.ts";
import {
  type FeedbackRoleField,
  type FeedbackSampleRateField,
  feedbackRoleFields,
  feedbackSampleRateFields,
  type Tag,
  type TopicAttribute,
  type TopicFields,
  topicAttributes,
} from "./schema.ts";

/** Fields whose absence in the spec means "take SNS's value" (see the file comment). */
export const lateInitializedFields = topicDeclared.lateInitialized satisfies readonly TopicAttribute[];

export type TopicField = TopicAttribute | "dataProtectionPolicy" | "tags";

export type FieldDifference = FieldDifferenceOf<TopicField>;

/** The fields to change so that SNS matches `desired`, in the order they are applied. */
export function diff(desired: TopicFields, observed: TopicFields): FieldDifference[] {
  return differingFields(
    [...topicAttributes, "dataProtectionPolicy", "tags"] as const,
    desired,
    observed,
    equalField,
  );
}

const sampleRates: ReadonlySet<string> = new Set(feedbackSampleRateFields);
const roles: ReadonlySet<string> = new Set(feedbackRoleFields);

function equalField(field: TopicField, desired: TopicFields, observed: TopicFields): boolean {
  if (roles.has(field)) {
    const f = field as FeedbackRoleField;
    return (desired[f] ?? "") === (observed[f] ?? "");
  }
  if (sampleRates.has(field)) {
    const want = desired[field as FeedbackSampleRateField];
    return want === undefined || Number(want) === Number(observed[field as FeedbackSampleRateField]);
  }
  switch (field) {
    case "displayName":
      return (desired.displayName ?? "") === (observed.displayName ?? "");
    case "kmsMasterKeyID":
      return (desired.kmsMasterKeyID ?? "") === (observed.kmsMasterKeyID ?? "");
    case "signatureVersion":
    case "tracingConfig":
    case "fifoThroughputScope":
      return desired[field] === undefined || desired[field] === observed[field];
    case "dataProtectionPolicy":
      return (
        desired.dataProtectionPolicy === undefined ||
        sameJson(
          canonicalDocument(desired.dataProtectionPolicy),
          canonicalDocument(observed.dataProtectionPolicy),
        )
      );
    case "contentBasedDeduplication":
      return (
        canonicalBoolean(desired.contentBasedDeduplication) ===
        canonicalBoolean(observed.contentBasedDeduplication)
      );
    case "policy":
    case "deliveryPolicy": {
      const want = desired[field];
      if (want === undefined) return true;
      // Policies compare as JSON documents: whitespace and key order do not matter.
      return sameJson(canonicalDocument(want), canonicalDocument(observed[field]));
    }
    case "tags":
      return sameJson(canonicalTags(desired.tags), canonicalTags(observed.tags));
    default:
      return true;
  }
}

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

// ---- canonical forms: equal exactly when SNS would behave the same ----

function canonicalBoolean(value: string | undefined): boolean {
  return stringBoolean(value) === "true";
}

/** Tags are a map; ownership tags are the controller's, never drift (DESIGN §3.5). */
function canonicalTags(tags: readonly Tag[] | undefined): [string, string][] {
  return canonicalTagMap(tagMapOf(tags));
}
