// The unit suite runs every src/**/*.test.ts in one process (`--test-isolation=none`, README
// "Everyday commands"): that is only sound while no unit test changes what the others see. This
// keeps the ways one could out of src/ — a test that needs them belongs in test/, which keeps a
// process per file.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { test } from "node:test";

const srcDir = join(import.meta.dirname);

const forbidden: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: "writes process.env", pattern: /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete\s+process\.env/ },
  { what: "changes the working directory", pattern: /process\.chdir\(/ },
  {
    what: "replaces a global",
    pattern: /globalThis\.\w+\s*=(?!=)|mock\.method\(\s*(globalThis|process|console)\b/,
  },
  { what: "fakes the process-wide timers", pattern: /mock\.timers\.enable/ },
  { what: "sets the process exit code", pattern: /^\s*process\.(exitCode\s*=(?!=)|exit\()/ },
];

async function testFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await testFiles(path)));
    else if (entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

test("no unit test changes process-wide state the others share", async () => {
  const self = join(srcDir, "unit-suite-rules.test.ts");
  const files = (await testFiles(srcDir)).filter((f) => f !== self);
  assert.ok(files.length > 50, `found only ${files.length} unit test files under ${srcDir}`);
  const found: string[] = [];
  for (const file of files) {
    const lines = (await readFile(file, "utf8")).split("\n");
    lines.forEach((line, i) => {
      for (const rule of forbidden)
        if (rule.pattern.test(line))
          found.push(`${relative(srcDir, file)}:${i + 1} ${rule.what}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, [], "move these tests to test/ (a process per file) or inject what they change");
});

test("the rules catch what they name", () => {
  const caught = (line: string) => forbidden.filter((r) => r.pattern.test(line)).map((r) => r.what);
  assert.deepEqual(caught('process.env["AWS_REGION"] = "x";'), ["writes process.env"]);
  assert.deepEqual(caught("process.env.HOME = dir;"), ["writes process.env"]);
  assert.deepEqual(caught('if (process.env["X"] === "1") {}'), []);
  assert.deepEqual(caught("process.chdir(dir);"), ["changes the working directory"]);
  assert.deepEqual(caught("globalThis.fetch = fake;"), ["replaces a global"]);
  assert.deepEqual(caught("t.mock.method(globalThis, 'fetch');".replace("t.", "")), ["replaces a global"]);
  assert.deepEqual(caught("mock.timers.enable({ apis: ['setTimeout'] });"), [
    "fakes the process-wide timers",
  ]);
  assert.deepEqual(caught("process.exitCode = 1;"), ["sets the process exit code"]);
  // A child process's source in a string is not this process's exit.
  assert.deepEqual(caught(`plugin("process.exit(3)")`), []);
});
