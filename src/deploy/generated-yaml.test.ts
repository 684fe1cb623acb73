// Every generated manifest means the same to YAML 1.1 (kubectl and helm parse it so) as to
// YAML 1.2 (the `yaml` package, which generates and reads them here). An unquoted `N` in an enum
// is the string "N" to one and false to the other; the generators quote such strings.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { parseAllDocuments } from "yaml";

const root = join(import.meta.dirname, "..", "..");
const dirs = ["config/crd", "config/rbac", "config/default", "helm/crossrole/crds"];

test("generated YAML reads the same as YAML 1.1 and as YAML 1.2", async () => {
  let files = 0;
  for (const dir of dirs) {
    for (const name of (await readdir(join(root, dir))).filter((n) => n.endsWith(".yaml"))) {
      const text = await readFile(join(root, dir, name), "utf8");
      const as = (version: "1.1" | "1.2") => parseAllDocuments(text, { version }).map((d) => d.toJS());
      assert.deepEqual(as("1.1"), as("1.2"), `${dir}/${name} means something else to kubectl and helm`);
      files++;
    }
  }
  assert.ok(files > 20, `only ${files} files checked`);
});
