// Errors the CLI reports to a person. Anything thrown that is NOT a CliError is a bug and is
// shown with its stack; a CliError is the user's to fix and is shown as one plain message.

/** Process exit codes of every crossrole command. */
export const ExitCode = {
  /** Done; for `explain`: the resource will be reconciled (`use`). */
  ok: 0,
  /** Something outside the user's input failed (cluster unreachable, a bug). */
  failure: 1,
  /** Bad input: flags, kind, manifests, missing resource, unknown feature gate. */
  badInput: 2,
  /** `explain`: the resource will not be reconciled (deny, conflict, wait, blocked drift). */
  notReconciled: 3,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: ExitCodeValue = ExitCode.badInput) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** Bad input: exit 2. The message must name the object or flag, what is wrong, and the fix. */
export function badInput(message: string): CliError {
  return new CliError(message, ExitCode.badInput);
}
