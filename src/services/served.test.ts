import assert from "node:assert/strict";
import { test } from "node:test";
import { serviceModules } from "./index.ts";
import { servedKindNames } from "./served.ts";

test("the served kinds list names exactly the kinds that have a service module", () => {
  assert.deepEqual([...servedKindNames].sort(), serviceModules.map((m) => m.kind.kind).sort());
});
