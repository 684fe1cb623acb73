// Helpers for the CLI tests: run `crossrole` in-process through runCli (the same entry the bin
// calls) or, for the few tests that must see what a user's shell sees (the bin, the exit
// status, a real process environment for the AWS SDK), as a child process; and write fixture
// manifests into a temp dir. Not a test file itself.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../../src/cli/main.ts";
import { type CommandResult, runToCompletion } from "../../src/local-stack/process.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";

export { repoRoot };
export const binPath = path.join(repoRoot, "bin", "crossrole.js");
export const aliceExample = path.join(repoRoot, "examples", "alice");

export type CliRun = CommandResult;

/**
 * Runs `crossrole <args>` from the repo root. The environment is reduced to PATH and a
 * throwaway HOME so that a developer's AWS or kube configuration cannot change the answer;
 * `env` adds to it. In-process by default (fast: no Node start-up per case); `"process"` runs
 * bin/crossrole.js with this test's Node (24), for what only a real process shows — and where
 * the AWS SDK, which reads the process environment, must see `env`.
 */
export async function runCrossrole(
  args: readonly string[],
  env: Record<string, string> = {},
  how: "in-process" | "process" = "in-process",
): Promise<CliRun> {
  const fullEnv = {
    PATH: process.env["PATH"] ?? "",
    HOME: path.join(tmpdir(), "crossrole-test-no-home"),
    ...env,
  };
  if (how === "process")
    return runToCompletion(process.execPath, [binPath, ...args], { env: fullEnv, cwd: repoRoot });
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: fullEnv,
    cwd: repoRoot,
  });
  return { code, stdout, stderr };
}

const createdDirs: string[] = [];

/** Writes `files` (relative path → content) into a new temp dir and returns its path. */
export async function manifestDir(files: Readonly<Record<string, string>>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "crossrole-cli-test-"));
  createdDirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return dir;
}

/** Parses `-o json` output, failing the test with the CLI's stderr if it is not JSON. */
export function parseJson(run: CliRun): Record<string, unknown> {
  try {
    return JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** Removes every dir manifestDir created; call from `after`. */
export async function removeManifestDirs(): Promise<void> {
  await Promise.all(createdDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
