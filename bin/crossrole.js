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

/**
 * The V8 flags `crossrole run` runs with (see below). CROSSROLE_V8_JIT=1 keeps V8's compilers
 * (more resident memory, less CPU per reconcile; bench/README.md has the figures of both).
 */
const controllerV8Flags =
  process.env.CROSSROLE_V8_JIT === "1"
    ? ["--max-semi-space-size=2"]
    : ["--max-semi-space-size=2", "--no-opt", "--no-maglev", "--no-sparkplug", "--optimize-for-size"];

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
  // `run` gets every controller flag now, so the child need not re-exec itself (below).
  const v8Flags = process.argv[2] === "run" ? controllerV8Flags : ["--max-semi-space-size=2"];
  const child = spawnSync(
    nodeBinary,
    [...v8Flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  if (child.error) {
    process.stderr.write(`crossrole: could not start ${nodeBinary}: ${child.error.message}\n`);
    process.exit(1);
  }
  // A child killed by a signal has no status; mirror the shell's 128+n convention loosely.
  process.exit(child.status ?? 1);
} else {
  // `crossrole run`, the controller, spends its time waiting on the apiserver and AWS, not
  // computing: it runs on V8's interpreter alone (no Sparkplug, Maglev or TurboFan code, whose
  // compilers and code would stay resident) with the heap tuned for size, ~25 MB less resident
  // memory for ~40 % more CPU time (bench:e2e). V8 takes these flags only at start-up, so when
  // they are missing the process replaces itself with one that has them (same pid: what
  // started it, a container runtime or the test harness, sees no difference).
  const missing = controllerV8Flags.filter((f) => !process.execArgv.includes(f));
  if (process.argv[2] === "run" && missing.length > 0 && typeof process.execve === "function") {
    const self = fileURLToPath(import.meta.url);
    process.execve(process.execPath, [
      process.execPath,
      ...process.execArgv,
      ...missing,
      self,
      ...process.argv.slice(2),
    ]);
  }
  // Stripped sources from a cache when they are there: no TypeScript compiler in memory.
  const { useJsCache } = await import("./js-cache.js");
  useJsCache(new URL("../", import.meta.url).href);
  const { runCli } = await import("../src/cli/main.ts");
  process.exitCode = await runCli(process.argv.slice(2));
}
