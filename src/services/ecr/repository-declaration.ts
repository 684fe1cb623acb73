// The Repository kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateRepository's
// input with ACK's names, the lifecycle policy and the repository policy ACK's ecr-controller
// manages by their own calls, and ACK's status (the repository's URI, when it was made).
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const repositoryDeclaration = {
  service: "ecr",
  kind: "Repository",
  identifier: "repositoryName",
  immutable: ["repositoryName", "registryId", "encryptionConfiguration"],
  // ECR reports its own: the account's registry, AES256 when the spec named no encryption, and
  // scanning on push off.
  lateInitialized: ["registryId", "encryptionConfiguration", "imageScanningConfiguration"],
  terminalCodes: [
    "InvalidParameter",
    "InvalidTagParameter",
    "TooManyTags",
    "Validation",
    "LifecyclePolicyPreviewInProgress",
  ],
  spec: [
    { members: "CreateRepositoryRequest" },
    { field: "lifecyclePolicy", from: "PutLifecyclePolicy.lifecyclePolicyText" },
    { field: "policy", from: "SetRepositoryPolicy.policyText" },
  ],
  renames: { repositoryName: "name" },
  references: [{ field: "encryptionConfiguration.kmsKey", service: "kms", kind: "Key", fills: "arn" }],
  notes: {
    repositoryName: "Immutable: ECR cannot rename a repository.",
    registryId:
      "Immutable. Left out, the account crossrole decides for the resource (ECR's registry is the account); set, it must be that account: a Repository is never made in another account's registry.",
    encryptionConfiguration:
      "Immutable: ECR encrypts a repository as it was made. Left out, ECR's choice (AES256) is copied into the spec.",
    imageTagMutability: "Removed from the spec, it is set to MUTABLE (ECR's default).",
    imageScanningConfiguration:
      "Left out, ECR's value is kept and copied into the spec: it can be changed, not removed.",
    lifecyclePolicy: 'Removed from the spec (or ""), the repository\'s lifecycle policy is deleted.',
    policy: 'Removed from the spec (or ""), the repository\'s policy is deleted.',
    tags: "Removed from the spec, the repository's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateRepository",
  groups: [
    {
      set: "PutImageTagMutability",
      read: "DescribeRepositories",
      fields: {
        imageTagMutability: { default: "MUTABLE" },
        imageTagMutabilityExclusionFilters: {},
      },
    },
    {
      set: "PutImageScanningConfiguration",
      read: "DescribeRepositories",
      fields: { imageScanningConfiguration: { absent: "kept" } },
    },
    {
      set: "PutLifecyclePolicy",
      remove: "DeleteLifecyclePolicy",
      read: "GetLifecyclePolicy",
      // A repository without a lifecycle policy.
      notFound: ["LifecyclePolicyNotFound"],
      fields: { lifecyclePolicy: { form: "document" } },
    },
    {
      set: "SetRepositoryPolicy",
      remove: "DeleteRepositoryPolicy",
      read: "GetRepositoryPolicy",
      // A repository without a policy.
      notFound: ["RepositoryPolicyNotFound"],
      fields: { policy: { form: "document" } },
    },
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "ListTagsForResource",
      fields: { tags: { form: "tags" } },
    },
  ],
  status: { from: "Repository", only: ["createdAt", "repositoryUri"] },
  runtime: {
    // Principals in accounts the namespace is not granted are warned of or refused (the repository policy).
    principals: ["policy"],
    service: "ECR",
    noun: "repository",
    // Given the name (in `repositoryNames`, read from the model), ECR answers that repository or
    // RepositoryNotFoundException; only the answered repository of the resource's name is kept.
    read: { call: "DescribeRepositories", output: "repositories", groupsAtOnce: true },
    // ECR applies each Put at once: nothing is read back after a write.
    appliedAtOnce: true,
    delete: "DeleteRepository",
    arn: "repositoryArn",
    arnResource: "repository/",
    notFound: ["RepositoryNotFound"],
    alreadyExists: ["RepositoryAlreadyExists"],
    tags: { resource: "resourceArn", keys: "tagKeys", list: "tags" },
    errorFields: {
      InvalidTagParameter: "tags",
      TooManyTags: "tags",
      Kms: "encryptionConfiguration",
    },
    hints: {
      TooManyTags:
        " (a repository holds at most 50 tags, crossrole's ownership tags included; remove some from spec.tags)",
      RepositoryNotEmpty:
        ' (the repository still holds images: delete them, or annotate the Repository ecr.services.k8s.aws/force-delete: "true" to delete them with it)',
      Kms: " (the KMS key named by spec.encryptionConfiguration.kmsKey is not usable; fix it or its key policy)",
    },
  },
} as const satisfies KindDeclaration;
