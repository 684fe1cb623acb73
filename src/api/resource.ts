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
export const ackResourceMetadataSchema = z.object({
  arn: z.string().optional(),
  ownerAccountID: z.string().optional(),
  region: z.string().optional(),
  /** The AWS partition of the region (aws, aws-cn, aws-us-gov, ...), as ACK's. */
  partition: z.string().optional(),
  /** Set when an IAMRoleSelector chose the role. */
  iamRoleSelector: z.object({ selectorName: z.string(), resourceVersion: z.string() }).optional(),
  /** What was actually assumed; never secret material. */
  identity: z
    .object({ source: z.string(), roleARN: z.string().optional(), sessionName: z.string().optional() })
    .optional(),
});
export type AckResourceMetadata = z.infer<typeof ackResourceMetadataSchema>;

export const resourceStatusSchema = z.looseObject({
  ackResourceMetadata: ackResourceMetadataSchema.optional(),
  conditions: conditionsField.optional(),
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
    spec: spec.optional(),
    status: status.optional(),
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
