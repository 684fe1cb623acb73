import assert from "node:assert/strict";
import { test } from "node:test";
import { serviceModuleLoaders } from "./loaders.ts";
import { serviceModules } from "./registry.ts";
import { servedKindNames } from "./served.ts";

test("the served kinds list names exactly the kinds that have a service module", () => {
  assert.deepEqual([...servedKindNames].sort(), serviceModules.map((m) => m.kind.kind).sort());
});

test("each served kind loads its own service module on demand", async () => {
  assert.deepEqual(Object.keys(serviceModuleLoaders).sort(), [...servedKindNames].sort());
  for (const [name, load] of Object.entries(serviceModuleLoaders)) {
    assert.equal(
      await load(),
      serviceModules.find((m) => m.kind.kind === name),
      `${name}'s loader returns its module`,
    );
  }
});
