// The CRD sources of crossrole's own API kinds (IAMRoleSelector and the identities). The full
// list of CRDs, with each resource kind's CRD from its service module, is src/crd-sources.ts.

import type { CrdSource } from "./crd.ts";
import { iamRoleSelectorGroup, iamRoleSelectorSchema, iamRoleSelectorVersion } from "./iam-role-selector.ts";
import {
  awsControllerIdentitySchema,
  awsRoleIdentitySchema,
  awsServiceAccountIdentitySchema,
  awsStaticIdentitySchema,
} from "./identities.ts";
import { identityGroup, identityVersion } from "./identity-ref.ts";

const identityNames = (kind: string, plural: string, shortName: string) => ({
  group: identityGroup,
  version: identityVersion,
  kind,
  plural,
  shortNames: [shortName],
  categories: ["crossrole", "crossrole-identity"],
});

const usageColumn = { name: "In-Use", type: "integer", jsonPath: ".status.usageCount" } as const;

export const iamRoleSelectorCrdSource: CrdSource = {
  names: {
    group: iamRoleSelectorGroup,
    version: iamRoleSelectorVersion,
    kind: "IAMRoleSelector",
    plural: "iamroleselectors",
    categories: ["crossrole"],
  },
  scope: "Cluster",
  schema: iamRoleSelectorSchema,
  description:
    "IAMRoleSelector picks the IAM role crossrole assumes for resources matching its namespace, resource type and label selectors (ACK-compatible).",
  statusSubresource: true,
  printerColumns: [
    { name: "ARN", type: "string", jsonPath: ".spec.arn" },
    { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: "Matched", type: "integer", jsonPath: ".status.matchedResources" },
  ],
};

export const identityCrdSources: readonly CrdSource[] = [
  {
    names: identityNames("AWSControllerIdentity", "awscontrolleridentities", "awsci"),
    scope: "Cluster",
    schema: awsControllerIdentitySchema,
    description:
      "AWSControllerIdentity (singleton 'default') decides which namespaces may use the controller's own AWS credentials.",
    statusSubresource: true,
    printerColumns: [usageColumn],
  },
  {
    names: identityNames("AWSStaticIdentity", "awsstaticidentities", "awssi"),
    scope: "Cluster",
    schema: awsStaticIdentitySchema,
    description:
      "AWSStaticIdentity uses access keys from a Secret in the controller's system namespace, for the namespaces it allows.",
    statusSubresource: true,
    printerColumns: [{ name: "Secret", type: "string", jsonPath: ".spec.secretRef" }, usageColumn],
  },
  {
    names: identityNames("AWSRoleIdentity", "awsroleidentities", "awsri"),
    scope: "Cluster",
    schema: awsRoleIdentitySchema,
    description:
      "AWSRoleIdentity assumes an IAM role (sts:AssumeRole) with the credentials of its source identity, for the namespaces it allows.",
    statusSubresource: true,
    printerColumns: [
      { name: "Role", type: "string", jsonPath: ".spec.roleARN" },
      { name: "Source-Kind", type: "string", jsonPath: ".spec.sourceIdentityRef.kind" },
      { name: "Source", type: "string", jsonPath: ".spec.sourceIdentityRef.name" },
      usageColumn,
    ],
  },
  {
    names: identityNames("AWSServiceAccountIdentity", "awsserviceaccountidentities", "awssai"),
    scope: "Namespaced",
    schema: awsServiceAccountIdentitySchema,
    description:
      "AWSServiceAccountIdentity assumes an IAM role with a web identity token the controller requests for a ServiceAccount in the same namespace.",
    statusSubresource: true,
    printerColumns: [
      { name: "Role", type: "string", jsonPath: ".spec.roleARN" },
      { name: "ServiceAccount", type: "string", jsonPath: ".spec.serviceAccountName" },
      usageColumn,
    ],
  },
];
