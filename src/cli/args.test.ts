// Flag parsing: Go-style booleans, repeatable flags, and mistakes as bad-input errors.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type FlagSpec, parseCommandArgs, renderFlagHelp } from "./args.ts";
import { CliError } from "./errors.ts";

const flags: readonly FlagSpec[] = [
  { name: "namespace", short: "n", type: "string", value: "<namespace>", help: "Namespace." },
  { name: "from", type: "string", multiple: true, help: "Manifests." },
  { name: "enable-carm", type: "boolean", default: true, help: "CARM." },
];

describe("parseCommandArgs", () => {
  test("accepts --flag=true|false, --flag and --no-flag for booleans", () => {
    assert.equal(parseCommandArgs("c", flags, []).values["enable-carm"], true);
    assert.equal(parseCommandArgs("c", flags, ["--enable-carm=false"]).values["enable-carm"], false);
    assert.equal(parseCommandArgs("c", flags, ["--enable-carm=TRUE"]).values["enable-carm"], true);
    assert.equal(parseCommandArgs("c", flags, ["--no-enable-carm"]).values["enable-carm"], false);
  });

  test("collects repeatable flags in order and keeps positionals", () => {
    const parsed = parseCommandArgs("c", flags, ["bucket/a", "--from", "x", "-n", "shop", "--from=y"]);
    assert.deepEqual(parsed.values["from"], ["x", "y"]);
    assert.equal(parsed.values["namespace"], "shop");
    assert.deepEqual(parsed.positionals, ["bucket/a"]);
  });

  test("an unknown flag is a bad-input error listing the accepted flags", () => {
    assert.throws(
      () => parseCommandArgs("c", flags, ["--nope"]),
      (error: unknown) =>
        error instanceof CliError &&
        error.exitCode === 2 &&
        /Unknown option '--nope'/.test(error.message) &&
        /-n\|--namespace <namespace>, --from <value>, --enable-carm/.test(error.message),
    );
  });

  test("help lists every flag with its default", () => {
    const help = renderFlagHelp(flags);
    assert.match(help, /-n, --namespace <namespace>\s+Namespace\./);
    assert.match(help, /--from <value>\s+Manifests\. Repeatable\./);
    assert.match(help, /--enable-carm\s+CARM\. \(default true\)/);
  });
});
