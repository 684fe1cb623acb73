// Kubernetes LabelSelector (apimachinery metav1.LabelSelector) and CAPA's allowedNamespaces.
// Only the shape lives here; how a selector matches is src/selector's job.
import { z } from "zod";
import { listSet, withRules } from "./rules.ts";
import { namespaceNameField, stringField } from "./validation.ts";

export const labelSelectorOperators = ["In", "NotIn", "Exists", "DoesNotExist"] as const;
export type LabelSelectorOperator = (typeof labelSelectorOperators)[number];

/** A qualified label key is at most 253 (prefix) + 1 + 63 (name) characters. */
const labelKeyMax = 317;
const labelValueMax = 63;

export const labelSelectorRequirementSchema = withRules(
  z.object({
    key: stringField("matchExpressions key")
      .min(1, "matchExpressions key must not be empty")
      .max(labelKeyMax)
      .describe("The label key the requirement applies to."),
    operator: z
      .enum(labelSelectorOperators, {
        error: "matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist",
      })
      .describe("How the key relates to the values: In, NotIn, Exists or DoesNotExist."),
    values: z
      .array(stringField("matchExpressions values").max(labelValueMax))
      .optional()
      .describe("The values, for In and NotIn (at least one); empty for Exists and DoesNotExist."),
  }),
  {
    cel: "!(self.operator in ['In', 'NotIn']) || (has(self.values) && size(self.values) > 0)",
    message: "matchExpressions values must list at least one value when operator is In or NotIn",
    fieldPath: ".values",
    check: (r) => !(r.operator === "In" || r.operator === "NotIn") || (r.values?.length ?? 0) > 0,
  },
  {
    cel: "!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || size(self.values) == 0",
    message: "matchExpressions values must be empty when operator is Exists or DoesNotExist; remove them",
    fieldPath: ".values",
    check: (r) =>
      !(r.operator === "Exists" || r.operator === "DoesNotExist") || (r.values?.length ?? 0) === 0,
  },
);
export type LabelSelectorRequirement = z.infer<typeof labelSelectorRequirementSchema>;

/** matchLabels AND matchExpressions. `{}` is a valid, empty selector. */
export const labelSelectorSchema = z.object({
  matchLabels: z
    .record(z.string(), z.string().max(labelValueMax))
    .optional()
    .describe("Labels that must all be present with these values."),
  matchExpressions: z
    .array(labelSelectorRequirementSchema)
    .optional()
    .describe("Requirements that must all hold (ANDed with matchLabels)."),
});
export type LabelSelector = z.infer<typeof labelSelectorSchema>;

/**
 * CAPA's allowedNamespaces. The distinctions are meaningful and kept as written:
 * the whole field absent or null → no namespace; `{}` → every namespace; otherwise the
 * union of `list` and `selector`, where an empty list or an empty selector matches nothing.
 * Both parts are nullable because YAML writes `list:` with no value as null.
 */
export const allowedNamespacesSchema = z
  .object({
    list: listSet(
      // Bounded so the apiserver can bound the per-entry CEL rule's cost; use `selector` for more.
      z
        .array(namespaceNameField("allowedNamespaces.list"))
        .max(1000, "allowedNamespaces.list may hold at most 1000 namespaces; use selector for more"),
      "allowedNamespaces.list must not repeat a namespace",
    )
      .nullable()
      .optional()
      .describe("Namespaces allowed by name."),
    selector: labelSelectorSchema
      .nullable()
      .optional()
      .describe("Namespaces allowed by their labels; an empty selector matches none."),
  })
  .describe(
    "Namespaces that may use this identity. Absent or null: none. {}: all. Otherwise the union of list and selector; an empty list or empty selector matches nothing.",
  );
export type AllowedNamespaces = z.infer<typeof allowedNamespacesSchema>;
