import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

// pino writes to stdout through its own destination, so the line is read from a child process.
test("log lines carry the level as a word and the time as ISO-8601", () => {
  const script = `import { createLogger } from ${JSON.stringify(new URL("./logger.ts", import.meta.url).href)};
createLogger("info").child({ controller: "bucket" }).warn({ event: "x" }, "hello");`;
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  const line = JSON.parse(out.stdout.trim()) as Record<string, unknown>;
  assert.equal(line.level, "warn");
  assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(line.name, "crossrole");
  assert.equal(line.controller, "bucket");
  assert.equal(line.msg, "hello");
});
