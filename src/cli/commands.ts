// Every subcommand of `crossrole`, in the order `crossrole --help` lists them.
import type { Command } from "./command.ts";
import { explainCommand } from "./explain.ts";
import { rbacCommand } from "./rbac.ts";
import { runCommand } from "./run.ts";

export const commands: readonly Command[] = [explainCommand, runCommand, rbacCommand];
