// The npm package of `scripts/release.sh`: compiled JavaScript (tsconfig.release.json) laid out
// as the repository is — bin/, src/, config/ and package.json at its root, so every relative path
// the sources use holds — with package.json made publishable (no `private`, no dev tooling).
// `npm install <tarball>` then needs only Node 24: no TypeScript is stripped at run time (Node
// refuses to strip types under node_modules). Prints the tarball's path.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const out = join(root, "dist/release");
const stage = join(out, "stage");
const bin = join(root, "node_modules/.bin");
const step = (s: string) => process.stderr.write(`[release] ${s}\n`);

rmSync(stage, { recursive: true, force: true });
step("compiling the sources (tsc -p tsconfig.release.json)");
execFileSync(join(bin, "tsc"), ["-p", join(root, "tsconfig.release.json")], { cwd: root, stdio: "inherit" });

// The entry: the same launcher, loading the compiled CLI (no js-cache: there is no TypeScript).
const launcher = readFileSync(join(root, "bin/crossrole.js"), "utf8");
const entry = 'await import("../src/cli/main.ts")';
if (!launcher.includes(entry)) throw new Error(`bin/crossrole.js no longer has ${entry}`);
mkdirSync(join(stage, "bin"), { recursive: true });
writeFileSync(
  join(stage, "bin/crossrole.js"),
  launcher.replace(entry, 'await import("../src/cli/main.js")'),
  {
    mode: 0o755,
  },
);
cpSync(join(root, "bin/js-cache.js"), join(stage, "bin/js-cache.js"));
for (const dir of ["config"]) cpSync(join(root, dir), join(stage, dir), { recursive: true });
for (const file of ["README.md", "LICENSE", "CHANGELOG.md"]) cpSync(join(root, file), join(stage, file));

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const published = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  type: pkg.type,
  license: pkg.license,
  bin: pkg.bin,
  engines: pkg.engines,
  files: ["bin", "src", "config", "README.md", "LICENSE", "CHANGELOG.md"],
  dependencies: pkg.dependencies,
};
writeFileSync(join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);

const npmOut = join(out, "npm");
mkdirSync(npmOut, { recursive: true });
const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", npmOut], {
  cwd: stage,
  encoding: "utf8",
})
  .trim()
  .split("\n")
  .at(-1);
process.stdout.write(`${join(npmOut, packed ?? "")}\n`);
