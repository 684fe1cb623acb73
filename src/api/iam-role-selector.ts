// IAMRoleSelector (services.k8s.aws/v1alpha1, cluster-scoped), DESIGN §2.4. Field names follow
// ACK's CRD (arn, namespaceSelector.names, namespaceSelector.labelSelector,
// resourceTypeSelector); resourceLabelSelector and the session fields are crossrole's.
import { z } from "zod";
import { labelSelectorSchema } from "./label-selector.ts";
import { conditionsField, objectError, objectMetaSchema, typeMetaShape } from "./object-meta.ts";
import { immutable, listSet, withRules } from "./rules.ts";
import { sessionParametersShape, sessionRules } from "./session.ts";
import { iamRoleArnField, matchesPattern, namespaceNameField, patterns, stringField } from "./validation.ts";

export const iamRoleSelectorGroup = "services.k8s.aws";
export const iamRoleSelectorVersion = "v1alpha1";
export const iamRoleSelectorApiVersion = `${iamRoleSelectorGroup}/${iamRoleSelectorVersion}`;

export const namespaceSelectorSchema = z.object({
  /** Namespace names, ORed. */
  names: listSet(
    z
      .array(namespaceNameField("namespaceSelector.names"))
      .max(1000, "namespaceSelector.names may hold at most 1000 namespaces; use labelSelector for more"),
    "namespaceSelector.names must not repeat a namespace; remove the duplicate",
  )
    .optional()
    .describe("Namespaces by name (any of them); absent: any name."),
  /** ANDed with `names`. */
  labelSelector: labelSelectorSchema
    .optional()
    .describe("Namespaces by their labels, ANDed with names; absent: any labels."),
});
export type NamespaceSelector = z.infer<typeof namespaceSelectorSchema>;

const entryField = "resourceTypeSelector";
/** Optional string matching a pattern; the CEL rule sits on the object so `has()` works. */
function gvkPart(part: string, pattern: keyof typeof patterns, message: string) {
  return withRules(stringField(`${entryField} ${part}`).max(253, message), {
    cel: `self.matches(r'${patterns[pattern]}')`,
    message,
    check: (s) => matchesPattern(pattern, s),
  }).optional();
}

/**
 * One resource type. Two forms, exactly one per entry:
 *  - design form `{apiVersion, kind?}`: apiVersion as in a manifest; kind absent = any kind;
 *  - ACK code form `{group, version, kind}` (schema.GroupVersionKind): all three present,
 *    "" in any of them = any.
 * Kept flat (one object with optional fields) because a structural schema cannot express a
 * union; `groupVersionKindOf` turns either form into one matcher.
 */
export const resourceTypeSelectorEntrySchema = withRules(
  z.object({
    apiVersion: gvkPart(
      "apiVersion",
      "apiVersion",
      `${entryField} apiVersion must look like <group>/<version>, e.g. s3.services.k8s.aws/v1alpha1`,
    ).describe(
      "The kinds' apiVersion as a manifest writes it (s3.services.k8s.aws/v1alpha1), with an optional kind.",
    ),
    group: gvkPart(
      "group",
      "apiGroupOrEmpty",
      `${entryField} group must be an API group like s3.services.k8s.aws, or "" for any`,
    ).describe('ACK\'s form, with version and kind: the API group, "" for any.'),
    version: gvkPart(
      "version",
      "apiVersionNameOrEmpty",
      `${entryField} version must be a version like v1alpha1, or "" for any`,
    ).describe('ACK\'s form, with group and kind: the API version, "" for any.'),
    kind: gvkPart(
      "kind",
      "kindOrEmpty",
      `${entryField} kind must be a Kind like Bucket, or "" for any`,
    ).describe('The kind (Bucket); "" or absent with apiVersion: any kind of that apiVersion.'),
  }),
  {
    cel: "!has(self.apiVersion) || (!has(self.group) && !has(self.version))",
    message:
      "resourceTypeSelector entries must use exactly one form: {apiVersion, kind} or {group, version, kind}; remove apiVersion or group/version",
    check: (e) => e.apiVersion === undefined || (e.group === undefined && e.version === undefined),
  },
  {
    cel: "has(self.apiVersion) || (has(self.group) && has(self.version) && has(self.kind))",
    message:
      'resourceTypeSelector entries need apiVersion (with optional kind), or all of group, version and kind ("" = any)',
    check: (e) =>
      e.apiVersion !== undefined ||
      (e.group !== undefined && e.version !== undefined && e.kind !== undefined),
  },
);
export type ResourceTypeSelectorEntry = z.infer<typeof resourceTypeSelectorEntrySchema>;

/** What an entry matches; null = any. */
export interface GroupVersionKindMatcher {
  readonly group: string | null;
  readonly version: string | null;
  readonly kind: string | null;
}

/** Normalises either entry form. In the design form, apiVersion `v1` means the core group "". */
export function groupVersionKindOf(entry: ResourceTypeSelectorEntry): GroupVersionKindMatcher {
  const anyIfEmpty = (s: string | undefined): string | null => (s === undefined || s === "" ? null : s);
  if (entry.apiVersion !== undefined) {
    const slash = entry.apiVersion.lastIndexOf("/");
    return {
      group: slash < 0 ? "" : entry.apiVersion.slice(0, slash),
      version: entry.apiVersion.slice(slash + 1),
      kind: anyIfEmpty(entry.kind),
    };
  }
  return { group: anyIfEmpty(entry.group), version: anyIfEmpty(entry.version), kind: anyIfEmpty(entry.kind) };
}

export const iamRoleSelectorSpecSchema = withRules(
  z.object(
    {
      arn: immutable(
        iamRoleArnField("arn"),
        "arn is immutable; create a new IAMRoleSelector for another role (and delete this one)",
      ).describe("The IAM role that manages the resources this selector matches. Immutable."),
      namespaceSelector: namespaceSelectorSchema
        .optional()
        .describe("Which namespaces' resources it matches; absent: every namespace."),
      resourceTypeSelector: z
        .array(resourceTypeSelectorEntrySchema)
        .max(100, "resourceTypeSelector may hold at most 100 entries")
        .optional()
        .describe("Which kinds it matches (any entry); absent: every kind."),
      resourceLabelSelector: labelSelectorSchema
        .optional()
        .describe("Which resources it matches by their own labels; absent: any labels."),
      ...sessionParametersShape,
    },
    { error: objectError("spec") },
  ),
  ...sessionRules,
);
export type IAMRoleSelectorSpec = z.infer<typeof iamRoleSelectorSpecSchema>;

/**
 * Written by the controller (selector-controller.ts): how many managed resources this selector
 * currently decides the role for, and `Ready` (False with the reason when the selector is
 * invalid and therefore ignored, or when the controller runs in CARM mode).
 */
export const iamRoleSelectorStatusSchema = z
  .object({
    matchedResources: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("How many managed resources this selector now decides the role for."),
    conditions: conditionsField
      .optional()
      .describe(
        "Ready: False with the reason when the selector is invalid (and ignored) or the controller runs in CARM mode.",
      ),
  })
  .describe("What the controller observed of the selector.");
export type IAMRoleSelectorStatus = z.infer<typeof iamRoleSelectorStatusSchema>;

export const iamRoleSelectorSchema = z.object({
  ...typeMetaShape(iamRoleSelectorApiVersion, "IAMRoleSelector"),
  metadata: objectMetaSchema,
  spec: iamRoleSelectorSpecSchema.describe(
    "The role, and which resources it manages: namespaces, kinds and resource labels, all of which must match.",
  ),
  status: iamRoleSelectorStatusSchema.optional(),
});
export type IAMRoleSelector = z.infer<typeof iamRoleSelectorSchema>;
