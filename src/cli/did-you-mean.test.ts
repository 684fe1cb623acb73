// "Did you mean": the helper on its own, then every CLI mistake it is wired into (subcommand,
// top-level flag, a command's flag, explain's kind, -o, audit --mode), in-process, exit 2.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { aliceExample, runCrossrole } from "../../test/support/run-crossrole.ts";
import { closestKnown, didYouMean } from "./did-you-mean.ts";

describe("closestKnown", () => {
  test("names the nearest candidate, as written, ignoring case", () => {
    assert.equal(closestKnown("explian", ["explain", "run", "rbac"]), "explain");
    assert.equal(closestKnown("Buckets", ["Bucket", "Queue"]), "Bucket");
    assert.equal(closestKnown("json", ["text", "JSON"]), "JSON");
  });

  test("names nothing when nothing is near, the word is already right, or two are as near", () => {
    assert.equal(closestKnown("widget", ["Bucket", "Queue"]), null);
    assert.equal(closestKnown("run", ["run", "rbac"]), null);
    assert.equal(closestKnown("ab", ["ax", "xb"]), null);
    // One- and two-letter words: only one edit away counts.
    assert.equal(closestKnown("x", ["yaml", "json"]), null);
  });

  test("didYouMean is a sentence to append, or nothing", () => {
    assert.equal(
      didYouMean("htm", ["text", "html"], (f) => `-o ${f}`),
      " Did you mean -o html?",
    );
    assert.equal(didYouMean("zzz", ["text", "html"]), "");
  });
});

describe("crossrole: typos get a did-you-mean", { concurrency: true }, () => {
  const cases: readonly [string, readonly string[], RegExp][] = [
    ["subcommand", ["explian"], /unknown command "explian"\. Did you mean "explain"\?/],
    ["top-level flag", ["--halp"], /unknown flag --halp\. Did you mean "--help"\?/],
    ["command flag", ["audit", "--form", aliceExample], /Unknown option '--form'\. Did you mean "--from"\?/],
    [
      "negated boolean flag",
      ["audit", "--no-enable-crm", "--from", aliceExample],
      /Did you mean "--no-enable-carm"\?/,
    ],
    [
      "explain kind",
      ["explain", "buckts/shop-assets", "--from", aliceExample],
      /unknown resource kind "buckts"\. Did you mean "buckets"\?/,
    ],
    ["output format", ["audit", "-o", "htm", "--from", aliceExample], /Did you mean -o html\?/],
    ["migrate output format", ["migrate", "-o", "yml", "--from", aliceExample], /Did you mean -o yaml\?/],
    ["audit mode", ["audit", "--mode", "carm", "--from", aliceExample], /Did you mean --mode CARM\?/],
  ];
  for (const [what, args, expected] of cases) {
    test(what, async () => {
      const run = await runCrossrole(args);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, expected);
    });
  }

  test("no guess when nothing is near", async () => {
    const run = await runCrossrole(["explain", "widget/x", "--from", aliceExample]);
    assert.equal(run.code, 2);
    assert.doesNotMatch(run.stderr, /Did you mean/);
  });
});
