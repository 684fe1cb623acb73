// Structured logging (pino). Components take a Logger and default to a silent one, so only
// the manager — configured by the CLI's --log-level — decides what is printed.
import { type Logger, pino } from "pino";

export type { Logger };

export const silentLogger: Logger = pino({ level: "silent" });

/** A JSON logger to stdout at `level` (trace, debug, info, warn, error, fatal, silent). */
export function createLogger(level = "info", name = "crossrole"): Logger {
  return pino({ name, level });
}
