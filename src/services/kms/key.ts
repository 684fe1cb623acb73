// The Key kind: its declaration (key-declaration.ts) served by the generic runtime, with KMS's two
// quirks as hooks: a key is found by its tags only by reading each key's (KMS has no tag filter),
// and a deletion is scheduled with ACK's pending window annotation. A key named by the ID KMS
// assigns is the runtime's (runtime.assigned): declared.
import type { KMSClient } from "@aws-sdk/client-kms";
import * as kmsSdk from "@aws-sdk/client-kms";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindSource } from "../declared-kind/source.ts";
import { kmsClientFactory } from "./client.ts";
import { keyGenerated } from "./generated/key-fields.ts";
import { keyDeclaration } from "./key-declaration.ts";
import { kmsPages } from "./pages.ts";

const kind = requireKind("kms.services.k8s.aws/v1alpha1", "Key");

/** ACK's annotation (its kms-controller's hooks.go): the days KMS waits before it deletes the key. */
export const pendingWindowAnnotation = "kms.services.k8s.aws/pending-window-in-days";
/** ACK's default window, where the annotation is absent. */
const defaultPendingWindowDays = 7;

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({ kind, declaration: keyDeclaration, generated: keyGenerated });

export const { crdSource: keyCrdSource } = schemas;

/**
 * The keys of the account and region tagged `key` = `value`: every key listed, page by page, and
 * each one's tags read (a key whose tags the caller may not read, or gone meanwhile, is not one).
 */
async function keysTagged(ask: Ask, key: string, value: string): Promise<readonly string[]> {
  const found: string[] = [];
  for await (const page of kmsPages(ask, "ListKeys", {})) {
    for (const listed of (page["Keys"] as { KeyId?: string }[] | undefined) ?? []) {
      if (listed.KeyId !== undefined && (await taggedSo(ask, listed.KeyId, key, value)))
        found.push(listed.KeyId);
    }
  }
  return found;
}

async function taggedSo(ask: Ask, keyId: string, key: string, value: string): Promise<boolean> {
  try {
    for await (const page of kmsPages(ask, "ListResourceTags", { KeyId: keyId }, { unlessGone: true })) {
      const tags = (page["Tags"] as { TagKey?: string; TagValue?: string }[] | undefined) ?? [];
      if (tags.some((t) => t.TagKey === key && t.TagValue === value)) return true;
    }
  } catch (err) {
    // Another's key whose policy keeps its tags from this caller is not this resource's.
    if ((err as { code?: string }).code === "AccessDenied") return false;
    throw err;
  }
  return false;
}

/** What the runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const keySource = {
  kind,
  declaration: keyDeclaration,
  generated: keyGenerated,
  schemas,
  sdk: kmsSdk,
  clientFactory: kmsClientFactory,
  hooks: {
    findTagged: keysTagged,
    deleteInput: (_spec, annotations) => {
      const given = annotations[pendingWindowAnnotation];
      if (given === undefined) return { PendingWindowInDays: defaultPendingWindowDays };
      const days = Number(given);
      if (!Number.isInteger(days) || days < 7 || days > 30)
        return {
          refused: `annotation ${pendingWindowAnnotation}: "${given}" is not a whole number of days from 7 to 30 (KMS's range); fix it`,
        };
      return { PendingWindowInDays: days };
    },
  },
} satisfies DeclaredKindSource<KMSClient>;

export const keyService = declaredKindModule(keySource);
