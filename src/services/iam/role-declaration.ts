// The Role kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateRole's input with
// ACK's names, the managed policies attached by ARN and the inline policies by name that ACK's
// iam-controller manages by their own calls, and ACK's status from GetRole.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const roleDeclaration = {
  service: "iam",
  kind: "Role",
  identifier: "RoleName",
  immutable: ["RoleName", "Path"],
  // IAM's own: the session duration (3600) and the path ("/") a role is made with.
  lateInitialized: ["MaxSessionDuration", "Path"],
  // ACK's terminal codes (its generator.yaml), and IAM's refusals of a value.
  terminalCodes: ["InvalidInput", "MalformedPolicyDocument", "LimitExceeded", "PolicyNotAttachable"],
  spec: [
    // ACK's CRD has no sign-in session duration (newer than its model).
    { members: "CreateRoleRequest", ignore: ["MaxSigninSessionDuration"] },
    {
      field: "Policies",
      listOf: "arnType",
      doc: "The ARNs of the managed policies attached to the role (AWS managed, or customer managed in the role's account).",
    },
    {
      field: "InlinePolicies",
      mapOf: "policyDocumentType",
      doc: "The role's inline policies: each policy's name and its JSON policy document.",
    },
  ],
  renames: { RoleName: "name" },
  references: [
    { field: "PermissionsBoundary", service: "iam", kind: "Policy", fills: "arn" },
    { field: "Policies", service: "iam", kind: "Policy", fills: "arn" },
  ],
  notes: {
    RoleName: "Immutable: IAM cannot rename a role.",
    Path: "Immutable. Left out, IAM's `/` is copied into the spec.",
    MaxSessionDuration: "Left out, IAM's value (3600) is kept and copied into the spec.",
    Description: "Removed from the spec, the description is cleared.",
    PermissionsBoundary: "Removed from the spec, the permissions boundary is deleted.",
    Policies: "A policy removed from the list is detached; every one is detached before the role is deleted.",
    InlinePolicies:
      "Each policy is put by its name; one removed from the map is deleted; every one is deleted before the role is.",
    Tags: "Removed from the spec, the role's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateRole",
  groups: [
    {
      set: "UpdateRole",
      read: "GetRole",
      // Only what differs: a description removed is cleared with "".
      send: "changed",
      fields: { Description: { removedAs: { Description: "" } }, MaxSessionDuration: {} },
    },
    {
      set: "UpdateAssumeRolePolicy",
      read: "GetRole",
      send: "changed",
      fields: { AssumeRolePolicyDocument: { form: "document", setAs: "PolicyDocument" } },
    },
    {
      set: "PutRolePermissionsBoundary",
      remove: "DeleteRolePermissionsBoundary",
      read: "GetRole",
      fields: { PermissionsBoundary: {} },
    },
    {
      set: "AttachRolePolicy",
      remove: "DetachRolePolicy",
      read: "ListAttachedRolePolicies",
      items: {
        id: "PolicyArn",
        list: "AttachedPolicies",
        page: { input: "Marker", output: "Marker", more: "IsTruncated" },
      },
      fields: { Policies: { form: "set" } },
    },
    {
      set: "PutRolePolicy",
      remove: "DeleteRolePolicy",
      read: "ListRolePolicies",
      items: {
        id: "PolicyName",
        value: "PolicyDocument",
        get: "GetRolePolicy",
        list: "PolicyNames",
        page: { input: "Marker", output: "Marker", more: "IsTruncated" },
      },
      fields: { InlinePolicies: { form: "documents" } },
    },
    {
      set: "TagRole",
      remove: "UntagRole",
      read: "ListRoleTags",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: { from: "Role", only: ["CreateDate", "RoleId", "RoleLastUsed"] },
  runtime: {
    // Principals in accounts the namespace is not granted are warned of or refused (the trust policy: who may assume the role).
    principals: ["AssumeRolePolicyDocument"],
    service: "IAM",
    noun: "role",
    read: {
      call: "GetRole",
      output: "Role",
      members: { PermissionsBoundary: "PermissionsBoundary.PermissionsBoundaryArn" },
      groupsAtOnce: true,
    },
    appliedAtOnce: true,
    delete: "DeleteRole",
    // arn:aws:iam::<account>:role/<path>/<name>: IAM is global, its ARNs name no region.
    arnScope: "account",
    arn: "Arn",
    arnResource: "role/",
    arnPath: "Path",
    urlEncoded: ["AssumeRolePolicyDocument", "PolicyDocument"],
    emptiedBeforeDelete: ["AttachRolePolicy", "PutRolePolicy"],
    notFound: ["NoSuchEntity"],
    alreadyExists: ["EntityAlreadyExists"],
    tags: { resource: "RoleName", by: "identifier", keys: "TagKeys", list: "Tags", inAnswer: "Tags" },
    errorFields: {
      MalformedPolicyDocument: "AssumeRolePolicyDocument",
      PolicyNotAttachable: "Policies",
    },
    hints: {
      DeleteConflict:
        " (the role is still in an instance profile or has policies IAM lists elsewhere: remove it from its instance profiles)",
      LimitExceeded: " (IAM's quota: at most 10 managed policies per role by default, 50 tags)",
    },
  },
} as const satisfies KindDeclaration;
