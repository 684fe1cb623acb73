// What each kind's declaration says holds in what is served: its immutable fields, and only
// they, carry the CRD rule that refuses a change (`self == oldSelf`), and its identifier field is
// the one the module names AWS objects by.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { buildCrd } from "../api/crd.ts";
import { type KindName, resourceKinds } from "../api/kinds.ts";
import { servedKindCatalog } from "./catalog.ts";

/** The kind's generated `<prefix>Declared` (read through the catalog, which names the kinds). */
async function declaredOf(kind: KindName): Promise<{ identifier: string; immutable: readonly string[] }> {
  const { path, prefix } = servedKindCatalog[kind].generated;
  const generated = await import(join(import.meta.dirname, "../..", path));
  return generated[`${prefix}Declared`];
}

describe("each kind as its declaration says", () => {
  for (const k of resourceKinds) {
    test(`${k.kind}: the declared immutable fields, and only they, refuse a change at admission`, async () => {
      const declared = await declaredOf(k.kind);
      const crd = buildCrd(await servedKindCatalog[k.kind].crd());
      const spec = crd.spec.versions[0]?.schema.openAPIV3Schema.properties?.["spec"];
      const refusing = Object.entries(spec?.properties ?? {})
        .filter(([, s]) => (s["x-kubernetes-validations"] ?? []).some((r) => r.rule === "self == oldSelf"))
        .map(([name]) => name)
        .sort();
      assert.deepEqual(refusing, [...declared.immutable].sort());
    });

    test(`${k.kind}: the module names AWS objects by the declared identifier`, async () => {
      const declared = await declaredOf(k.kind);
      const module = await servedKindCatalog[k.kind].module();
      assert.equal(module.identifierField, `spec.${declared.identifier}`);
    });
  }
});
