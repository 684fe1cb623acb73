// crossrole's container image (scripts/build-image.sh) and podman, as the tests use them. Every
// podman call goes through the containers.conf the build script writes: on these machines crun
// cannot set rlimits or use hybrid cgroups, and runc with no default ulimits works.
import { join } from "node:path";
import { type CommandResult, HarnessError, runToCompletion } from "../../src/local-stack/process.ts";
import { cacheDir, repoRoot } from "../../src/local-stack/versions.ts";

/** Written by scripts/build-image.sh. */
export const containersConf = join(cacheDir, "image", "containers.conf");

/** The environment podman runs in (CONTAINERS_CONF set). */
export function podmanEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF: containersConf };
}

/** `podman` with the flags every container run here needs before the run's own flags. */
export const podmanRunPrefix: readonly string[] = ["podman", "--runtime", "runc", "run"];

/** Runs a command to completion in the repository root (never rejects on a non-zero exit). */
export function runCommand(
  command: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandResult> {
  const [file, ...args] = command;
  if (!file) throw new Error("empty command");
  return runToCompletion(file, args, { env, cwd: repoRoot });
}

/** `podman <args>` with CONTAINERS_CONF. */
export function podman(args: readonly string[]): Promise<CommandResult> {
  return runCommand(["podman", ...args], podmanEnv());
}

/**
 * Builds localhost/crossrole:<version> with scripts/build-image.sh, or reuses it when nothing
 * changed (layer cache: seconds); resolves with the image reference.
 */
export async function buildImage(): Promise<string> {
  const command = ["bash", join(repoRoot, "scripts/build-image.sh")];
  const r = await runCommand(command);
  const ref = r.stdout.trim().split("\n").pop() ?? "";
  if (r.code !== 0 || !ref.startsWith("localhost/crossrole:")) {
    throw new HarnessError(
      "build the container image",
      `exit ${r.code}\n${r.stderr.trimEnd().split("\n").slice(-25).join("\n")}`,
      command,
    );
  }
  return ref;
}
