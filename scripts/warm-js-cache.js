// Fills the cache of stripped sources bin/crossrole.js loads (bin/js-cache.js) with every
// TypeScript file under src/ (tests aside), so that `crossrole` never loads Node's TypeScript
// compiler: run by the image build (its cache ships in the image) and by bench:e2e before it
// starts a controller. Idempotent: a source already there is skipped. Prints the directory.
//   node scripts/warm-js-cache.js [--dir <cache dir>]
// Plain JavaScript, so that the image build runs it with nothing but node.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join } from "node:path";
import { jsCacheDir, jsCacheName } from "../bin/js-cache.js";

const dirFlag = process.argv.indexOf("--dir");
const dir = dirFlag > 0 ? join(process.argv[dirFlag + 1] ?? "", process.version) : jsCacheDir();
const src = new URL("../src/", import.meta.url).pathname;
// stripTypeScriptTypes announces itself as experimental on every first use; it is what Node's
// own loader runs, and this script's output is checked by every test that runs the bin.
process.removeAllListeners("warning");

function* sources(d) {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) yield p;
  }
}

mkdirSync(dir, { recursive: true });
const have = new Set(readdirSync(dir));
let written = 0;
for (const file of sources(src)) {
  const source = readFileSync(file);
  const name = jsCacheName(source);
  if (have.has(name)) continue;
  const js = stripTypeScriptTypes(source.toString("utf8"), { mode: "strip" });
  // Write-then-rename: a concurrent reader sees the whole file or none.
  const tmp = join(dir, `.${name}.${process.pid}`);
  writeFileSync(tmp, js);
  renameSync(tmp, join(dir, name));
  written++;
}
process.stdout.write(`${dir} (${written} new)\n`);
