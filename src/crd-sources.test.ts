// Every kind crossrole knows is in the catalog of served kinds (the compiler checks it; this
// checks the order and that each entry's CRD, module and declaration are the kind's own).
import assert from "node:assert/strict";
import { test } from "node:test";
import { resourceKinds } from "./api/kinds.ts";
import { loadResourceCrdSources } from "./crd-sources.ts";
import { servedKindCatalog } from "./services/catalog.ts";
import { servedKindNames } from "./services/served.ts";

test("every known kind is served, with its own CRD, module and declaration", async () => {
  assert.deepEqual(
    (await loadResourceCrdSources()).map((s) => s.names.kind),
    resourceKinds.map((k) => k.kind),
  );
  assert.deepEqual([...servedKindNames].sort(), resourceKinds.map((k) => k.kind).sort());
  for (const k of resourceKinds) {
    const entry = servedKindCatalog[k.kind];
    assert.equal((await entry.module()).kind, k, `${k.kind}'s module`);
    assert.equal(entry.declaration.kind, k.kind, `${k.kind}'s declaration`);
    // The declaration names the AWS model (`logs`), the API group ACK's controller
    // (`cloudwatchlogs`): the kind's folder and generated module are the model's.
    assert.ok(
      entry.generated.path.startsWith(`src/services/${entry.declaration.service}/`),
      `${k.kind}'s generated module is under its declaration's service`,
    );
  }
});
