// `crossrole rbac`: prints the controller's ServiceAccount and least-privilege RBAC as
// multi-document YAML (src/deploy/rbac.ts), cluster-wide or for `--watch-namespace a,b`.
import { defaultSystemNamespace } from "../resolver/settings.ts";
import { type FlagSpec, helpFlag, renderFlagHelp, stringFlag } from "./args.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp, rejectArguments } from "./command-args.ts";
import { badInput, ExitCode, type ExitCodeValue } from "./errors.ts";
import type { CliIO } from "./io.ts";

const commandName = "crossrole rbac";

const rbacFlags: readonly FlagSpec[] = [
  {
    name: "watch-namespace",
    type: "string",
    value: "<ns,ns,...>",
    help: "Namespace-scoped RBAC for `crossrole run --watch-namespace` with the same value (else cluster-wide).",
  },
  {
    name: "system-namespace",
    type: "string",
    value: "<namespace>",
    default: defaultSystemNamespace,
    help: "The controller's namespace: its ServiceAccount, CARM ConfigMaps, Secrets and Lease.",
  },
  helpFlag,
];

const usage = `Usage: ${commandName} [flags]

Prints the controller's ServiceAccount (crossrole) and its least-privilege RBAC as YAML, ready for
\`kubectl apply -f -\`. Without --watch-namespace the RBAC is cluster-wide (config/rbac/cluster.yaml).
With --watch-namespace a,b it is a Role in each of a and b and in the system namespace, a Role in
default for Events about cluster-scoped objects, plus one ClusterRole that reads only the Namespace
objects a and b, IAMRoleSelectors and the cluster-scoped identities, and patches only those
identities (their in-use finalizer and status). The namespaces must exist.

Flags:
${renderFlagHelp(rbacFlags)}
`;

export const rbacCommand: Command = {
  name: "rbac",
  summary: "Print the controller's ServiceAccount and least-privilege RBAC.",
  usage,
  run: printRbac,
};

async function printRbac(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, rbacFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  rejectArguments(commandName, positionals);
  const { parseNamespaces, rbacManifest } = await import("../deploy/rbac.ts");
  const systemNamespace = stringFlag(values, "system-namespace") ?? defaultSystemNamespace;
  const watch = stringFlag(values, "watch-namespace");
  let yaml: string;
  try {
    const watchNamespaces = parseNamespaces(watch ?? "");
    if (watch !== undefined && watchNamespaces.length === 0)
      throw new Error("--watch-namespace names no namespace");
    yaml = rbacManifest({ systemNamespace, watchNamespaces });
  } catch (err) {
    throw badInput(`${commandName}: ${err instanceof Error ? err.message : String(err)}.`);
  }
  io.stdout(yaml);
  return 0;
}
