// `crossrole run --enable-sharding` refuses to start without leader election: every replica
// would run the identity, selector and configuration controllers and write the same statuses.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ExitCode } from "./errors.ts";
import { runCli } from "./main.ts";

test("--enable-sharding without leader election stops the start, naming both flags", async () => {
  let err = "";
  const code = await runCli(["run", "--enable-sharding", "--enable-leader-election=false"], {
    stdout: () => {},
    stderr: (t) => {
      err += t;
    },
    env: {},
    cwd: process.cwd(),
  });
  assert.equal(code, ExitCode.badInput);
  assert.match(err, /--enable-sharding needs --enable-leader-election=true/);
});
