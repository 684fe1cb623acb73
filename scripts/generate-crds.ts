// Writes one YAML per CRD in src/crd-sources.ts into config/crd/ (`npm run generate`).
// With --check it writes nothing, and exits 1 listing the files that are stale, missing or no
// longer generated (`npm run generate:check`, run in CI).
import { join } from "node:path";
import { buildCrd } from "../src/api/crd.ts";
import { crdFileName, crdToYaml } from "../src/api/crd-yaml.ts";
import { loadCrdSources } from "../src/crd-sources.ts";
import { syncGeneratedFiles } from "./generated-files.ts";

const wanted = new Map(
  (await loadCrdSources()).map((source) => {
    const crd = buildCrd(source);
    return [`config/crd/${crdFileName(crd)}`, crdToYaml(crd)] as const;
  }),
);

await syncGeneratedFiles({
  root: join(import.meta.dirname, ".."),
  wanted,
  leftoverDirs: ["config/crd"],
  check: process.argv.includes("--check"),
  outOfDate: "CRDs are out of date",
  commit: "config/crd/",
  upToDate: `config/crd/ is up to date (${wanted.size} CRDs)`,
  wrote: `wrote ${wanted.size} CRDs to config/crd/`,
});
