// Helper for harness.test.ts: starts a stack, prints the pids of its servers as one JSON line,
// then waits forever — the test kills this process outright and checks nothing is left.
import { execFileSync } from "node:child_process";
import { startStack } from "../../../src/local-stack/stack.ts";

const stack = await startStack();
const pids = execFileSync("pgrep", ["-f", stack.dir], { encoding: "utf8" }).trim().split("\n").map(Number);
process.stdout.write(`${JSON.stringify({ dir: stack.dir, pids })}\n`);
setInterval(() => {}, 1 << 30);
