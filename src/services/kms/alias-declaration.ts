// The Alias kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateAlias's input with
// ACK's names, the key it points at changed by UpdateAlias, read from ListAliases. KMS cannot tag
// an alias (`runtime.tags` absent): whose one is, the controller's own records say
// (src/controller/records/owned-objects.ts), never the alias nor the resource's status.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const aliasDeclaration = {
  service: "kms",
  kind: "Alias",
  identifier: "AliasName",
  immutable: ["AliasName"],
  lateInitialized: [],
  // KMS's refusals of a name or a key (a reserved alias/aws/ name is NotAuthorized).
  terminalCodes: ["Validation", "InvalidAliasName", "NotAuthorized"],
  spec: [{ members: "CreateAliasRequest" }],
  renames: { AliasName: "name" },
  references: [{ field: "TargetKeyId", service: "kms", kind: "Key" }],
  notes: {
    AliasName:
      "Immutable: KMS cannot rename an alias. `alias/` is added where the name lacks it (as ACK does); a name under `alias/aws/` is KMS's own and refused.",
    TargetKeyId:
      "Changed, the alias is pointed at the new key (UpdateAlias). A key ID, a key ARN: compared by the key's ID, as ListAliases answers it.",
  },
  create: "CreateAlias",
  groups: [
    {
      set: "UpdateAlias",
      read: "ListAliases",
      fields: { TargetKeyId: { custom: "KMS answers the key's ID; the spec may give its ARN" } },
    },
  ],
  runtime: {
    service: "KMS",
    noun: "alias",
    // ListAliases names no alias: the account's are listed, page by page, until the resource's
    // shows; only that one is kept (KMS's own aliases, alias/aws/..., are never a resource's).
    read: {
      call: "ListAliases",
      output: "Aliases",
      every: true,
      page: { input: "Marker", output: "NextMarker" },
    },
    delete: "DeleteAlias",
    arn: "AliasArn",
    // The alias's name holds `alias/` (arn:aws:kms:<region>:<account>:alias/<name>).
    arnResource: "",
    arnScope: "regional",
    notFound: ["NotFound"],
    alreadyExists: ["AlreadyExists"],
    errorFields: { InvalidAliasName: "AliasName", NotAuthorized: "AliasName" },
    // KMS's NotFound to a create or an update is about the key the alias names.
    fieldPatterns: { codes: ["NotFound"], patterns: [["^Key '.*' does not exist", "TargetKeyId"]] },
    hints: {
      InvalidAliasName: " (an alias name is alias/ and letters, digits, /, _ or -)",
      NotAuthorized: " (alias/aws/ names are KMS's own: choose another spec.name)",
      Validation: " (spec.targetKeyID must name a key of this account and Region, not an alias)",
    },
  },
} as const satisfies KindDeclaration;
