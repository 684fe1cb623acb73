// `crossrole audit`: which namespaces can act as which role, and through what — from the
// cluster or from manifests (--from), in the mode the flags describe or the one --mode names.
// The answers are computed by src/audit with the resolver the controller runs.
import type { ResourceKind } from "../api/kinds.ts";
import { resourceKinds } from "../api/kinds.ts";
import { AuditFilterError } from "../audit/input.ts";
import type { AuditMode, AuditReport } from "../audit/model.ts";
import type { Settings } from "../resolver/types.ts";
import type { Lease } from "../runtime/leader-election.ts";
import { isServed } from "../services/served.ts";
import type { AllInputs } from "./all-from-cluster.ts";
import {
  type FlagSpec,
  type FlagValues,
  helpFlag,
  renderFlagHelp,
  stringFlag,
  stringListFlag,
} from "./args.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp } from "./command-args.ts";
import { didYouMean } from "./did-you-mean.ts";
import { badInput, type CliError, ExitCode, type ExitCodeValue } from "./errors.ts";
import type { CliIO } from "./io.ts";
import { outputFlag, outputFormat } from "./output-flag.ts";
import { settingsFlags, settingsFromFlags } from "./settings-flags.ts";
import {
  controllerAccountOnline,
  readAllFromCluster,
  readAllFromManifests,
  sourceFlags,
  unknownOfflineAccountNote,
  withNote,
} from "./source-flags.ts";

const commandName = "crossrole audit";
const modes: readonly AuditMode[] = ["CARM", "IAMRoleSelector"];
const outputs = ["text", "json", "html"] as const;
/** How many known roles / namespaces an unknown --role / --namespace error lists. */
const shownKnown = 20;

const auditFlags: readonly FlagSpec[] = [
  {
    name: "role",
    type: "string",
    value: "<role-arn|account-id>",
    help: "Only this role (or every role in this account): who reaches it, through what.",
  },
  {
    name: "namespace",
    short: "n",
    type: "string",
    value: "<namespace>",
    help: "Only this namespace: every role it can reach.",
  },
  {
    name: "mode",
    type: "string",
    value: "<CARM|IAMRoleSelector>",
    help: "Audit this mode instead of the one the flags describe (sets the IAMRoleSelector gate and --enable-carm).",
  },
  outputFlag(
    outputs,
    "Output format: a readable report, the report model as compact JSON, or a self-contained HTML page.",
  ),
  ...sourceFlags,
  ...settingsFlags,
  helpFlag,
];

const usage = `Usage: ${commandName} [--role <role-arn|account-id>] [-n <namespace>] [--mode CARM|IAMRoleSelector] [-o text|json|html] [--from <file-or-dir>]... [flags]

Answers "which namespaces can act as role X, and through what?" for every role at once:
for each role, every namespace that can reach it and the grant it goes through (CARM key, team
key, IAMRoleSelector, identity chain with each hop's allowedNamespaces, resource-level account
list); for each namespace, every role it can reach; and findings to act on (identities that
admit every namespace, selectors without a namespace selector, conflicts, unused map keys,
roles reachable beyond their map key, identity chains across accounts).

A reach is "actual" when a plain resource created in the namespace today would use it (the
controller's own decision, for each served kind), "potential" when the namespace could use it by
writing something in its own namespace: spec.identityRef, labels or the iam-role-selector
annotation on a resource, a resource-level owner-account-id its allowed list admits.

Online (default) it lists Namespaces, the CARM ConfigMaps, IAMRoleSelectors, identities and the
resources of the served kinds from the cluster, and the controller's account from
sts:GetCallerIdentity unless --controller-account is given. With --from it reads the same from
manifests; a namespace a resource names but the manifests lack is taken to exist without
labels or annotations.

Exit status: 0 the report was printed (findings or not); 2 bad input (flags, manifests, an
unknown --role or --namespace); 1 the cluster could not be read.

Flags:
${renderFlagHelp(auditFlags)}
`;

export const auditCommand: Command = {
  name: "audit",
  summary: "Report which namespaces can act as which AWS role, and through what.",
  usage,
  run: runAudit,
};

/** The settings flags with --mode applied: the gate and --enable-carm it implies. */
function settingsForMode(values: FlagValues, env: CliIO["env"]): Settings {
  const mode = stringFlag(values, "mode");
  if (mode === undefined) return settingsFromFlags(values, env);
  if (!(modes as readonly string[]).includes(mode)) {
    throw badInput(
      `${commandName}: --mode ${mode} is not a mode; use --mode CARM or --mode IAMRoleSelector.` +
        didYouMean(mode, modes, (m) => `--mode ${m}`),
    );
  }
  const selectorMode = mode === "IAMRoleSelector";
  // Later items of --feature-gates win, so appending the gate overrides what the flags said.
  const gates = stringFlag(values, "feature-gates");
  return settingsFromFlags(
    {
      ...values,
      "feature-gates": `${gates === undefined ? "" : `${gates},`}IAMRoleSelector=${selectorMode}`,
      "enable-carm": !selectorMode,
    },
    env,
  );
}

async function runAudit(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, auditFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  if (positionals.length > 0) {
    throw badInput(
      `${commandName}: takes no arguments, got ${positionals.map((p) => `"${p}"`).join(" ")}; name a role with --role and a namespace with --namespace.`,
    );
  }
  const output = outputFormat(commandName, values, outputs);
  const settings = settingsForMode(values, io.env);
  const kinds = resourceKinds.filter((k) => isServed(k.kind));
  const sources = stringListFlag(values, "from");
  const read =
    sources.length > 0
      ? await readManifests(sources, values, settings, kinds, io)
      : await readCluster(values, settings, kinds, io);

  // Loaded here, not at the top: every command's module is imported on each `crossrole` start.
  const { buildSnapshot } = await import("../resolver/snapshot.ts");
  const { computeAudit } = await import("../audit/compute.ts");
  const role = stringFlag(values, "role");
  const namespace = stringFlag(values, "namespace");
  let report: AuditReport;
  try {
    report = computeAudit({
      snapshot: buildSnapshot(read.inputs.objects, read.settings),
      settings: read.settings,
      kinds,
      resources: read.inputs.resources,
      filter: { ...(role === undefined ? {} : { role }), ...(namespace === undefined ? {} : { namespace }) },
      source: read.source,
      notes: read.inputs.notes,
    });
  } catch (error) {
    if (error instanceof AuditFilterError) throw unknownFilter(error, read.source.detail);
    throw error;
  }
  if (read.leases !== undefined && read.leases.length > 0) {
    const { withReconciledBy } = await import("./shard-note.ts");
    report = withReconciledBy(report, read.leases, Date.now());
  }
  if (output === "json") {
    // Compact and in chunks: a large cluster's report is tens of megabytes.
    const { reportJsonChunks } = await import("../audit/json.ts");
    for (const chunk of reportJsonChunks(report)) io.stdout(chunk);
  } else if (output === "html") {
    const { renderHtml } = await import("../audit/render-html.ts");
    io.stdout(renderHtml(report));
  } else {
    const { renderText } = await import("../audit/render-text.ts");
    io.stdout(renderText(report));
  }
  return ExitCode.ok;
}

/** An unknown --role / --namespace: name the flag, and list (some of) what exists. */
function unknownFilter(error: AuditFilterError, where: string): CliError {
  const what = error.flag === "role" ? "no grant leads to this role" : "no such namespace";
  const known = error.known.slice(0, shownKnown).join(", ");
  const more = error.known.length > shownKnown ? ` and ${error.known.length - shownKnown} more` : "";
  return badInput(
    `${commandName}: --${error.flag} ${error.value}: ${what} in ${where}. ` +
      (error.known.length === 0
        ? `There are no ${error.flag === "role" ? "roles" : "namespaces"} at all.`
        : `${error.flag === "role" ? "Roles" : "Namespaces"}: ${known}${more}.`),
  );
}

interface Read {
  readonly inputs: AllInputs;
  readonly settings: Settings;
  readonly source: AuditReport["source"];
  /** The controller's member Leases (online, when it shards). */
  readonly leases?: readonly Lease[];
}

async function readManifests(
  sources: readonly string[],
  values: FlagValues,
  settings: Settings,
  kinds: readonly ResourceKind[],
  io: CliIO,
): Promise<Read> {
  const query = { systemNamespace: settings.systemNamespace, kinds };
  const inputs = await readAllFromManifests(commandName, sources, values, query, io);
  return {
    inputs: withNote(inputs, settings.controllerAccount === null ? unknownOfflineAccountNote : null),
    settings,
    source: { from: "files", detail: sources.join(", ") },
  };
}

async function readCluster(
  values: FlagValues,
  settings: Settings,
  kinds: readonly ResourceKind[],
  io: CliIO,
): Promise<Read> {
  const query = { systemNamespace: settings.systemNamespace, kinds };
  const { readMemberLeases } = await import("./shard-note.ts");
  const read = await readAllFromCluster(values, query, io, async (loaded) => {
    const [account, leases] = await Promise.all([
      controllerAccountOnline(settings),
      readMemberLeases(loaded.kubeConfig, settings.systemNamespace),
    ]);
    return { ...account, leases };
  });
  return {
    inputs: withNote(read.inputs, read.alongside.note),
    settings: read.alongside.settings,
    source: { from: "cluster", detail: read.kubeconfig },
    leases: read.alongside.leases,
  };
}
