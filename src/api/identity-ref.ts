// `spec.identityRef: {kind, name}` (DESIGN §3.1): every resource kind embeds it, and
// AWSRoleIdentity's `sourceIdentityRef` has the same shape.
import { z } from "zod";
import { objectNameField } from "./validation.ts";

export const identityGroup = "identity.crossrole.dev";
export const identityVersion = "v1alpha1";
export const identityApiVersion = `${identityGroup}/${identityVersion}`;

export const identityKinds = [
  "AWSControllerIdentity",
  "AWSStaticIdentity",
  "AWSRoleIdentity",
  "AWSServiceAccountIdentity",
] as const;
export type IdentityKind = (typeof identityKinds)[number];

export function isIdentityKind(kind: string): kind is IdentityKind {
  return (identityKinds as readonly string[]).includes(kind);
}

/** A `{kind, name}` reference to an identity; `field` names it in error messages. */
export function identityRefField(field: string) {
  return z.object(
    {
      kind: z
        .enum(identityKinds, { error: `${field}.kind must be one of ${identityKinds.join(", ")}` })
        .describe(`The identity's kind: ${identityKinds.join(", ")}.`),
      name: objectNameField(`${field}.name`).describe("The identity object's name."),
    },
    {
      error: (issue) =>
        issue.input === undefined ? `${field} is required` : `${field} must be {kind, name}`,
    },
  );
}

/** The fragment resource specs embed: `identityRef: identityRefSchema.optional()`. */
export const identityRefSchema = identityRefField("identityRef").describe(
  "The identity (an AWSRoleIdentity, AWSStaticIdentity, AWSServiceAccountIdentity or AWSControllerIdentity) whose credentials manage this resource; it must allow this namespace. Left out, the namespace's CARM mapping or an IAMRoleSelector decides (crossrole explain shows which).",
);
export type IdentityRef = z.infer<typeof identityRefSchema>;
