// Which attributes of a topic differ between the spec and what SNS has (drift), and late
// initialisation of the ones SNS gives a default. Pure.
//
// What an absent field means:
// - displayName, kmsMasterKeyID: none (""); contentBasedDeduplication: "false"; tags: none.
//   Out-of-band additions are corrected, as ACK does.
// - policy, deliveryPolicy: "whatever SNS has". SNS gives every new topic an access policy
//   (and may report a delivery policy), so `lateInitialize` copies SNS's value into the spec
//   and from then on it is managed. Until it is copied, an absent field never differs.
// - name, fifoTopic: fixed at creation (immutable at admission), never compared.
import { isReservedTagKey } from "../../api/ownership-tags.ts";
import { stringBoolean } from "./mapping.ts";
import type { Tag, TopicAttribute, TopicFields } from "./schema.ts";
import { topicAttributes } from "./schema.ts";

/** Fields whose absence in the spec means "take SNS's value" (see the file comment). */
export const lateInitializedFields = [
  "policy",
  "deliveryPolicy",
] as const satisfies readonly TopicAttribute[];

export type TopicField = TopicAttribute | "tags";

export interface FieldDifference {
  readonly field: TopicField;
  /** `spec.<field>`, for conditions, Events and logs. */
  readonly path: string;
  readonly desired: unknown;
  readonly observed: unknown;
}

/** The fields to change so that SNS matches `desired`, in the order they are applied. */
export function diff(desired: TopicFields, observed: TopicFields): FieldDifference[] {
  const out: FieldDifference[] = [];
  for (const field of [...topicAttributes, "tags"] as const) {
    if (!equalField(field, desired, observed)) {
      out.push({ field, path: `spec.${field}`, desired: desired[field], observed: observed[field] });
    }
  }
  return out;
}

function equalField(field: TopicField, desired: TopicFields, observed: TopicFields): boolean {
  switch (field) {
    case "displayName":
      return (desired.displayName ?? "") === (observed.displayName ?? "");
    case "kmsMasterKeyID":
      return (desired.kmsMasterKeyID ?? "") === (observed.kmsMasterKeyID ?? "");
    case "contentBasedDeduplication":
      return (
        canonicalBoolean(desired.contentBasedDeduplication) ===
        canonicalBoolean(observed.contentBasedDeduplication)
      );
    case "policy":
    case "deliveryPolicy": {
      const want = desired[field];
      if (want === undefined) return true;
      return sameJson(canonicalDocument(want), canonicalDocument(observed[field]));
    }
    case "tags":
      return sameJson(canonicalTags(desired.tags), canonicalTags(observed.tags));
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
  const initialized: TopicAttribute[] = [];
  const filled: Spec = { ...spec };
  for (const field of lateInitializedFields) {
    const value = observed[field];
    if (spec[field] === undefined && value !== undefined && value !== "") {
      filled[field] = value as Spec[typeof field];
      initialized.push(field);
    }
  }
  return { spec: initialized.length === 0 ? spec : filled, initialized };
}

// ---- canonical forms: equal exactly when SNS would behave the same ----

function canonicalBoolean(value: string | undefined): boolean {
  return stringBoolean(value) === "true";
}

/** Tags are a map; ownership tags are the controller's, never drift (DESIGN §3.5). */
function canonicalTags(tags: readonly Tag[] | undefined): [string, string][] {
  return (tags ?? [])
    .filter((t) => !isReservedTagKey(t.key))
    .map((t): [string, string] => [t.key, t.value])
    .sort(([a], [b]) => compare(a, b));
}

/** Policies compare as JSON documents: whitespace and key order do not matter. */
function canonicalDocument(document: string | undefined): unknown {
  if (document === undefined || document === "") return null;
  try {
    return sortKeys(JSON.parse(document));
  } catch {
    return document;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => compare(a, b))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
