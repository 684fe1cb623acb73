// The identity kinds (identity.crossrole.dev/v1alpha1), DESIGN §2.5, modelled on CAPA's
// AWSClusterControllerIdentity / AWSClusterStaticIdentity / AWSClusterRoleIdentity, plus a
// namespaced AWSServiceAccountIdentity for sts:AssumeRoleWithWebIdentity.
import { z } from "zod";
import { identityApiVersion, identityRefField } from "./identity-ref.ts";
import { allowedNamespacesSchema } from "./label-selector.ts";
import { conditionsField, objectError, objectMetaSchema, typeMetaShape } from "./object-meta.ts";
import { listSet, withRules } from "./rules.ts";
import { sessionParametersShape, sessionRules } from "./session.ts";
import {
  expirationSecondsField,
  iamRoleArnField,
  inlinePolicyField,
  objectNameField,
  policyArnsField,
  sourceIdentityField,
  stringField,
} from "./validation.ts";

/** How many users status.users lists at most (the count in usageCount is always exact). */
export const maxListedIdentityUsers = 10;

/** A managed resource that uses an identity, as status.users lists it. */
export const identityUserSchema = z.object({
  kind: z.string().min(1).max(63).describe("The resource's kind."),
  namespace: z.string().min(1).max(63).describe("The resource's namespace."),
  name: z.string().min(1).max(253).describe("The resource's name."),
});

/**
 * Status every identity carries: how many resources use it and the first of them (deletion
 * protection, DESIGN §2.5), conditions `Ready` and `InUse`.
 */
export const identityStatusSchema = z
  .object({
    usageCount: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("How many resources use this identity now; while any does, its deletion waits."),
    /** The first users (sorted by kind, namespace, name); bounded, usageCount is exact. */
    users: z
      .array(identityUserSchema)
      .max(maxListedIdentityUsers)
      .optional()
      .describe(
        `The first ${maxListedIdentityUsers} resources using it, sorted by kind, namespace and name.`,
      ),
    conditions: conditionsField.optional().describe("Ready (usable, and why not) and InUse."),
  })
  .describe("Who uses the identity, and whether it is ready.");
export type IdentityStatus = z.infer<typeof identityStatusSchema>;

const allowedNamespaces = allowedNamespacesSchema.nullable().optional();

/** The fields of an identity object of `kind`: type meta, metadata, `spec` and the common status. */
function identityObjectShape<K extends string, S extends z.ZodType>(kind: K, spec: S) {
  return {
    ...typeMetaShape(identityApiVersion, kind),
    metadata: objectMetaSchema,
    spec: spec.describe(`How the ${kind} gets its credentials, and which namespaces may use it.`),
    status: identityStatusSchema.optional(),
  };
}

// ---- AWSControllerIdentity: the controller's own credentials; a singleton named `default` ----

export const controllerIdentityName = "default";

export const awsControllerIdentitySpecSchema = z.object(
  { allowedNamespaces },
  { error: objectError("spec") },
);
export type AWSControllerIdentitySpec = z.infer<typeof awsControllerIdentitySpecSchema>;

export const awsControllerIdentitySchema = withRules(
  z.object(identityObjectShape("AWSControllerIdentity", awsControllerIdentitySpecSchema.optional())),
  {
    cel: `self.metadata.name == '${controllerIdentityName}'`,
    message: `metadata.name of an AWSControllerIdentity must be '${controllerIdentityName}' (it is a singleton); rename it`,
    issuePath: ["metadata", "name"],
    check: (o) => o.metadata.name === controllerIdentityName,
  },
);
export type AWSControllerIdentity = z.infer<typeof awsControllerIdentitySchema>;

// ---- AWSStaticIdentity: access keys from a Secret in the controller's system namespace ----

export const awsStaticIdentitySpecSchema = z.object(
  {
    /** Name of a Secret in the system namespace with AccessKeyID, SecretAccessKey, optional SessionToken. */
    secretRef: objectNameField("secretRef").describe(
      "The name of a Secret in the controller's system namespace holding AccessKeyID, SecretAccessKey and optionally SessionToken.",
    ),
    allowedNamespaces,
  },
  { error: objectError("spec") },
);
export type AWSStaticIdentitySpec = z.infer<typeof awsStaticIdentitySpecSchema>;

export const awsStaticIdentitySchema = z.object(
  identityObjectShape("AWSStaticIdentity", awsStaticIdentitySpecSchema),
);
export type AWSStaticIdentity = z.infer<typeof awsStaticIdentitySchema>;

// ---- AWSRoleIdentity: sts:AssumeRole from another identity ----

export const awsRoleIdentitySpecSchema = withRules(
  z.object(
    {
      /** The identity whose credentials call sts:AssumeRole; any identity kind. */
      sourceIdentityRef: identityRefField("sourceIdentityRef").describe(
        "The identity whose credentials call sts:AssumeRole (any identity kind; chains are followed).",
      ),
      roleARN: iamRoleArnField("roleARN").describe("The IAM role to assume."),
      ...sessionParametersShape,
      inlinePolicy: inlinePolicyField("inlinePolicy")
        .optional()
        .describe("A session policy (JSON) that narrows what the assumed role may do."),
      policyARNs: policyArnsField("policyARNs")
        .optional()
        .describe("Managed session policies that narrow what the assumed role may do."),
      sourceIdentity: sourceIdentityField("sourceIdentity")
        .optional()
        .describe(
          "The source identity set on the session (sts:SetSourceIdentity), kept through role chains.",
        ),
      allowedNamespaces,
    },
    { error: objectError("spec") },
  ),
  ...sessionRules,
);
export type AWSRoleIdentitySpec = z.infer<typeof awsRoleIdentitySpecSchema>;

export const awsRoleIdentitySchema = withRules(
  z.object(identityObjectShape("AWSRoleIdentity", awsRoleIdentitySpecSchema)),
  {
    cel: "!(self.spec.sourceIdentityRef.kind == 'AWSRoleIdentity' && self.spec.sourceIdentityRef.name == self.metadata.name)",
    message:
      "spec.sourceIdentityRef must not name this AWSRoleIdentity itself (a cycle); name another identity",
    fieldPath: ".spec.sourceIdentityRef",
    check: (o) =>
      !(
        o.spec.sourceIdentityRef.kind === "AWSRoleIdentity" &&
        o.spec.sourceIdentityRef.name === o.metadata.name
      ),
  },
);
export type AWSRoleIdentity = z.infer<typeof awsRoleIdentitySchema>;

// ---- AWSServiceAccountIdentity (namespaced): sts:AssumeRoleWithWebIdentity with a token
// the controller requests for a ServiceAccount in the same namespace ----

export const defaultAudiences = ["sts.amazonaws.com"];

export const awsServiceAccountIdentitySpecSchema = z.object(
  {
    roleARN: iamRoleArnField("roleARN").describe("The IAM role to assume with the ServiceAccount's token."),
    serviceAccountName: objectNameField("serviceAccountName").describe(
      "The ServiceAccount, in this identity's namespace, whose token the controller requests.",
    ),
    audiences: listSet(
      z
        .array(stringField("audiences").min(1, "audiences entries must not be empty").max(253))
        .min(1, "audiences must list at least one audience, e.g. sts.amazonaws.com")
        .max(10),
      "audiences must not repeat an audience",
    )
      .default(defaultAudiences)
      .describe("The token's audiences, as the role's trust policy expects (default sts.amazonaws.com)."),
    /** TokenRequest expirationSeconds; absent = the apiserver's default (1 hour). */
    expirationSeconds: expirationSecondsField("expirationSeconds")
      .optional()
      .describe(
        "How long the requested token lasts (TokenRequest expirationSeconds); default: the apiserver's.",
      ),
    // AssumeRoleWithWebIdentity takes them as AssumeRole does (session.ts).
    sessionName: sessionParametersShape.sessionName,
    durationSeconds: sessionParametersShape.durationSeconds,
  },
  { error: objectError("spec") },
);
export type AWSServiceAccountIdentitySpec = z.infer<typeof awsServiceAccountIdentitySpecSchema>;

export const awsServiceAccountIdentitySchema = z.object(
  identityObjectShape("AWSServiceAccountIdentity", awsServiceAccountIdentitySpecSchema),
);
export type AWSServiceAccountIdentity = z.infer<typeof awsServiceAccountIdentitySchema>;

/** Any identity object. */
export type AnyIdentity =
  | AWSControllerIdentity
  | AWSStaticIdentity
  | AWSRoleIdentity
  | AWSServiceAccountIdentity;

/** The object schema for each identity kind. */
export const identitySchemas = {
  AWSControllerIdentity: awsControllerIdentitySchema,
  AWSStaticIdentity: awsStaticIdentitySchema,
  AWSRoleIdentity: awsRoleIdentitySchema,
  AWSServiceAccountIdentity: awsServiceAccountIdentitySchema,
} as const;
