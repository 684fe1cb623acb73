// What every subcommand does first with its arguments: parse them against its flag table,
// answering --help with its usage, and refuse positionals when it takes none.
import { type FlagSpec, type ParsedArgs, parseCommandArgs } from "./args.ts";
import { badInput } from "./errors.ts";
import type { CliIO } from "./io.ts";

/**
 * The parsed arguments, or null when they ask for --help: then the usage has been printed and
 * the command exits 0 without doing anything else.
 */
export function parseArgsOrHelp(
  command: string,
  flags: readonly FlagSpec[],
  usage: string,
  args: readonly string[],
  io: CliIO,
): ParsedArgs | null {
  const parsed = parseCommandArgs(command, flags, args);
  if (parsed.values["help"] !== true) return parsed;
  io.stdout(usage);
  return null;
}

/** For a command that reads flags only: a positional argument is a mistake. */
export function rejectArguments(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0) throw badInput(`${command} takes no arguments (got ${positionals.join(" ")}).`);
}
