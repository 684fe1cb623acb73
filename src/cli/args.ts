// Flag parsing shared by every subcommand: one declarative table per command drives both
// `node:util` parseArgs and the --help text, so the two cannot drift apart.
import { parseArgs } from "node:util";
import { didYouMean } from "./did-you-mean.ts";
import { badInput } from "./errors.ts";

export interface FlagSpec {
  /** Long name without dashes, e.g. "aws-region". */
  readonly name: string;
  readonly short?: string;
  readonly type: "string" | "boolean";
  readonly multiple?: boolean;
  readonly default?: string | boolean;
  /** Placeholder shown in help, e.g. "<namespace>". */
  readonly value?: string;
  readonly help: string;
}

export type FlagValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export interface ParsedArgs {
  readonly values: FlagValues;
  readonly positionals: readonly string[];
}

export const helpFlag: FlagSpec = { name: "help", short: "h", type: "boolean", help: "Show this help." };

/**
 * Parses `args` against `flags`. Boolean flags also accept the Go/Kubernetes spelling
 * `--flag=true|false` (what the controller's own flags look like) besides `--no-flag`.
 * Every mistake becomes a bad-input error that lists what is accepted.
 */
export function parseCommandArgs(
  command: string,
  flags: readonly FlagSpec[],
  args: readonly string[],
): ParsedArgs {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean; default?: string | boolean }
  > = {};
  for (const flag of flags) {
    options[flag.name] = {
      type: flag.type,
      ...(flag.short === undefined ? {} : { short: flag.short }),
      ...(flag.multiple === undefined ? {} : { multiple: flag.multiple }),
      ...(flag.default === undefined ? {} : { default: flag.default }),
    };
  }
  const booleans = new Set(flags.filter((f) => f.type === "boolean").map((f) => f.name));
  const normalized: string[] = [];
  for (const arg of args) {
    const m = /^--([^=]+)=(.*)$/.exec(arg);
    if (m?.[1] !== undefined && booleans.has(m[1])) {
      const value = m[2]?.toLowerCase();
      if (value !== "true" && value !== "false") {
        throw badInput(`${command}: flag --${m[1]} takes true or false, not "${m[2]}".`);
      }
      normalized.push(value === "true" ? `--${m[1]}` : `--no-${m[1]}`);
    } else {
      normalized.push(arg);
    }
  }
  try {
    const { values, positionals } = parseArgs({
      args: normalized,
      options,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
    return { values: values as FlagValues, positionals };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split(". To specify")[0] : String(error);
    throw badInput(
      `${command}: ${detail}.${unknownFlagHint(error, flags)}\nAccepted flags: ${flags.map(flagSynopsis).join(", ")}.\n` +
        `Run \`${command} --help\` for details.`,
    );
  }
}

/** For parseArgs' "Unknown option '--form'": the flag it most likely misspells. */
function unknownFlagHint(error: unknown, flags: readonly FlagSpec[]): string {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return "";
  }
  const typed = /Unknown option '([^']+)'/.exec(error.message)?.[1];
  if (typed === undefined) return "";
  const known = flags.flatMap((f) => [
    `--${f.name}`,
    ...(f.short === undefined ? [] : [`-${f.short}`]),
    ...(f.type === "boolean" ? [`--no-${f.name}`] : []),
  ]);
  // `--form=x` is reported whole; the name is what was misspelt.
  return didYouMean(typed.split("=")[0] ?? typed, known);
}

function flagSynopsis(flag: FlagSpec): string {
  const short = flag.short === undefined ? "" : `-${flag.short}|`;
  return flag.type === "string"
    ? `${short}--${flag.name} ${flag.value ?? "<value>"}`
    : `${short}--${flag.name}`;
}

/** The "Flags:" block of a command's help. */
export function renderFlagHelp(flags: readonly FlagSpec[]): string {
  const rows = flags.map((flag) => {
    const left = `  ${flag.short === undefined ? "    " : `-${flag.short}, `}--${flag.name}${
      flag.type === "string" ? ` ${flag.value ?? "<value>"}` : ""
    }`;
    const defaultText =
      flag.default === undefined || flag.default === "" ? "" : ` (default ${String(flag.default)})`;
    return [left, `${flag.help}${defaultText}${flag.multiple ? " Repeatable." : ""}`] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, text]) => `${left.padEnd(width)}${text}`).join("\n");
}

export function stringFlag(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function stringListFlag(values: FlagValues, name: string): readonly string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

export function booleanFlag(values: FlagValues, name: string): boolean {
  return values[name] === true;
}
