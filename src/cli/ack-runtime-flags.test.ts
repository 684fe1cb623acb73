// ACK's runtime flags (aws-controllers-k8s/runtime v0.61 pkg/config) that `crossrole run` takes
// so that ACK's charts and manifests start it unchanged: the parsing and the refusals. What each
// does to a running controller is test/e2e/ack-runtime-flags.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { minIntentWindowMs } from "../controller/create-intent.ts";
import { ackNoOpFlags, crossNamespaceNote, parseHttpClientTimeout } from "./ack-run-flags.ts";
import { ExitCode } from "./errors.ts";
import { runCli } from "./main.ts";

async function run(args: string[]): Promise<{ code: number; err: string }> {
  let err = "";
  const code = await runCli(["run", ...args], {
    stdout: () => {},
    stderr: (t) => {
      err += t;
    },
    env: {},
    cwd: process.cwd(),
  });
  return { code, err };
}

describe("ACK's runtime flags", () => {
  test("--http-client-timeout is a Go duration, in ms; no timeout and nonsense are refused", () => {
    assert.deepEqual(parseHttpClientTimeout("60s"), { ok: true, value: 60_000 });
    assert.deepEqual(parseHttpClientTimeout("1m30s"), { ok: true, value: 90_000 });
    assert.deepEqual(parseHttpClientTimeout("1.5s"), { ok: true, value: 1_500 });
    assert.deepEqual(parseHttpClientTimeout("500ms"), { ok: true, value: 500 });
    for (const none of ["0", "0s", "0ms"]) {
      const r = parseHttpClientTimeout(none);
      assert.equal(r.ok, false, none);
      assert.match(r.ok ? "" : r.message, /no timeout is refused: .* give a duration such as 60s/);
    }
    for (const bad of ["60", "sixty", "-5s", "1d"]) {
      const r = parseHttpClientTimeout(bad);
      assert.equal(r.ok, false, bad);
      assert.match(r.ok ? "" : r.message, /not a duration: write it as ACK does, e.g. 60s/);
    }
  });

  test("a create intent window covers three attempts of the timeout and the backoff", () => {
    assert.equal(minIntentWindowMs(10_000), 60_000, "crossrole's 10 s: inside the default 2 minutes");
    assert.equal(minIntentWindowMs(60_000), 210_000, "ACK's default 60 s: 3.5 minutes");
  });

  test("--enable-cross-namespace: ACK's default true grants nothing; false contradicts the grant", () => {
    assert.deepEqual(crossNamespaceNote(undefined, false), { ok: true, value: undefined });
    assert.deepEqual(crossNamespaceNote(false, false), { ok: true, value: undefined });
    assert.deepEqual(crossNamespaceNote(true, true), { ok: true, value: undefined });
    const granted = crossNamespaceNote(true, false);
    assert.match(
      granted.ok ? (granted.value ?? "") : "",
      /grants nothing here: .*--allow-cross-namespace-references/,
    );
    const contradiction = crossNamespaceNote(false, true);
    assert.equal(contradiction.ok, false);
  });

  test("each no-op flag says why it changes nothing", () => {
    assert.deepEqual(Object.keys(ackNoOpFlags).sort(), [
      "allow-unsafe-aws-endpoint-urls",
      "aws-endpoint-use-path-style",
      "enable-development-logging",
      "enable-field-export-reconciler",
      "enable-webhook-server",
      "webhook-server-addr",
    ]);
    for (const why of Object.values(ackNoOpFlags)) assert.match(why, /^crossrole /);
  });

  test("bad values stop the start with exit 2, naming the flag", async () => {
    const cases: [string[], RegExp][] = [
      [["--http-client-timeout", "0"], /--http-client-timeout "0": no timeout is refused/],
      [["--http-client-timeout=sixty"], /--http-client-timeout "sixty": not a duration/],
      [
        ["--leader-election-namespace", "Not_A_Namespace"],
        /--leader-election-namespace Not_A_Namespace is not a namespace name/,
      ],
      [["--aws-identity-endpoint-url", "sts here"], /--aws-identity-endpoint-url "sts here" is not a URL/],
      [
        ["--enable-cross-namespace=false", "--allow-cross-namespace-references"],
        /--enable-cross-namespace=false contradicts --allow-cross-namespace-references/,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      assert.equal(code, ExitCode.badInput, args.join(" "));
      assert.match(err, message);
    }
  });
});
