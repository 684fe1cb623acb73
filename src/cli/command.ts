// A subcommand of `crossrole`. Adding one = writing a Command and listing it in commands.ts.
import type { ExitCodeValue } from "./errors.ts";
import type { CliIO } from "./io.ts";

export interface Command {
  readonly name: string;
  /** One line for the command list of `crossrole --help`. */
  readonly summary: string;
  /** Full help text of `crossrole <name> --help`. */
  readonly usage: string;
  /** Runs with the arguments after the command name; throws CliError for the user's mistakes. */
  readonly run: (args: readonly string[], io: CliIO) => Promise<ExitCodeValue>;
}
