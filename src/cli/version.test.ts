// `crossrole --version` prints package.json's version (what the image, the chart's appVersion,
// the startup log and the user agents carry).
import assert from "node:assert/strict";
import { test } from "node:test";
import packageJson from "../../package.json" with { type: "json" };
import { runCli } from "./main.ts";

test("crossrole --version (and `version`) print package.json's version and exit 0", async () => {
  for (const argv of [["--version"], ["version"]]) {
    let out = "";
    let err = "";
    const code = await runCli(argv, {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
      env: {},
      cwd: process.cwd(),
    });
    assert.equal(code, 0);
    assert.equal(out, `crossrole ${packageJson.version}\n`);
    assert.equal(err, "");
  }
});
