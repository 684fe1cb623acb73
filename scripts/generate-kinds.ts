// Writes each declared kind's generated module (src/codegen: the zod schema of every spec field
// with AWS's documentation and constraints, and the spec⇄AWS name tables) from its declaration
// and the AWS API models pinned in scripts/versions.env (`npm run generate`). With --check it
// writes nothing and exits 1 listing the stale files (`npm run generate:check`, run in CI).
import { execFileSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { botocoreVersion, loadModel, modelsDir } from "../src/codegen/aws-model.ts";
import { emitKind } from "../src/codegen/emit-kind.ts";
import { specFields, statusFields } from "../src/codegen/field-tree.ts";
import { declaredKinds } from "../src/codegen/kind-declarations.ts";
import { syncGeneratedFiles } from "./generated-files.ts";

const root = join(import.meta.dirname, "..");
const dir = modelsDir(root);
const version = botocoreVersion(root);

/** The repository's formatter over one file's content, so that generated files pass `npm run lint`. */
function formatted(path: string, source: string): string {
  return execFileSync(join(root, "node_modules/.bin/biome"), ["format", `--stdin-file-path=${path}`], {
    cwd: root,
    input: source,
    encoding: "utf8",
  });
}

const wanted = new Map<string, string>();
for (const { declaration, output, prefix } of declaredKinds) {
  const model = loadModel(dir, declaration.service);
  const source = emitKind(
    specFields(declaration, model),
    {
      prefix,
      provenance: `${relative(root, join(root, "src/services", declaration.service))}/*-declaration.ts (${declaration.kind}) and botocore ${version}'s ${declaration.service} ${model.apiVersion} model`,
      apiImport: relative(dirname(join(root, output)), join(root, "src/api")),
      servicesImport: relative(dirname(join(root, output)), join(root, "src/services")),
    },
    statusFields(declaration, model),
  );
  wanted.set(output, formatted(output, source));
}

await syncGeneratedFiles({
  root,
  wanted,
  leftoverDirs: [],
  check: process.argv.includes("--check"),
  outOfDate: "generated kinds are out of date",
  commit: "src/services/*/generated/",
  upToDate: `generated kinds are up to date (${wanted.size} kinds)`,
  wrote: `wrote ${wanted.size} generated kinds`,
});
