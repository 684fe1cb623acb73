// What a command may touch of the outside world, passed in so that commands can be run
// in-process (tests, other tools) as well as from the bin.

export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Whether the process streams have their handlers (runCli may be called more than once). */
let handled = false;

export function processIO(): CliIO {
  if (!handled) {
    handled = true;
    endQuietlyWhenReaderLeaves(process.stdout, (code) => process.exit(code));
    // A closed stderr has no one to tell; the exit status still says how the command ended.
    ignoreClosedPipe(process.stderr);
  }
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** The part of a stream these handlers use (process.stdout, or a stand-in in tests). */
interface ErrorEmitter {
  on(event: "error", listener: (error: Error) => void): unknown;
}

function isClosedPipe(error: Error): boolean {
  return (error as { code?: unknown }).code === "EPIPE";
}

/**
 * `crossrole audit | head -1`: once the reader has gone, the rest of the output has no one to
 * read it, and that is what the user asked for — not a failure. Node reports the closed pipe
 * as an EPIPE 'error' event, which unhandled is a stack trace and exit 1; end with 0 instead,
 * as `git log | head` does. Any other write error is still thrown.
 */
export function endQuietlyWhenReaderLeaves(stream: ErrorEmitter, exit: (code: 0) => void): void {
  stream.on("error", (error) => {
    if (!isClosedPipe(error)) throw error;
    exit(0);
  });
}

/** Drops what cannot be written to a closed pipe; any other write error is still thrown. */
export function ignoreClosedPipe(stream: ErrorEmitter): void {
  stream.on("error", (error) => {
    if (!isClosedPipe(error)) throw error;
  });
}
