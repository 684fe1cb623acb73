// `crossrole migrate`: CARM (account map, team map, service-level keys, ack-carm-map, namespace
// annotations) → IAMRoleSelector manifests, with the proof that switching the controller's mode
// changes no resource's role, account, region or endpoint — or exactly which would, and why.
import { resourceKinds } from "../api/kinds.ts";
import type { SelectBy } from "../migrate/types.ts";
import { isServed } from "../services/served.ts";
import {
  booleanFlag,
  type FlagSpec,
  type FlagValues,
  helpFlag,
  renderFlagHelp,
  stringFlag,
  stringListFlag,
} from "./args.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp, rejectArguments } from "./command-args.ts";
import { didYouMean } from "./did-you-mean.ts";
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
    name: "select-by",
    type: "string",
    value: "<names|labels>",
    default: "names",
    help: "How the selectors pick namespaces: names lists today's (a namespace added later needs the selector edited); labels selects by a label to put on each (labelling onboards a namespace, as the CARM annotation did). See below.",
  },
  {
    name: "allow-changes",
    type: "boolean",
    help: "Exit 0 even when some resources would change (they are still listed).",
  },
  ...sourceFlags,
  ...settingsFlags,
  helpFlag,
];

const usage = `Usage: ${commandName} [--from <file-or-dir>]... [-o yaml|json] [--select-by names|labels] [--allow-changes] [flags]

Turns the CARM configuration (ack-role-account-map, ack-role-team-map, service-level keys,
ack-carm-map and the namespaces' annotations) into IAMRoleSelectors, one per map entry in use,
named after it (carm-account-111111111111, carm-team-team-a, carm-team-s3-team-a), matching exactly
the namespaces whose annotations chose it and, for service-level keys, that service's kinds.

Then it proves the switch: every existing resource (or, when there are none, every namespace ×
served kind) is decided twice — in CARM mode as configured today, and in IAMRoleSelector mode
with today's objects plus these selectors — and every resource whose outcome, role, account,
region, endpoint or external ID would differ is listed with why and the fix (e.g. a team endpoint
from ack-carm-map, which a selector cannot express). Selectors already in the cluster count too.

Onboarding (--select-by). CARM gives a namespace its role by annotation: annotate a new
namespace with services.k8s.aws/owner-account-id (or team-id) and its resources use that account's
(or team's) role. IAMRoleSelectors do not read those annotations, so:
  names   (default) each selector lists namespaceSelector.names: exactly today's namespaces,
          nothing else, ever. Safe, but onboarding a namespace after the switch means editing
          the selector's names (or re-running migrate and applying again).
  labels  each selector matches namespaceSelector.labelSelector on crossrole.dev/owner-account-id
          or crossrole.dev/team-id (the CARM id as value); the proof prints one
          \`kubectl label namespace ...\` line per namespace to run before applying. Onboarding stays
          one command on the namespace, but whoever may label namespaces may now choose a role
          for them: check who has update/patch on namespaces. A map entry whose id is no label
          value, or whose namespaces use it for different kinds, keeps listing names (noted).

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

const selectByValues: readonly SelectBy[] = ["names", "labels"];

function selectByFlag(values: FlagValues): SelectBy {
  const given = stringFlag(values, "select-by") ?? "names";
  const known = selectByValues.find((v) => v === given);
  if (known !== undefined) return known;
  throw badInput(
    `${commandName}: --select-by ${given} is not a choice; use --select-by names or --select-by labels.` +
      didYouMean(given, selectByValues, (v) => `--select-by ${v}`),
  );
}

async function runMigrate(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, migrateFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  rejectArguments(commandName, positionals);
  const output = outputFormat(commandName, values, outputs);
  const selectBy = selectByFlag(values);
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

  const result = migrate({
    objects: inputs.objects,
    settings,
    resources: inputs.resources,
    kinds,
    selectBy,
  });
  io.stdout(output === "json" ? jsonReport(result) : selectorsYaml(result));
  const allowChanges = booleanFlag(values, "allow-changes");
  io.stderr(proofSummary(result, { allowChanges, inputNotes: inputs.notes }));
  // 3, explain's "not reconciled": the user's attention is needed before switching.
  return result.changes.length > 0 && !allowChanges ? ExitCode.notReconciled : ExitCode.ok;
}
