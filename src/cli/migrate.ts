// `crossrole migrate`: CARM (account map, team map, service-level keys, ack-carm-map, namespace
// annotations) → IAMRoleSelector manifests, with the proof that switching the controller's mode
// changes no resource's role, account, region or endpoint — or exactly which would, and why.
import { resourceKinds } from "../api/kinds.ts";
import { isServed } from "../services/served.ts";
import { booleanFlag, type FlagSpec, helpFlag, renderFlagHelp, stringListFlag } from "./args.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp, rejectArguments } from "./command-args.ts";
import { badInput, ExitCode, type ExitCodeValue } from "./errors.ts";
import type { CliIO } from "./io.ts";
import { outputFlag, outputFormat } from "./output-flag.ts";
import { settingsFlags, settingsFromFlags } from "./settings-flags.ts";
import { readAllFromCluster, readAllFromManifests, sourceFlags } from "./source-flags.ts";

const commandName = "crossrole migrate";
const outputs = ["yaml", "json"] as const;

const migrateFlags: readonly FlagSpec[] = [
  outputFlag(
    outputs,
    "yaml: the IAMRoleSelectors to apply; json: {selectors, changes, decided, proofOver, notes}.",
  ),
  {
    name: "allow-changes",
    type: "boolean",
    help: "Exit 0 even when some resources would change (they are still listed).",
  },
  ...sourceFlags,
  ...settingsFlags,
  helpFlag,
];

const usage = `Usage: ${commandName} [--from <file-or-dir>]... [-o yaml|json] [--allow-changes] [flags]

Turns the CARM configuration (ack-role-account-map, ack-role-team-map, service-level keys,
ack-carm-map and the namespaces' annotations) into IAMRoleSelectors, one per map entry in use,
named after it (carm-account-111111111111, carm-team-team-a, carm-team-s3-team-a), matching exactly
the namespaces whose annotations chose it and, for service-level keys, that service's kinds.

Then it proves the switch: every existing resource (or, when there are none, every namespace ×
served kind) is decided twice — in CARM mode as configured today, and in IAMRoleSelector mode
with today's objects plus these selectors — and every resource whose outcome, role, account,
region, endpoint or external ID would differ is listed with why and the fix (e.g. a team endpoint
from ack-carm-map, which a selector cannot express). Selectors already in the cluster count too.

Pass the controller's current flags (--feature-gates TeamLevelCARM=true,..., --aws-region, ...):
the proof decides as the controller does. The selectors go to stdout (YAML for kubectl apply -f -),
the proof to stderr. Online it reads Namespaces, the CARM ConfigMaps, IAMRoleSelectors, identities
and every served resource from the cluster (GET/LIST only); with --from it reads manifests.

Exit status: 0 nothing would change (or --allow-changes); 3 some resource would change; 2 bad
input (flags, manifests, or not in CARM mode: nothing to migrate); 1 the cluster could not be read.

Flags:
${renderFlagHelp(migrateFlags)}
`;

export const migrateCommand: Command = {
  name: "migrate",
  summary: "Turn CARM maps into IAMRoleSelectors, and prove that no resource would move.",
  usage,
  run: runMigrate,
};

async function runMigrate(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, migrateFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  rejectArguments(commandName, positionals);
  const output = outputFormat(commandName, values, outputs);
  const settings = settingsFromFlags(values, io.env);
  // Loaded here, not at the top: every command's module is imported on each `crossrole` start.
  const { migrate } = await import("../migrate/migrate.ts");
  const { notCarmMode } = await import("../migrate/modes.ts");
  const { jsonReport, proofSummary, selectorsYaml } = await import("./migrate-output.ts");
  const wrongMode = notCarmMode(settings);
  if (wrongMode !== null) {
    throw badInput(
      `${commandName}: ${wrongMode}. Pass the flags the controller runs with today in CARM mode (e.g. --feature-gates TeamLevelCARM=true).`,
    );
  }
  const kinds = resourceKinds.filter((k) => isServed(k.kind));
  const sources = stringListFlag(values, "from");
  const query = { systemNamespace: settings.systemNamespace, kinds };
  const inputs =
    sources.length > 0
      ? await readAllFromManifests(commandName, sources, values, query, io)
      : (await readAllFromCluster(values, query, io)).inputs;

  const result = migrate({ objects: inputs.objects, settings, resources: inputs.resources, kinds });
  io.stdout(output === "json" ? jsonReport(result) : selectorsYaml(result));
  const allowChanges = booleanFlag(values, "allow-changes");
  io.stderr(proofSummary(result, { allowChanges, inputNotes: inputs.notes }));
  // 3, explain's "not reconciled": the user's attention is needed before switching.
  return result.changes.length > 0 && !allowChanges ? ExitCode.notReconciled : ExitCode.ok;
}
