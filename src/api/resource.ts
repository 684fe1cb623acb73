// What every managed AWS resource kind (Bucket, Queue, ...) shares, ACK-style: the
// `spec.identityRef` field, the ACK status, and how its CRD is built. A kind's own spec
// fields are added with `resourceSpecSchema({...})`; see src/crd-sources.ts for registering it.
import { z } from "zod";
import { type CrdSource, crdName } from "./crd.ts";
import { identityRefSchema } from "./identity-ref.ts";
import { apiVersionOf, kindOf, type ResourceKind } from "./kinds.ts";
import { conditionsField, objectError, objectMetaSchema, typeMetaShape } from "./object-meta.ts";

/** The kind `kinds.ts` lists under `apiVersion`; a schema module that names a missing one fails at load. */
export function requireKind(apiVersion: string, kindName: string): ResourceKind {
  const found = kindOf(apiVersion, kindName);
  if (found === undefined) throw new Error(`src/api/kinds.ts no longer lists ${apiVersion} ${kindName}`);
  return found;
}

/** ACK's condition types, plus Ready (DESIGN §2.1). */
export const ackConditionTypes = {
  resourceSynced: "ACK.ResourceSynced",
  terminal: "ACK.Terminal",
  recoverable: "ACK.Recoverable",
  iamRoleSelected: "ACK.IAMRoleSelected",
  ready: "Ready",
} as const;

/** `status.ackResourceMetadata`: where the resource is, and which identity put it there. */
export const ackResourceMetadataSchema = z
  .object({
    arn: z.string().optional().describe("The AWS object's ARN, once it exists."),
    ownerAccountID: z
      .string()
      .optional()
      .describe("The AWS account the object lives in, recorded where the controller placed it."),
    region: z.string().optional().describe("The AWS region the object lives in."),
    /** The AWS partition of the region (aws, aws-cn, aws-us-gov, ...), as ACK's. */
    partition: z
      .string()
      .optional()
      .describe("The AWS partition of the region: aws, aws-cn, aws-us-gov, ..."),
    /** Set when an IAMRoleSelector chose the role. */
    iamRoleSelector: z
      .object({
        selectorName: z.string().describe("The IAMRoleSelector whose role manages the object."),
        resourceVersion: z.string().describe("The selector's resourceVersion when it was chosen."),
      })
      .optional()
      .describe("Set when an IAMRoleSelector chose the role (IAMRoleSelector mode)."),
    /** What was actually assumed; never secret material. */
    identity: z
      .object({
        source: z
          .string()
          .describe(
            "What decided the identity: identityRef, a CARM map entry, an IAMRoleSelector, or the controller's default.",
          ),
        roleARN: z.string().optional().describe("The IAM role assumed, if any."),
        sessionName: z.string().optional().describe("The STS session name the role was assumed with."),
      })
      .optional()
      .describe("The identity that manages the object, as last used; never secret material."),
  })
  .describe("Where the AWS object is (ARN, account, region) and which identity manages it (ACK's).");
export type AckResourceMetadata = z.infer<typeof ackResourceMetadataSchema>;

export const resourceStatusSchema = z.looseObject({
  ackResourceMetadata: ackResourceMetadataSchema.optional(),
  conditions: conditionsField
    .optional()
    .describe(
      "ACK's conditions: ACK.ResourceSynced, ACK.Terminal, ACK.Recoverable, ACK.IAMRoleSelected, and Ready.",
    ),
});
export type ResourceStatus = z.infer<typeof resourceStatusSchema>;

/** A resource kind's spec: its own fields plus the optional `identityRef`. */
export function resourceSpecSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ identityRef: identityRefSchema.optional(), ...shape }, { error: objectError("spec") });
}

/** A kind's managed configuration: its spec without the `identityRef` every kind carries. */
export type ResourceFields<Spec> = Omit<Spec, "identityRef">;

/** A whole object of a managed kind; `status` is ACK's, or a kind's extension of it. */
export function resourceObjectSchema<
  Spec extends z.ZodType,
  Status extends z.ZodType = typeof resourceStatusSchema,
>(kind: ResourceKind, spec: Spec, status: Status = resourceStatusSchema as unknown as Status) {
  return z.object({
    ...typeMetaShape(apiVersionOf(kind), kind.kind),
    metadata: objectMetaSchema,
    // Optional, as in ACK: an adoption by services.k8s.aws/adoption-fields has no spec until
    // the controller writes AWS's configuration as the spec (src/controller/adoption-seed.ts).
    spec: spec
      .optional()
      .describe(
        "The AWS object's desired configuration, with ACK's field names, and optionally the identity that manages it.",
      ),
    status: status
      .optional()
      .describe("What the controller observed: where the object is, AWS's read-only fields, and conditions."),
  });
}

const conditionOf = (type: string, field: "status" | "reason"): string =>
  `.status.conditions[?(@.type=="${type}")].${field}`;
const conditionStatus = (type: string): string => conditionOf(type, "status");

/**
 * A managed kind's CRD source (the shared printer columns and status subresource), from its spec
 * and status. A service module wants the object schema too: `resourceSchemas` builds both at once.
 */
export function resourceCrdSource(
  kind: ResourceKind,
  spec: z.ZodType,
  status: z.ZodType = resourceStatusSchema,
): CrdSource {
  return crdSourceOf(kind, resourceObjectSchema(kind, spec, status));
}

/** The CRD source of a managed kind whose object schema (`resourceObjectSchema`) is `schema`. */
function crdSourceOf(kind: ResourceKind, schema: z.ZodType): CrdSource {
  return {
    names: {
      group: kind.group,
      version: kind.version,
      kind: kind.kind,
      plural: kind.plural,
      singular: kind.singular,
      categories: ["crossrole", "aws"],
    },
    scope: "Namespaced",
    schema,
    description: `${kind.kind} is an AWS ${kind.service} resource managed by crossrole (ACK-compatible ${crdName(kind)}).`,
    statusSubresource: true,
    printerColumns: [
      { name: "Account", type: "string", jsonPath: ".status.ackResourceMetadata.ownerAccountID" },
      { name: "Region", type: "string", jsonPath: ".status.ackResourceMetadata.region" },
      { name: "Synced", type: "string", jsonPath: conditionStatus(ackConditionTypes.resourceSynced) },
      { name: "Ready", type: "string", jsonPath: conditionStatus(ackConditionTypes.ready) },
      // Why it is (not) ready in one word (Synced, NameTaken, IdentityDenied, ...): what
      // \`kubectl get\` users look at first when a resource is stuck.
      { name: "Reason", type: "string", jsonPath: conditionOf(ackConditionTypes.ready, "reason") },
      { name: "ARN", type: "string", jsonPath: ".status.ackResourceMetadata.arn", priority: 1 },
    ],
  };
}

/**
 * A managed kind's object schema and CRD source (the shared printer columns and status
 * subresource), both from the kind's spec and status; the CRD is built from the very object
 * schema the controller parses with, so the two cannot drift apart.
 */
export function resourceSchemas<Spec extends z.ZodType, Status extends z.ZodType>(
  kind: ResourceKind,
  spec: Spec,
  status: Status,
) {
  const object = resourceObjectSchema(kind, spec, status);
  return { object, crdSource: crdSourceOf(kind, object) };
}
