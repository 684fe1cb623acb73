// `crossrole explain <kind>/<name>`: which AWS identity a resource is (or would be)
// reconciled with, and why — offline from manifests (--from) or online from the cluster.
import type { Settings } from "../resolver/types.ts";
import { type FlagSpec, helpFlag, renderFlagHelp, stringFlag, stringListFlag } from "./args.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp } from "./command-args.ts";
import { ExitCode, type ExitCodeValue } from "./errors.ts";
import type { ExplainInputs } from "./inputs.ts";
import { metadataString } from "./inputs.ts";
import type { CliIO } from "./io.ts";
import { outputFlag, outputFormat } from "./output-flag.ts";
import { renderText } from "./render-text.ts";
import { buildContext, buildReport, exitCodeFor } from "./report.ts";
import { resolveResource } from "./resolve-adapter.ts";
import { settingsFlags, settingsFromFlags } from "./settings-flags.ts";
import {
  controllerAccountOnline,
  kubeconfigFromFlags,
  rejectClusterFlagsOffline,
  sourceFlags,
  unknownOfflineAccountNote,
  withNote,
} from "./source-flags.ts";
import { knownKindsText, parseTarget, type Target } from "./target.ts";

const commandName = "crossrole explain";
const outputs = ["text", "json"] as const;

const explainFlags: readonly FlagSpec[] = [
  {
    name: "namespace",
    short: "n",
    type: "string",
    value: "<namespace>",
    help: "Namespace of the resource (default: the kubeconfig context's, else default).",
  },
  outputFlag(outputs, "Output format."),
  ...sourceFlags,
  ...settingsFlags,
  helpFlag,
];

const usage = `Usage: ${commandName} <kind>/<name> [-n <namespace>] [-o text|json] [--from <file-or-dir>]... [flags]

Explains which AWS identity the controller uses for one resource, and why: the account,
region and endpoint it lands in, the chain of credentials, and every rule it consulted.

<kind> is a kind, singular, plural or plural.group: Bucket, bucket, buckets, buckets.s3.services.k8s.aws.
Known kinds: ${knownKindsText()}.

Online (default) it reads the resource, its Namespace, the CARM ConfigMaps, IAMRoleSelectors and
identities from the cluster, and the controller's account from sts:GetCallerIdentity (default AWS
credential chain) unless --controller-account is given. With --from it reads the same from manifests;
a namespace missing from them is taken to exist without labels or annotations.

Exit status: 0 the resource will be reconciled; 3 it will not (deny, conflict, wait, or a blocked
drift); 2 bad input (flags, kind, manifests, resource not found); 1 the cluster could not be read.

Flags:
${renderFlagHelp(explainFlags)}
`;

export const explainCommand: Command = {
  name: "explain",
  summary: "Explain which AWS identity a resource is reconciled with, and why.",
  usage,
  run: runExplain,
};

async function runExplain(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, explainFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  const output = outputFormat(commandName, values, outputs);
  const target = parseTarget(commandName, positionals);
  const flagSettings = settingsFromFlags(values, io.env);
  const sources = stringListFlag(values, "from");
  const explained =
    sources.length > 0
      ? await explainOffline(target, sources, values, flagSettings, io)
      : await explainOnline(target, values, flagSettings, io);

  const { inputs, settings, unknownAccountReason } = explained;
  const resolved = resolveResource(inputs.objects, inputs.resource, settings);
  const { decision } = resolved;
  // The resource's own policy documents first: principals its namespace is not granted.
  const { principalProblems } = await import("./principal-problems.ts");
  const problems = [
    ...(await principalProblems(inputs.resource, decision, resolved.snapshot, settings)),
    ...resolved.problems,
  ];
  // Offline the controller's account only matters when the answer is its own credentials.
  const notes =
    sources.length > 0 && decision.outcome === "use" && decision.account === null
      ? [...inputs.notes, unknownOfflineAccountNote]
      : inputs.notes;
  const report = buildReport(inputs.resource, decision, problems, notes);
  if (output === "json") {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const namespace = inputs.objects.namespaces.find(
      (ns) => metadataString(ns, "name") === inputs.resource.metadata.namespace,
    );
    io.stdout(renderText(report, buildContext(inputs.resource, namespace, settings, unknownAccountReason)));
  }
  return exitCodeFor(report);
}

interface Explained {
  readonly inputs: ExplainInputs;
  readonly settings: Settings;
  readonly unknownAccountReason: string | null;
}

async function explainOffline(
  target: Target,
  sources: readonly string[],
  values: Parameters<typeof stringFlag>[0],
  settings: Settings,
  io: CliIO,
): Promise<Explained> {
  rejectClusterFlagsOffline(commandName, values);
  // Loaded lazily: the offline path never needs the Kubernetes or AWS clients.
  const { loadManifests } = await import("./manifests.ts");
  const { collectFromManifests } = await import("./manifest-source.ts");
  const manifests = await loadManifests(sources, io.cwd);
  const namespace = stringFlag(values, "namespace") ?? "default";
  const inputs = collectFromManifests(manifests, {
    target,
    namespace,
    systemNamespace: settings.systemNamespace,
    sources,
  });
  return {
    inputs,
    settings,
    unknownAccountReason: settings.controllerAccount === null ? "offline without --controller-account" : null,
  };
}

/** Which replica reconciles `namespace`, when the controller shards (shard-note.ts); best effort. */
async function shardOnline(
  loaded: Awaited<ReturnType<typeof kubeconfigFromFlags>>,
  namespace: string,
  systemNamespace: string,
): Promise<string | null> {
  const { readMemberLeases, shardNote } = await import("./shard-note.ts");
  return shardNote(
    await readMemberLeases(loaded.kubeConfig, systemNamespace),
    namespace,
    systemNamespace,
    Date.now(),
  );
}

async function explainOnline(
  target: Target,
  values: Parameters<typeof stringFlag>[0],
  settings: Settings,
  io: CliIO,
): Promise<Explained> {
  const loaded = await kubeconfigFromFlags(values, io);
  const { contextNamespace } = await import("./kubeconfig.ts");
  const { collectFromCluster } = await import("./cluster-source.ts");
  const namespace = stringFlag(values, "namespace") ?? contextNamespace(loaded.kubeConfig);
  const [inputs, account, shard] = await Promise.all([
    collectFromCluster(loaded, { target, namespace, systemNamespace: settings.systemNamespace }),
    controllerAccountOnline(settings),
    shardOnline(loaded, namespace, settings.systemNamespace),
  ]);
  return {
    inputs: withNote(withNote(inputs, account.note), shard),
    settings: account.settings,
    unknownAccountReason: account.unknownReason,
  };
}
