// The Key kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateKey's input with
// ACK's names, the key policy, rotation and description by their own calls, tags by the key's ID,
// and ACK's status from the key's metadata. A key is named by the ID KMS gives it at creation, not
// by its spec: `runtime.assigned` says where the create answers it and how the reconciler finds a
// key tagged as the resource's own when status does not (or falsely) say it.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const keyDeclaration = {
  service: "kms",
  kind: "Key",
  identifier: "KeyId",
  // KMS fixes these at creation (ACK's too); a description is updatable (UpdateKeyDescription),
  // which ACK's controller does not do.
  immutable: ["KeySpec", "KeyUsage", "Origin", "MultiRegion", "CustomKeyStoreId"],
  lateInitialized: [],
  terminalCodes: [
    "MalformedPolicyDocument",
    "UnsupportedOperation",
    "CustomKeyStoreInvalidState",
    "CustomKeyStoreNotFound",
    "CloudHsmClusterInvalidConfiguration",
  ],
  // ACK's CRD has neither the legacy spec nor the external key store's key.
  spec: [
    { members: "CreateKeyRequest", ignore: ["CustomerMasterKeySpec", "XksKeyId"] },
    {
      field: "EnableKeyRotation",
      custom: "boolean",
      doc: "Whether KMS rotates the key material every year. Left out or false, rotation is turned off.",
    },
  ],
  notes: {
    Policy:
      "Left out, the key policy KMS holds is kept (the default policy for a new key). A change is applied with PutKeyPolicy.",
    Description: 'Removed from the spec, the description is cleared ("").',
    Tags: "Removed from the spec, the key's tags are removed (crossrole's ownership tags stay).",
  },
  notCompared: {
    BypassPolicyLockoutSafetyCheck: "a flag of the call that sets the policy, not a property of the key",
  },
  create: "CreateKey",
  groups: [
    {
      set: "UpdateKeyDescription",
      read: "DescribeKey",
      fields: { Description: { default: "", removedAs: { Description: "" } } },
    },
    {
      set: "PutKeyPolicy",
      read: "GetKeyPolicy",
      // KMS's one key policy is "default" (as ACK sends it).
      input: { PolicyName: "default" },
      readWith: { PolicyName: "default" },
      fields: { Policy: { form: "documents", absent: "kept" } },
    },
    {
      set: "EnableKeyRotation",
      remove: "DisableKeyRotation",
      read: "GetKeyRotationStatus",
      readAt: { EnableKeyRotation: "KeyRotationEnabled" },
      // Asymmetric and HMAC keys have no rotation: none.
      notFound: ["UnsupportedOperation"],
      fields: { EnableKeyRotation: { default: false } },
    },
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "ListResourceTags",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: {
    from: "KeyMetadata",
    only: [
      "KeyId",
      "AWSAccountId",
      "CloudHsmClusterId",
      "CreationDate",
      "DeletionDate",
      "Enabled",
      "EncryptionAlgorithms",
      "ExpirationModel",
      "KeyManager",
      "KeyState",
      "MacAlgorithms",
      "MultiRegionConfiguration",
      "PendingDeletionWindowInDays",
      "SigningAlgorithms",
      "ValidTo",
    ],
  },
  runtime: {
    service: "KMS",
    noun: "key",
    read: { call: "DescribeKey", output: "KeyMetadata" },
    // KMS names a key by the ID its create answers; status records it (ACK's keyID), but status is
    // the tenant's to write: a key is this resource's only when its tags say so.
    assigned: {
      answer: "KeyMetadata.KeyId",
      status: "keyID",
      pattern: "^(mrk-[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$",
    },
    // Scheduled for deletion, a key is answered with its DeletionDate until the window ends: none.
    goneWhen: "DeletionDate",
    delete: "ScheduleKeyDeletion",
    arn: "Arn",
    arnResource: "key/",
    notFound: ["NotFound"],
    alreadyExists: [],
    tags: { resource: "KeyId", keys: "TagKeys", list: "Tags" },
    errorFields: { MalformedPolicyDocument: "Policy" },
    hints: {
      MalformedPolicyDocument:
        " (the key policy must let the account's principals manage the key, or set spec.bypassPolicyLockoutSafetyCheck)",
      KMSInvalidState: " (the key is not in a state that allows this: see status.keyState)",
    },
  },
} as const satisfies KindDeclaration;
