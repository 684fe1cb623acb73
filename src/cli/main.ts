// Entry point of the `crossrole` command (bin/crossrole.js): picks the subcommand, turns the
// user's mistakes into one clear message and exit 2, and anything else into exit 1.

import { crossroleVersion } from "../version.ts";
import type { Command } from "./command.ts";
import { commands } from "./commands.ts";
import { didYouMean } from "./did-you-mean.ts";
import { CliError, ExitCode, type ExitCodeValue } from "./errors.ts";
import { type CliIO, processIO } from "./io.ts";

function topUsage(list: readonly Command[]): string {
  const width = Math.max(...list.map((c) => c.name.length)) + 2;
  return `Usage: crossrole <command> [flags]

crossrole manages AWS resources across many accounts and IAM roles from one Kubernetes cluster.

Commands:
${list.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join("\n")}

Run \`crossrole <command> --help\` for a command's flags; \`crossrole --version\` prints the version.
`;
}

/** What `crossrole` itself accepts before a command. */
const topLevelFlags = ["--help", "-h", "--version"];

export async function runCli(
  argv: readonly string[],
  io: CliIO = processIO(),
  list: readonly Command[] = commands,
): Promise<ExitCodeValue> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(topUsage(list));
    return ExitCode.badInput;
  }
  if (first === "--version" || first === "version") {
    io.stdout(`crossrole ${crossroleVersion}\n`);
    return ExitCode.ok;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    const about = rest[0] === undefined ? undefined : list.find((c) => c.name === rest[0]);
    io.stdout(about?.usage ?? topUsage(list));
    return ExitCode.ok;
  }
  const command = list.find((c) => c.name === first);
  if (command === undefined) {
    const flag = first.startsWith("-");
    const what = flag ? `unknown flag ${first}` : `unknown command "${first}"`;
    const known = flag ? topLevelFlags : [...list.map((c) => c.name), "help", "version"];
    io.stderr(
      `crossrole: ${what}.${didYouMean(first, known)} Commands: ${list.map((c) => c.name).join(", ")}; see \`crossrole --help\`.\n`,
    );
    return ExitCode.badInput;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    // Not the user's mistake: show everything so that it can be reported and fixed.
    io.stderr(
      `crossrole ${command.name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return ExitCode.failure;
  }
}
