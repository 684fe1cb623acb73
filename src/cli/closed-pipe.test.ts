// `crossrole audit --from examples/alice | head -1`: a reader that closes the pipe early ends
// the command quietly with exit 0, for every command that prints a lot. Real processes (the
// bin), because the EPIPE only exists between two of them: the test closes its end of the
// child's stdout before the child has even started, so every write the child makes hits it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { describe, test } from "node:test";
import { aliceExample, binPath, repoRoot } from "../../test/support/run-crossrole.ts";
import { endQuietlyWhenReaderLeaves, ignoreClosedPipe } from "./io.ts";

function runWithClosedStdout(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("a closed stdout ends the command quietly", { concurrency: true }, () => {
  const alice = ["--from", aliceExample];
  const runs: readonly (readonly string[])[] = [
    ["audit", ...alice, "-o", "html"],
    ["explain", "bucket/shop-assets", "-n", "shop", ...alice, "-o", "json"],
    // migrate's proof goes to stderr and must still be printed; only stdout is gone.
    ["migrate", ...alice, "--allow-changes"],
    ["--help"],
  ];
  for (const args of runs) {
    test(`crossrole ${args.join(" ")}`, async () => {
      const { code, stderr } = await runWithClosedStdout(args);
      assert.doesNotMatch(stderr, /EPIPE|\n\s+at /, "no EPIPE stack trace");
      assert.equal(code, 0, stderr);
    });
  }
});

describe("endQuietlyWhenReaderLeaves / ignoreClosedPipe", () => {
  const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
  const other = Object.assign(new Error("write EIO"), { code: "EIO" });

  test("EPIPE exits 0; any other write error is still thrown", () => {
    const stream = new EventEmitter();
    const exits: number[] = [];
    endQuietlyWhenReaderLeaves(stream, (code) => exits.push(code));
    stream.emit("error", epipe);
    assert.deepEqual(exits, [0]);
    assert.throws(() => stream.emit("error", other), /EIO/);
  });

  test("a closed stderr is ignored; any other error is thrown", () => {
    const stream = new EventEmitter();
    ignoreClosedPipe(stream);
    stream.emit("error", epipe);
    assert.throws(() => stream.emit("error", other), /EIO/);
  });
});
