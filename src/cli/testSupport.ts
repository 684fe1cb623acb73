// Helpers for the CLI tests: run bin/crossrole.js as a child process, the way a user does,
// and write fixture manifests into a temp dir. Not a test file itself.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const binPath = path.join(repoRoot, "bin", "crossrole.js");
export const aliceExample = path.join(repoRoot, "examples", "alice");

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `crossrole <args>` with this test's Node (24) from the repo root. The environment is
 * reduced to PATH and a throwaway HOME so that a developer's AWS or kube configuration
 * cannot change the answer; `env` adds to it.
 */
export function runCrossrole(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: repoRoot,
      env: { PATH: process.env["PATH"] ?? "", HOME: path.join(tmpdir(), "crossrole-test-no-home"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
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
