// The kinds this crossrole reconciles, by kind name, without loading their modules (and the AWS
// SDK): `crossrole explain` and flag validation need the list, not the code. Read from the one
// catalog (catalog.ts).
import { type KindName, resourceKinds } from "../api/kinds.ts";
import type { RuntimeDeclaration } from "../codegen/declaration.ts";
import { servedKindCatalog, servedKinds } from "./catalog.ts";

export const servedKindNames: readonly string[] = servedKinds;

export function isServed(kindName: string): boolean {
  return Object.hasOwn(servedKindCatalog, kindName);
}

/** The served kinds as the API names them (group, version, kind, plural). */
export const servedResourceKinds = resourceKinds.filter((k) => isServed(k.kind));

/** The served kinds' services (s3, sqs, ...): the only prefixes a CARM lookup ever composes. */
export const servedServices: readonly string[] = servedResourceKinds.map((k) => k.service);

/**
 * The served kinds AWS can tag (every one but a KMS Alias, whose owner the controller records):
 * the ones with a tags field, reserved keys to refuse and default tags to add.
 */
export const taggableKindNames: readonly KindName[] = resourceKinds
  .map((k) => k.kind)
  .filter((k) => {
    const runtime: RuntimeDeclaration | undefined = servedKindCatalog[k].declaration.runtime;
    return runtime?.tags !== undefined;
  });
