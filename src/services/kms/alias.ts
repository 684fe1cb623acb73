// The Alias kind: its declaration (alias-declaration.ts) served by the generic runtime, with KMS's
// quirks as hooks: `alias/` added to a name that lacks it (as ACK does), the target key compared by
// its ID (KMS answers the ID; a spec may give the key's ARN), and when KMS made an alias, which an
// interrupted create needs (AWS cannot tag an alias: the controller's record of its owner is
// written right after the create, and a controller killed before that finds the alias again as
// its own create only by this time and its sealed intent).
import type { KMSClient } from "@aws-sdk/client-kms";
import * as kmsSdk from "@aws-sdk/client-kms";
import { requireKind } from "../../api/resource.ts";
import { parseRegionalArn } from "../arn.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindSource } from "../declared-kind/source.ts";
import { aliasDeclaration } from "./alias-declaration.ts";
import { kmsClientFactory } from "./client.ts";
import { aliasGenerated } from "./generated/alias-fields.ts";
import { kmsPages } from "./pages.ts";

const kind = requireKind("kms.services.k8s.aws/v1alpha1", "Alias");

/** ACK's prefix (its kms-controller's hooks.go): a name without it is sent with it. */
const aliasPrefix = "alias/";
/** KMS's own aliases (for AWS managed keys). */
const reservedPrefix = "alias/aws/";

export const aliasName = (name: string): string => (name.startsWith(aliasPrefix) ? name : aliasPrefix + name);

/** A key's ID from what a spec may give: the ID, or the key's ARN (…:key/<id>). */
export const keyIdOf = (value: unknown): string => {
  const text = String(value ?? "");
  const [resource] = parseRegionalArn(text, "kms")?.resource ?? [];
  return resource?.startsWith("key/") === true ? resource.slice("key/".length) : text;
};

/** When KMS made the alias, as ListAliases says (undefined where it does not: an emulator). */
async function createdAt(name: string, ask: Ask): Promise<Date | undefined> {
  for await (const page of kmsPages(ask, "ListAliases", {})) {
    const aliases = (page["Aliases"] as { AliasName?: string; CreationDate?: unknown }[] | undefined) ?? [];
    const alias = aliases.find((a) => a.AliasName === name);
    if (alias === undefined) continue;
    const made = alias.CreationDate;
    return made instanceof Date
      ? made
      : typeof made === "string" || typeof made === "number"
        ? new Date(made)
        : undefined;
  }
  return undefined;
}

/** Its spec, status, object and CRD source: an alias/aws/ name refused before anything is sent. */
const schemas = declaredKindSchemas(
  { kind, declaration: aliasDeclaration, generated: aliasGenerated },
  {
    refine: (spec, ctx) => {
      const name = spec.name;
      if (typeof name !== "string" || !aliasName(name).startsWith(reservedPrefix)) return;
      ctx.addIssue({
        code: "custom",
        path: ["name"],
        message: `${name} is under ${reservedPrefix}, which KMS keeps for its own keys' aliases: choose another name`,
      });
    },
  },
);

export const { crdSource: aliasCrdSource } = schemas;

/** What the runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const aliasSource = {
  kind,
  declaration: aliasDeclaration,
  generated: aliasGenerated,
  schemas,
  sdk: kmsSdk,
  clientFactory: kmsClientFactory,
  hooks: {
    identifier: aliasName,
    createdAt,
    equal: {
      targetKeyID: (desired, observed) =>
        keyIdOf(desired["targetKeyID"]) === keyIdOf(observed["targetKeyID"]),
    },
  },
} satisfies DeclaredKindSource<KMSClient>;

export const aliasService = declaredKindModule(aliasSource);
