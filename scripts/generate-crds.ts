// Writes one YAML per CRD in src/crd-sources.ts into config/crd/ (`npm run generate`).
// With --check it writes nothing, and exits 1 listing the files that are stale, missing or no
// longer generated (`npm run generate:check`, run in CI).
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildCrd } from "../src/api/crd.ts";
import { crdFileName, crdToYaml, generatedHeader } from "../src/api/crd-yaml.ts";
import { crdSources } from "../src/crd-sources.ts";

const outDir = join(import.meta.dirname, "..", "config", "crd");
const check = process.argv.includes("--check");

const wanted = new Map(
  crdSources.map((source) => {
    const crd = buildCrd(source);
    return [crdFileName(crd), crdToYaml(crd)] as const;
  }),
);

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Generated files present on disk that no CRD source produces any more. */
async function leftovers(): Promise<string[]> {
  const names = await readdir(outDir).catch(() => [] as string[]);
  const result: string[] = [];
  for (const name of names.filter((n) => n.endsWith(".yaml") && !wanted.has(n))) {
    if ((await readOrNull(join(outDir, name)))?.startsWith(generatedHeader)) result.push(name);
  }
  return result;
}

const problems: string[] = [];
if (!check) await mkdir(outDir, { recursive: true });
for (const [name, content] of wanted) {
  const path = join(outDir, name);
  const current = await readOrNull(path);
  if (current === content) continue;
  if (check) problems.push(`${current === null ? "missing" : "stale"}: config/crd/${name}`);
  else await writeFile(path, content);
}
for (const name of await leftovers()) {
  if (check) problems.push(`no longer generated: config/crd/${name}`);
  else await rm(join(outDir, name));
}

if (check) {
  if (problems.length > 0) {
    console.error(
      `CRDs are out of date; run npm run generate and commit config/crd/:\n  ${problems.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log(`config/crd/ is up to date (${wanted.size} CRDs)`);
} else {
  console.log(`wrote ${wanted.size} CRDs to config/crd/`);
}
