// Writes each declared kind's generated module (src/codegen: the zod schema of every spec field
// with AWS's documentation and constraints, and the spec⇄AWS name tables) from its declaration
// and the AWS API models pinned in scripts/versions.env (`npm run generate`). With --check it
// writes nothing and exits 1 listing the stale files (`npm run generate:check`, run in CI).
import { execFileSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { lookupKind } from "../src/api/kinds.ts";
import { botocoreVersion, loadModel, modelsDir } from "../src/codegen/aws-model.ts";
import type { KindDeclaration } from "../src/codegen/declaration.ts";
import { emitDocs } from "../src/codegen/emit-docs.ts";
import { emitKind } from "../src/codegen/emit-kind.ts";
import { resolveGroups } from "../src/codegen/field-groups.ts";
import { declaredFields, specFields, statusFields } from "../src/codegen/field-tree.ts";
import { resolveRuntime } from "../src/codegen/object-address.ts";
import { servedKindCatalog } from "../src/services/catalog.ts";
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
const declaredKinds = Object.values(servedKindCatalog);
for (const { declaration, generated } of declaredKinds) {
  const { path: output, prefix } = generated;
  const model = loadModel(dir, declaration.service);
  const fields = specFields(declaration, model);
  const decl: KindDeclaration = declaration;
  const declared = {
    ...declaredFields(declaration, fields),
    fieldGroups: resolveGroups(declaration, fields, model),
    reservedTagPrefixes: decl.reservedTagPrefixes ?? {},
    serviceName: decl.runtime?.service ?? declaration.service,
    ...(decl.runtime === undefined
      ? {}
      : {
          runtime: resolveRuntime({ ...decl, runtime: decl.runtime }, model, (service) =>
            loadModel(dir, service),
          ),
        }),
  };
  const provenance = `${relative(root, join(root, "src/services", declaration.service))}/*-declaration.ts (${declaration.kind}) and botocore ${version}'s ${declaration.service} ${model.apiVersion} model`;
  const docs = `docs/fields/${declaration.kind.toLowerCase()}.md`;
  wanted.set(
    docs,
    formatted(
      docs,
      emitDocs(fields, {
        kind: declaration.kind,
        // The kind's API group (`cloudwatchlogs`), which is not always its model's name (`logs`).
        apiVersion: `${lookupKind(declaration.kind)?.group ?? `${declaration.service}.services.k8s.aws`}/v1alpha1`,
        provenance: `its declaration and botocore ${version}'s ${declaration.service} ${model.apiVersion} model`,
        declared,
        ...(decl.runtime?.assigned === undefined ? {} : { assignedId: decl.runtime.assigned.status }),
      }),
    ),
  );
  const source = emitKind(
    fields,
    {
      prefix,
      provenance,
      apiImport: relative(dirname(join(root, output)), join(root, "src/api")),
      servicesImport: relative(dirname(join(root, output)), join(root, "src/services")),
      codegenImport: relative(dirname(join(root, output)), join(root, "src/codegen")),
    },
    statusFields(declaration, model),
    declared,
  );
  wanted.set(output, formatted(output, source));
}

await syncGeneratedFiles({
  root,
  wanted,
  leftoverDirs: [],
  check: process.argv.includes("--check"),
  outOfDate: "generated kinds are out of date",
  commit: "src/services/*/generated/ docs/fields/",
  upToDate: `generated kinds and docs/fields/ are up to date (${declaredKinds.length} kinds)`,
  wrote: `wrote ${declaredKinds.length} generated kinds and their docs/fields/ pages`,
});
