// The harness itself: it leaves no process behind even when the process that started it is
// killed outright, and a failed step says which step, which command and what the log said.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ManagedProcess } from "../../src/local-stack/process.ts";
import { HarnessError, waitFor } from "../../src/local-stack/stack.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("servers end when the process that started them is killed with SIGKILL", async () => {
  const child = spawn(process.execPath, [join(repoRoot, "test/harness/testdata/start-and-report.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (b: Buffer) => {
    out += b.toString();
  });
  const report = await waitFor(
    () =>
      out.includes("\n")
        ? (JSON.parse(out.split("\n")[0] ?? "") as { dir: string; pids: number[] })
        : undefined,
    { what: "the child to report its stack", timeoutMs: 60_000 },
  );
  // etcd, kube-apiserver and moto, each under its watchdog.
  assert.ok(report.pids.length >= 3, `expected at least 3 server processes, got ${report.pids.join(",")}`);
  assert.ok(report.pids.every(alive));
  child.kill("SIGKILL");
  await waitFor(() => report.pids.every((p) => !alive(p)), {
    what: "every server process to end",
    timeoutMs: 20_000,
  });
  await rm(report.dir, { recursive: true, force: true });
});

test("a missing binary fails the step with the name of the script that provides it", async () => {
  const dir = await mkdtemp(join(tmpdir(), "crossrole-harness-"));
  try {
    const child = spawn(
      process.execPath,
      [join(repoRoot, "test/harness/testdata/start-without-binaries.ts")],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, CROSSROLE_CACHE: join(dir, "empty-cache") },
      },
    );
    let out = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
    });
    const [code] = (await once(child, "exit")) as [number];
    assert.equal(code, 0);
    assert.match(out, /harness step "start etcd" failed/);
    assert.match(out, /run scripts\/build-control-plane\.sh/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a server that exits during start-up is reported with its step, command and log tail", async () => {
  const dir = await mkdtemp(join(tmpdir(), "crossrole-harness-"));
  try {
    const command = ["bash", "-c", "echo 'listen tcp: address already in use' >&2; exit 3"];
    const proc = new ManagedProcess("fake-server", command, join(dir, "fake.log"));
    const err = await waitFor(
      () => {
        try {
          proc.assertRunning("start fake-server");
          return undefined;
        } catch (e) {
          return e as Error;
        }
      },
      { what: "the fake server to exit", timeoutMs: 10_000 },
    );
    assert.ok(err instanceof HarnessError);
    assert.match(err.message, /harness step "start fake-server" failed: fake-server exited with code 3/);
    assert.match(err.message, /command: bash -c/);
    assert.match(err.message, /address already in use/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
