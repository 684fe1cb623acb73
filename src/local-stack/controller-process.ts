// The real controller process (`crossrole run`) against a local stack: used by the main job
// (scripts/main.ts), the end-to-end tests and the e2e benchmark.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports.ts";
import type { Stack } from "./stack.ts";
import { repoRoot } from "./versions.ts";
import { waitFor } from "./wait.ts";

/** The emulator's default credentials: the controller's own identity, account 123456789012. */
export const controllerCredentials = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "controller-secret",
};
export const controllerAccount = "123456789012";
export const region = "us-east-1";

export interface ControllerProcess {
  readonly healthURL: string;
  readonly metricsURL: string;
  readonly logFile: string;
  /** Every JSON log line so far. */
  logs(): Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  readonly exited: boolean;
  readonly pid: number | undefined;
}

export interface ControllerProcessOptions {
  readonly name?: string;
  readonly logLevel?: string;
  /** Wait until /readyz answers 200 (default true). */
  readonly waitReady?: boolean;
  /** Another kubeconfig (e.g. a ServiceAccount token's) instead of the stack's admin one. */
  readonly kubeconfigPath?: string;
  /** Another AWS endpoint than the stack's emulator (e.g. a fault-injecting proxy in front of it). */
  readonly awsEndpoint?: string;
  /**
   * Environment changes over the default (static controller keys, region): a value replaces,
   * `undefined` removes (e.g. the keys, for a controller that must find IRSA's token file).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Leave out --aws-region, so the environment decides (AWS_REGION, AWS_DEFAULT_REGION). */
  readonly regionFromEnv?: boolean;
}

let warmed: Promise<unknown> | undefined;
/**
 * Fills the stripped-source cache the bin loads (scripts/warm-js-cache.js), once per process,
 * so the controller runs as it does from the image: without Node's TypeScript compiler loaded.
 */
function warmJsCache(): Promise<unknown> {
  warmed ??= promisify(execFile)(process.execPath, [join(repoRoot, "scripts/warm-js-cache.js")]);
  return warmed;
}

/** Starts `crossrole run` on the stack with `extraArgs` appended. */
export async function startControllerProcess(
  stack: Stack,
  extraArgs: readonly string[] = [],
  opts: ControllerProcessOptions = {},
): Promise<ControllerProcess> {
  const name = opts.name ?? "controller";
  await warmJsCache();
  const healthPort = await freePort();
  const metricsPort = await freePort();
  const logFile = join(stack.dir, `${name}.log`);
  const args = [
    // The flag bin/crossrole.js's shebang sets (node ignores a shebang when it runs the file).
    "--max-semi-space-size=2",
    join(repoRoot, "bin/crossrole.js"),
    "run",
    `--kubeconfig=${opts.kubeconfigPath ?? stack.kubeconfigPath}`,
    `--aws-endpoint-url=${opts.awsEndpoint ?? stack.awsEndpoint}`,
    ...(opts.regionFromEnv ? [] : [`--aws-region=${region}`]),
    `--healthz-addr=127.0.0.1:${healthPort}`,
    `--metrics-addr=127.0.0.1:${metricsPort}`,
    `--log-level=${opts.logLevel ?? "debug"}`,
    ...extraArgs,
  ];
  const env: Record<string, string | undefined> = {
    ...process.env,
    AWS_ACCESS_KEY_ID: controllerCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: controllerCredentials.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_REGION: region,
    ...opts.env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env });
  const file = createWriteStream(logFile);
  const lines: Record<string, unknown>[] = [];
  let partial = "";
  child.stdout?.on("data", (b: Buffer) => {
    file.write(b);
    partial += b.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr?.pipe(file);
  let exited = false;
  const exit = once(child, "exit").then(([code]) => {
    exited = true;
    return code as number | null;
  });
  const proc: ControllerProcess = {
    pid: child.pid,
    healthURL: `http://127.0.0.1:${healthPort}`,
    metricsURL: `http://127.0.0.1:${metricsPort}`,
    logFile,
    logs: () => lines,
    get exited() {
      return exited;
    },
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (exited) return exit;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
  if (opts.waitReady ?? true) {
    await waitFor(
      async () => {
        if (proc.exited) throw new Error(`the controller exited; see ${logFile}`);
        return (await fetch(`${proc.healthURL}/readyz`)).ok;
      },
      { what: "the controller's /readyz", timeoutMs: 30_000 },
    ).catch(async (err: unknown) => {
      await proc.stop();
      throw err;
    });
  }
  return proc;
}
