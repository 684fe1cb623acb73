// Every subcommand of `crossrole`, in the order `crossrole --help` lists them.
import { auditCommand } from "./audit.ts";
import type { Command } from "./command.ts";
import { explainCommand } from "./explain.ts";
import { migrateCommand } from "./migrate.ts";
import { rbacCommand } from "./rbac.ts";
import { runCommand } from "./run.ts";
import { takeoverCommand } from "./takeover.ts";

export const commands: readonly Command[] = [
  explainCommand,
  runCommand,
  rbacCommand,
  migrateCommand,
  auditCommand,
  takeoverCommand,
];
