// Structured logging (pino). Components take a Logger and default to a silent one, so only
// the manager — configured by the CLI's --log-level — decides what is printed.
// Lines are what log pipelines and on-call queries expect of a controller (ACK's zap JSON,
// controller-runtime's): `"level":"info"` as a word, not pino's number, and `time` as ISO-8601
// UTC, not epoch milliseconds — a query `level="error"` or a time range then works unchanged.
import { type Logger, pino } from "pino";

export type { Logger };

export const silentLogger: Logger = pino({ level: "silent" });

/** A JSON logger to stdout at `level` (trace, debug, info, warn, error, fatal, silent). */
export function createLogger(level = "info", name = "crossrole"): Logger {
  return pino({
    name,
    level,
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
