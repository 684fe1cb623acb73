// The write-or-check step every generator shares (`npm run generate` / `generate:check`): write
// each wanted file whose content differs and remove generated files nothing produces any more,
// or, with --check, write nothing and exit 1 listing what is stale, missing or left over.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { generatedHeader } from "../src/api/crd-yaml.ts";

export interface GeneratedFiles {
  readonly root: string;
  /** Path relative to `root` → content. */
  readonly wanted: ReadonlyMap<string, string>;
  /** Folders (relative to `root`) where a generated `.yaml` nothing wants any more is removed. */
  readonly leftoverDirs: readonly string[];
  readonly check: boolean;
  /** For the messages: what is out of date, what to commit, and the summaries. */
  readonly outOfDate: string;
  readonly commit: string;
  readonly upToDate: string;
  readonly wrote: string;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Generated files on disk (they start with the generated header) that nothing wants any more. */
async function leftovers(g: GeneratedFiles): Promise<string[]> {
  const result: string[] = [];
  for (const dir of g.leftoverDirs) {
    const names = await readdir(join(g.root, dir)).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith(".yaml") && !g.wanted.has(`${dir}/${n}`))) {
      if ((await readOrNull(join(g.root, dir, name)))?.startsWith(generatedHeader))
        result.push(`${dir}/${name}`);
    }
  }
  return result;
}

export async function syncGeneratedFiles(g: GeneratedFiles): Promise<void> {
  const problems: string[] = [];
  for (const [path, content] of g.wanted) {
    const file = join(g.root, path);
    const current = await readOrNull(file);
    if (current === content) continue;
    if (g.check) problems.push(`${current === null ? "missing" : "stale"}: ${path}`);
    else {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
  for (const path of await leftovers(g)) {
    if (g.check) problems.push(`no longer generated: ${path}`);
    else await rm(join(g.root, path));
  }
  if (!g.check) {
    console.log(g.wrote);
    return;
  }
  if (problems.length > 0) {
    console.error(`${g.outOfDate}; run npm run generate and commit ${g.commit}:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(g.upToDate);
}
