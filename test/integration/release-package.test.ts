// The npm package scripts/release.sh builds: installed with `npm install <tarball>` in an empty
// directory, outside the checkout, it runs with Node alone — compiled JavaScript, no TypeScript,
// no dev tooling — and explains Alice's story from its manifests.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { repoRoot } from "../../src/local-stack/versions.ts";
import { crossroleVersion } from "../../src/version.ts";

const dir = mkdtempSync(join(tmpdir(), "crossrole-package-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under `at`, relative to it. */
function filesUnder(at: string, prefix = ""): string[] {
  return readdirSync(at, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(at, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

test("the npm package installs in an empty directory and runs `crossrole explain --from examples/alice` on Node alone", {
  timeout: 180_000,
}, () => {
  const tarball = execFileSync(process.execPath, [join(repoRoot, "scripts/release-package.ts")], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  assert.match(tarball, /dist\/release\/npm\/crossrole-\d+\.\d+\.\d+\.tgz$/);
  writeFileSync(join(dir, "package.json"), '{"name":"an-operators-workstation","private":true}\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", tarball], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const installed = join(dir, "node_modules/crossrole");
  const files = filesUnder(installed);
  assert.deepEqual(
    files.filter((f) => f.endsWith(".ts")),
    [],
    "compiled JavaScript only",
  );
  assert.ok(files.includes("src/cli/main.js"));
  assert.ok(!files.some((f) => f.endsWith(".test.js")), "no tests in the package");

  const crossrole = (...args: string[]) =>
    spawnSync(process.execPath, [join(dir, "node_modules/.bin/crossrole"), ...args], {
      cwd: dir,
      encoding: "utf8",
      // Nothing of the checkout: no CROSSROLE_* cache, no PATH to its tools.
      env: { PATH: "/usr/bin:/bin", HOME: dir },
    });
  const version = crossrole("--version");
  assert.equal(version.status, 0, version.stderr);
  const explained = crossrole(
    "explain",
    "bucket/shop-billing-exports",
    "-n",
    "shop",
    "--from",
    join(repoRoot, "examples/alice"),
  );
  assert.equal(explained.status, 0, explained.stderr);
  assert.match(
    explained.stdout,
    /^Bucket shop\/shop-billing-exports will be reconciled in account 222222222222 \(eu-west-1\) as arn:aws:iam::222222222222:role\/central-it/,
  );
});

test("scripts/release.sh: the image as a tarball, and the packaged chart naming that image", {
  timeout: 300_000,
}, () => {
  execFileSync("bash", [join(repoRoot, "scripts/release.sh")], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const version = crossroleVersion;
  const manifest = JSON.parse(
    execFileSync(
      "tar",
      ["-xOf", join(repoRoot, `dist/release/image/crossrole-${version}.tar`), "manifest.json"],
      {
        encoding: "utf8",
      },
    ),
  ) as { RepoTags?: string[] }[];
  assert.deepEqual(manifest[0]?.RepoTags, [`localhost/crossrole:${version}`]);
  const values = execFileSync(
    "tar",
    ["-xzOf", join(repoRoot, `dist/release/chart/crossrole-${version}.tgz`), "crossrole/values.yaml"],
    { encoding: "utf8" },
  );
  assert.match(
    values,
    /^image:\n {2}repository: localhost\/crossrole\n(?: {2}#.*\n)* {2}tag: "\d+\.\d+\.\d+"$/m,
  );
  assert.ok(values.includes(`tag: "${version}"`));
});
