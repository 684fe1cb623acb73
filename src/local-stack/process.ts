// A server process the harness started: its output goes to a log file, it is stopped with
// SIGTERM then SIGKILL, and a watchdog ends it if this Node process dies first. And the short
// commands (helm, podman) run to completion with their output collected.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const watchdog = join(dirname(fileURLToPath(import.meta.url)), "watchdog.sh");

/** What a command run to completion printed, and how it exited. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `file args` to completion and collects its output (never rejects on a non-zero exit). */
export async function runToCompletion(
  file: string,
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {},
): Promise<CommandResult> {
  const child = spawn(file, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: options.env ?? process.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => {
    stdout += c;
  });
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

/** A failed harness step: names the step, the command and shows the tail of its log. */
export class HarnessError extends Error {
  readonly step: string;
  constructor(step: string, detail: string, command?: readonly string[], logFile?: string) {
    const parts = [`harness step "${step}" failed: ${detail}`];
    if (command) parts.push(`command: ${command.join(" ")}`);
    if (logFile) parts.push(`last lines of ${logFile}:\n${tail(logFile, 25)}`);
    super(parts.join("\n"));
    this.name = "HarnessError";
    this.step = step;
  }
}

export function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

const live = new Set<ManagedProcess>();
// Last resort on a normal or error exit: signal every group we started, synchronously.
process.on("exit", () => {
  for (const p of live) p.killNow();
});

export class ManagedProcess {
  readonly name: string;
  readonly command: readonly string[];
  readonly logFile: string;
  readonly #child: ChildProcess;
  #exited = false;
  #exitCode: number | null = null;

  constructor(name: string, command: readonly string[], logFile: string, env?: NodeJS.ProcessEnv) {
    const [file, ...args] = command;
    if (!file) throw new HarnessError(name, "empty command");
    this.name = name;
    this.command = command;
    this.logFile = logFile;
    const log = createWriteStream(logFile, { flags: "a" });
    // detached: the watchdog leads its own process group, so stop() can signal the whole group
    // and a Ctrl-C on the terminal does not race the harness's own orderly shutdown.
    this.#child = spawn(watchdog, [String(process.pid), file, ...args], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: env ?? process.env,
    });
    this.#child.stdout?.pipe(log);
    this.#child.stderr?.pipe(log);
    this.#child.on("exit", (code) => {
      this.#exited = true;
      this.#exitCode = code;
      live.delete(this);
    });
    live.add(this);
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** Throws a HarnessError if the process has already ended (used while waiting for readiness). */
  assertRunning(step: string): void {
    if (this.#exited) {
      throw new HarnessError(
        step,
        `${this.name} exited with code ${this.#exitCode}`,
        this.command,
        this.logFile,
      );
    }
  }

  killNow(): void {
    const pid = this.#child.pid;
    if (pid === undefined || this.#exited) return;
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // already gone
    }
  }

  async stop(graceMs = 10_000): Promise<void> {
    const pid = this.#child.pid;
    if (pid === undefined || this.#exited) return;
    const exited = once(this.#child, "exit");
    this.killNow();
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, graceMs);
    await exited;
    clearTimeout(timer);
  }
}
