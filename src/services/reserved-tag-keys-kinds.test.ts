// Every served kind's spec check refuses the reserved tag keys (src/api/reserved-tag-keys.ts),
// naming the key at the tag field, and takes an ordinary key: the controller's half of the rule,
// which refuses an object stored before the CRDs carried it. The kinds come from the catalog;
// test/integration/crd-admission.test.ts tries the same keys on the apiserver.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { minimalResource } from "../../test/support/minimal-resources.ts";
import { resourceKinds } from "../api/kinds.ts";
import { celQuote } from "../api/reserved-tag-keys.ts";
import { withDefaultTags } from "../controller/spec-default-tags.ts";
import { servedKindCatalog } from "./catalog.ts";
import { taggableKindNames } from "./served.ts";

const reserved = [
  "services.k8s.aws/namespace ",
  "services.k8s.aws/namespace",
  "crossrole.dev/owner",
  "AWS:x",
];

describe("every kind's tags refuse reserved keys, naming them", () => {
  for (const { kind } of resourceKinds) {
    test(kind, async () => {
      const module = await servedKindCatalog[kind].module();
      // The list the admission and end-to-end tests take the kinds from says the same.
      assert.equal(taggableKindNames.includes(kind), module.untaggable !== true);
      // AWS cannot tag it (a KMS alias): it has no tags field to refuse keys in.
      if (module.untaggable === true) {
        assert.equal(module.specTags, undefined);
        return;
      }
      const spec = (key: string) => {
        const base = minimalResource(kind, "shop", "tagged", "tagged", {}, "111111111111");
        return withDefaultTags(module.specTags, base["spec"] as Record<string, unknown>, { [key]: "v" }).spec;
      };
      for (const key of reserved) {
        const r = module.parseSpec(spec(key));
        assert.equal(r.ok, false, JSON.stringify(key));
        const issues = r.ok ? [] : (r.issues ?? []);
        assert.ok(
          issues.some(
            (i) =>
              i.startsWith("spec.tag") && i.includes(`${celQuote(key)} is reserved: keys starting with `),
          ),
          issues.join("\n"),
        );
      }
      assert.equal(module.parseSpec(spec("team")).ok, true);
    });
  }
});
