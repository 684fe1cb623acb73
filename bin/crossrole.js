#!/usr/bin/env -S node --max-semi-space-size=2
// --max-semi-space-size=2: the controller is long-running and allocation-heavy (watch events,
// AWS responses); a small young generation keeps its resident memory near its live heap (about
// 100 MB less with 500 resources) for more, cheap scavenges. V8 reads it only at start-up, so
// it is set here (and on the re-exec below); launch lines elsewhere (containers) should match.
// The `crossrole` command. The sources are TypeScript that only Node >= 24 runs directly, but
// the PATH node may be older (it is 20 on the dev machines): in that case re-run this file
// with the Node 24 binary the project installs from npm (the `node` devDependency).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  let nodeBinary;
  try {
    nodeBinary = createRequire(import.meta.url).resolve("node/bin/node");
  } catch {
    process.stderr.write(
      `crossrole needs Node.js 24 or newer (this is ${process.version}); run \`npm install\` in the crossrole package first.\n`,
    );
    process.exit(2);
  }
  const child = spawnSync(
    nodeBinary,
    ["--max-semi-space-size=2", fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  if (child.error) {
    process.stderr.write(`crossrole: could not start ${nodeBinary}: ${child.error.message}\n`);
    process.exit(1);
  }
  // A child killed by a signal has no status; mirror the shell's 128+n convention loosely.
  process.exit(child.status ?? 1);
} else {
  const { runCli } = await import("../src/cli/main.ts");
  process.exitCode = await runCli(process.argv.slice(2));
}
