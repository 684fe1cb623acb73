// The Secret kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateSecret's input
// with ACK's names, the value from a Kubernetes Secret's key (never from the spec, never read back),
// the description and KMS key by UpdateSecret, tags by the secret's ARN, and ACK's status.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const secretDeclaration = {
  service: "secretsmanager",
  kind: "Secret",
  identifier: "Name",
  // ACK's controller sends the replicas only at creation (UpdateSecret takes none): immutable here.
  immutable: ["Name", "AddReplicaRegions", "ForceOverwriteReplicaSecret"],
  lateInitialized: [],
  terminalCodes: ["InvalidParameter", "MalformedPolicyDocument", "EncryptionFailure", "PreconditionNotMet"],
  // ACK's CRD has neither the binary value (ACK ignores it) nor what is newer than its model (Type,
  // CrossAccountPrimaryARN); the idempotency token is the runtime's business.
  spec: [
    {
      members: "CreateSecretRequest",
      ignore: ["ClientRequestToken", "SecretBinary", "Type", "CrossAccountPrimaryARN"],
    },
  ],
  renames: { AddReplicaRegions: "replicaRegions" },
  secrets: ["SecretString"],
  references: [{ field: "KmsKeyId", service: "kms", kind: "Key" }],
  notes: {
    Name: "Immutable: Secrets Manager cannot rename a secret.",
    SecretString:
      "A key of a Kubernetes Secret in the resource's namespace. Secrets Manager's value is never read back: it is sent at creation and again (PutSecretValue) whenever the Kubernetes Secret's value changes.",
    Description: 'Removed from the spec, the description is cleared ("").',
    KmsKeyId: "Left out, the key Secrets Manager uses is kept (aws/secretsmanager for a new secret).",
    AddReplicaRegions: "Immutable: the replicas are made with the secret (as ACK's controller does).",
    ForceOverwriteReplicaSecret: "Immutable: sent with the replicas, at creation.",
    Tags: "Removed from the spec, the secret's tags are removed (crossrole's ownership tags stay).",
  },
  notCompared: {
    SecretString:
      "a Secret's key, which is never read back: a change of the Kubernetes Secret is applied instead",
  },
  create: "CreateSecret",
  groups: [
    {
      set: "UpdateSecret",
      read: "DescribeSecret",
      send: "changed",
      // A description cleared is "" in the answer: the same as none.
      fields: { Description: { default: "", removedAs: { Description: "" } }, KmsKeyId: { absent: "kept" } },
    },
    {
      // The value, whenever the Kubernetes Secret changed since it was last applied.
      set: "PutSecretValue",
      read: "DescribeSecret",
      send: "changed",
      fields: {},
      secrets: ["SecretString"],
    },
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "DescribeSecret",
      fields: { Tags: { form: "tags" } },
    },
  ],
  // ACK's status: the secret's ARN as its id, the current version, the replicas' states.
  status: {
    from: "CreateSecretResponse",
    only: ["ARN", "VersionId", "ReplicationStatus"],
    renames: { ARN: "id" },
  },
  runtime: {
    service: "Secrets Manager",
    noun: "secret",
    // The whole DescribeSecret answer is the one secret named (SecretId takes the name or the ARN).
    read: { call: "DescribeSecret", by: "SecretId" },
    // A secret scheduled for deletion is answered with its DeletedDate until it is gone: none here.
    goneWhen: "DeletedDate",
    delete: "DeleteSecret",
    // The other calls take the ARN as read (its random suffix cannot be composed).
    arnInput: ["SecretId"],
    arn: "ARN",
    answeredArn: true,
    arnResource: "secret:",
    notFound: ["ResourceNotFound"],
    alreadyExists: ["ResourceExists"],
    tags: { resource: "SecretId", keys: "TagKeys", list: "Tags", inAnswer: "Tags" },
    secrets: { SecretString: { noun: "the secret's value" } },
    errorFields: { EncryptionFailure: "KmsKeyId", MalformedPolicyDocument: "SecretString" },
    hints: {
      InvalidRequest:
        " (a secret of this name may be scheduled for deletion: Secrets Manager keeps its name until the recovery window ends; restore it with RestoreSecret, or choose another name)",
      EncryptionFailure: " (the KMS key named by spec.kmsKeyID is not usable: fix it or its key policy)",
      LimitExceeded: " (Secrets Manager's quota: at most 50 tags per secret)",
    },
  },
} as const satisfies KindDeclaration;
