// The AWS API emulator (moto in server mode) on a free loopback port. Multi-account: keys
// returned by sts:AssumeRole for a role in account N act in account N, so tests can show a
// resource landed in one account and not another.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./ports.ts";
import { HarnessError, ManagedProcess } from "./process.ts";
import { binaries, motoVersion } from "./versions.ts";
import { waitFor } from "./wait.ts";

export interface EmulatorOptions {
  readonly dir: string;
  /** Record every request moto serves to a JSON-lines file (what the code under test SENT). */
  readonly recording?: boolean;
  readonly startTimeoutMs?: number;
}

export interface Emulator {
  /** http://127.0.0.1:<port> — the endpoint for every AWS client (S3 needs forcePathStyle). */
  readonly endpoint: string;
  /** The recorder file when recording is on. */
  readonly recordingPath: string | undefined;
  /** The account moto gives the default (non-assumed) credentials. */
  readonly defaultAccount: string;
  /** Wipes all emulated state (POST /moto-api/reset). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmulator(opts: EmulatorOptions): Promise<Emulator> {
  if (!existsSync(binaries.motoServer)) {
    throw new HarnessError(
      "start AWS emulator",
      `${binaries.motoServer} is missing; run scripts/install-emulator.sh (it installs moto ${motoVersion})`,
    );
  }
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const recordingPath = opts.recording ? join(opts.dir, "moto-recording.jsonl") : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // S3 names are global in moto; keep each account's buckets private to it, as AWS does.
    MOTO_S3_ALLOW_CROSSACCOUNT_ACCESS: "false",
    ...(recordingPath ? { MOTO_ENABLE_RECORDING: "true", MOTO_RECORDER_FILEPATH: recordingPath } : {}),
  };
  // These would override moto's key-to-account mapping and put every request in one account.
  delete env["MOTO_ACCOUNT_ID"];
  const command = [binaries.motoServer, "-H", "127.0.0.1", "-p", String(port)];
  const proc = new ManagedProcess("moto", command, join(opts.dir, "moto.log"), env);
  await waitFor(
    async () => {
      proc.assertRunning("start AWS emulator");
      const res = await fetch(`${endpoint}/moto-api/`);
      return res.ok;
    },
    { what: "moto /moto-api/", timeoutMs: opts.startTimeoutMs ?? 60_000 },
  ).catch(async (err: unknown) => {
    await proc.stop();
    throw err instanceof HarnessError
      ? err
      : new HarnessError("start AWS emulator", String(err), command, proc.logFile);
  });
  return {
    endpoint,
    recordingPath,
    defaultAccount: "123456789012",
    async reset() {
      const res = await fetch(`${endpoint}/moto-api/reset`, { method: "POST" });
      if (!res.ok) throw new Error(`moto reset answered ${res.status}`);
    },
    stop: () => proc.stop(),
  };
}
