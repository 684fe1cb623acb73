// The Policy kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreatePolicy's input
// with ACK's names, the document by the policy's versions (a change is a new default version,
// read back as the default one) and ACK's status from GetPolicy.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const policyDeclaration = {
  service: "iam",
  kind: "Policy",
  identifier: "PolicyName",
  // IAM has no call that renames a policy, moves it or changes its description.
  immutable: ["PolicyName", "Path", "Description"],
  // IAM's own: the path ("/") a policy is made with.
  lateInitialized: ["Path"],
  // ACK's terminal codes (its generator.yaml).
  terminalCodes: ["InvalidInput", "MalformedPolicyDocument", "LimitExceeded"],
  spec: [{ members: "CreatePolicyRequest" }],
  renames: { PolicyName: "name" },
  references: [],
  notes: {
    PolicyName: "Immutable: IAM cannot rename a policy.",
    Path: "Immutable. Left out, IAM's `/` is copied into the spec.",
    Description: "Immutable: IAM has no call that changes a policy's description.",
    PolicyDocument:
      "A change is a new version, made the default (the oldest other version is deleted first when the policy has IAM's five); the default version's document is read back.",
    Tags: "Removed from the spec, the policy's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreatePolicy",
  groups: [
    {
      set: "CreatePolicyVersion",
      read: "GetPolicyVersion",
      // The default version's document: GetPolicy names the version, GetPolicyVersion holds it.
      readInput: { VersionId: "DefaultVersionId" },
      readAt: { PolicyDocument: "PolicyVersion.Document" },
      send: "changed",
      input: { SetAsDefault: true },
      fields: { PolicyDocument: { form: "document" } },
    },
    {
      set: "TagPolicy",
      remove: "UntagPolicy",
      read: "ListPolicyTags",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: {
    from: "Policy",
    only: [
      "AttachmentCount",
      "CreateDate",
      "DefaultVersionId",
      "IsAttachable",
      "PermissionsBoundaryUsageCount",
      "PolicyId",
      "UpdateDate",
    ],
  },
  runtime: {
    // Principals in accounts the namespace is not granted are warned of or refused (a managed policy rarely names principals; where it does).
    principals: ["PolicyDocument"],
    service: "IAM",
    noun: "policy",
    read: { call: "GetPolicy", output: "Policy" },
    delete: "DeletePolicy",
    // arn:aws:iam::<account>:policy/<path>/<name>: every call but the create takes it.
    byArn: ["PolicyArn"],
    arnScope: "account",
    arn: "Arn",
    arnResource: "policy/",
    arnPath: "Path",
    urlEncoded: ["PolicyDocument"],
    notFound: ["NoSuchEntity"],
    alreadyExists: ["EntityAlreadyExists"],
    tags: { resource: "PolicyArn", keys: "TagKeys", list: "Tags", inAnswer: "Tags" },
    errorFields: { MalformedPolicyDocument: "PolicyDocument" },
    hints: {
      DeleteConflict:
        " (the policy is still attached to a role, user or group, or is a permissions boundary: detach it first)",
      LimitExceeded:
        " (IAM's quota: at most 5 versions and 50 tags per policy, 6,144 characters per document)",
    },
  },
} as const satisfies KindDeclaration;
