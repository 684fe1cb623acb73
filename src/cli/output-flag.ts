// The -o flag of the commands that print a report in more than one format: one definition of
// the flag and of the mistake "not an output format", whatever formats a command offers.
import { type FlagSpec, type FlagValues, stringFlag } from "./args.ts";
import { didYouMean } from "./did-you-mean.ts";
import { badInput } from "./errors.ts";

/** The formats a command offers (two or more), its default first. */
export type OutputFormats<F extends string> = readonly [F, F, ...F[]];

export function outputFlag(formats: OutputFormats<string>, help: string): FlagSpec {
  return {
    name: "output",
    short: "o",
    type: "string",
    value: `<${formats.join("|")}>`,
    default: formats[0],
    help,
  };
}

/** The format -o names (else the default), or bad input that lists the formats on offer. */
export function outputFormat<F extends string>(
  command: string,
  values: FlagValues,
  formats: OutputFormats<F>,
): F {
  const output = stringFlag(values, "output") ?? formats[0];
  const offered = formats.find((format) => format === output);
  if (offered !== undefined) return offered;
  const choices = formats.map((format) => `-o ${format}`);
  throw badInput(
    `${command}: -o ${output} is not an output format; use ${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}.` +
      didYouMean(output, formats, (format) => `-o ${format}`),
  );
}
