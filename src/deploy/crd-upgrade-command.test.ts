// The command that upgrades the CRDs is written in three places an operator reads (the install
// guide, the chart's README and its NOTES): they must say the same thing, `--force-conflicts`
// included (Helm's field manager owns the CRDs it installed, so a server-side apply without it
// fails on the first upgrade).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const root = join(import.meta.dirname, "../..");
const command = "kubectl apply --server-side --force-conflicts -f helm/crossrole/crds/";

test("install.md, the chart README and NOTES give one CRD upgrade command", () => {
  for (const file of ["docs/install.md", "helm/crossrole/README.md", "helm/crossrole/templates/NOTES.txt"]) {
    const text = readFileSync(join(root, file), "utf8").replace(/\s+/g, " ");
    assert.ok(text.includes(command), `${file} gives ${command}`);
    const others = [...text.matchAll(/kubectl apply [^`\n]*crds\/?/g)]
      .map((m) => m[0])
      .filter((c) => c !== command);
    assert.deepEqual(others, [], `${file} gives no other CRD command`);
  }
});
