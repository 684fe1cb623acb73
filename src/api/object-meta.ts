// The parts of a Kubernetes object every crossrole schema shares: type meta, object metadata
// and status conditions.
import { z } from "zod";
import { listMap } from "./rules.ts";
import { stringField } from "./validation.ts";

/**
 * The metadata fields crossrole reads. Loose: the apiserver owns metadata, so other fields
 * (managedFields, ownerReferences, ...) pass through untouched. In a CRD, metadata is always
 * plain `type: object` (the apiserver validates it itself), see structural.ts.
 */
export const objectMetaSchema = z.looseObject({
  name: stringField("metadata.name"),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().optional(),
  uid: z.string().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  finalizers: z.array(z.string()).optional(),
});
export type ObjectMeta = z.infer<typeof objectMetaSchema>;

/** `apiVersion` and `kind` fixed to one kind, with messages that say what to write. */
export function typeMetaShape<A extends string, K extends string>(apiVersion: A, kind: K) {
  return {
    apiVersion: z.literal(apiVersion, { error: `apiVersion must be ${apiVersion}` }),
    kind: z.literal(kind, { error: `kind must be ${kind}` }),
  };
}

/** metav1.Condition, the shape of `status.conditions[]`. */
export const conditionSchema = z.object({
  type: z.string().min(1).max(316).describe("The condition's type, e.g. ACK.ResourceSynced or Ready."),
  status: z.enum(["True", "False", "Unknown"]).describe("True, False or Unknown."),
  reason: z.string().max(1024).optional().describe("A CamelCase reason for the condition's last transition."),
  message: z.string().max(32768).optional().describe("What happened, and what to do about it."),
  lastTransitionTime: z.string().optional().describe("When the status last changed (RFC 3339)."),
  observedGeneration: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("The metadata.generation the condition was set for."),
});
export type Condition = z.infer<typeof conditionSchema>;

export const conditionsField = listMap(z.array(conditionSchema), "type", "conditions must not repeat a type");

/** The error for a missing or non-object object field, naming it. */
export function objectError(field: string) {
  return (issue: { input?: unknown }): string =>
    issue.input === undefined ? `${field} is required` : `${field} must be an object`;
}
