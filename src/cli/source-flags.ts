// Where `explain`, `audit` and `migrate` read from: a cluster (kubeconfig, context) or, offline,
// manifests (--from). One flag table and one rule for the three commands.

import type { ResourceKind } from "../api/kinds.ts";
import type { Settings } from "../resolver/types.ts";
import type { AllInputs } from "./all-from-cluster.ts";
import { type FlagSpec, type FlagValues, stringFlag } from "./args.ts";
import { badInput } from "./errors.ts";
import type { CliIO } from "./io.ts";
import type { LoadedKubeconfig } from "./kubeconfig.ts";

export const sourceFlags: readonly FlagSpec[] = [
  {
    name: "from",
    type: "string",
    multiple: true,
    value: "<file-or-dir>",
    help: "Work offline from manifests (.yaml, .yml, .json; directories recursively) instead of a cluster.",
  },
  {
    name: "kubeconfig",
    type: "string",
    value: "<file>",
    help: "Kubeconfig file (else KUBECONFIG, else ~/.kube/config).",
  },
  { name: "context", type: "string", value: "<name>", help: "Kubeconfig context to use." },
];

/** Offline (--from) reads no cluster: a cluster flag beside it is a mistake, not a preference. */
export function rejectClusterFlagsOffline(command: string, values: FlagValues): void {
  for (const online of ["kubeconfig", "context"]) {
    if (stringFlag(values, online) !== undefined) {
      throw badInput(`${command}: --${online} reads a cluster and cannot be combined with --from (offline).`);
    }
  }
}

/** The kubeconfig --kubeconfig and --context name (else KUBECONFIG, else ~/.kube/config). */
export async function kubeconfigFromFlags(values: FlagValues, io: CliIO): Promise<LoadedKubeconfig> {
  // Loaded lazily: the offline path never needs the Kubernetes client.
  const { loadKubeconfig } = await import("./kubeconfig.ts");
  return loadKubeconfig({
    kubeconfig: stringFlag(values, "kubeconfig"),
    context: stringFlag(values, "context"),
    env: io.env,
    cwd: io.cwd,
  });
}

/** Offline, nothing tells the controller's account but --controller-account. */
export const unknownOfflineAccountNote =
  "The controller's own account is unknown offline; pass --controller-account to name it.";

/** The controller's account online, and where it came from or why it is unknown. */
export interface OnlineControllerAccount {
  /** The settings, with controllerAccount set when sts:GetCallerIdentity named it. */
  readonly settings: Settings;
  /** What to tell the user about the account; null when --controller-account named it. */
  readonly note: string | null;
  /** Why the account is unknown (sts:GetCallerIdentity failed), else null. */
  readonly unknownReason: string | null;
}

/** Online: the account --controller-account names, else the one sts:GetCallerIdentity returns. */
export async function controllerAccountOnline(settings: Settings): Promise<OnlineControllerAccount> {
  if (settings.controllerAccount !== null) return { settings, note: null, unknownReason: null };
  const { lookupCallerAccount } = await import("./controller-account.ts");
  const caller = await lookupCallerAccount({
    region: settings.defaultRegion,
    endpoint: settings.defaultEndpoint,
  });
  if (caller.account === null) {
    const reason = `sts:GetCallerIdentity failed: ${caller.error}`;
    return {
      settings,
      note: `The controller's own account is unknown (${reason}); pass --controller-account to name it.`,
      unknownReason: reason,
    };
  }
  return {
    settings: { ...settings, controllerAccount: caller.account },
    note: `The controller's own account is ${caller.account} (sts:GetCallerIdentity: ${caller.arn ?? "?"}).`,
    unknownReason: null,
  };
}

/** The inputs with one more note, when there is one. */
export function withNote<T extends { readonly notes: readonly string[] }>(inputs: T, note: string | null): T {
  return note === null ? inputs : { ...inputs, notes: [...inputs.notes, note] };
}

/** Offline: the whole configuration and every resource of `query.kinds` in the --from manifests. */
export async function readAllFromManifests(
  command: string,
  sources: readonly string[],
  values: FlagValues,
  query: { readonly systemNamespace: string; readonly kinds: readonly ResourceKind[] },
  io: CliIO,
): Promise<AllInputs> {
  rejectClusterFlagsOffline(command, values);
  // Loaded lazily: the offline path never needs the Kubernetes or AWS clients.
  const { loadManifests } = await import("./manifests.ts");
  const { collectAllFromManifests } = await import("./all-from-manifests.ts");
  return collectAllFromManifests(await loadManifests(sources, io.cwd), query);
}

/** What readAllFromCluster read, through which kubeconfig, and what ran alongside. */
export interface ClusterRead<T> {
  readonly inputs: AllInputs;
  /** The kubeconfig file and context, as the user should see them. */
  readonly kubeconfig: string;
  readonly alongside: T;
}

/**
 * Online: the same as readAllFromManifests, from the cluster the kubeconfig flags name.
 * `alongside` (e.g. sts:GetCallerIdentity) runs in parallel with the reads, but only once the
 * kubeconfig has loaded: a kubeconfig that does not load fails at once, without waiting for it.
 */
export async function readAllFromCluster<T = undefined>(
  values: FlagValues,
  query: { readonly systemNamespace: string; readonly kinds: readonly ResourceKind[] },
  io: CliIO,
  alongside?: (loaded: Awaited<ReturnType<typeof kubeconfigFromFlags>>) => Promise<T>,
): Promise<ClusterRead<T>> {
  const loaded = await kubeconfigFromFlags(values, io);
  const { collectAllFromCluster } = await import("./all-from-cluster.ts");
  const [inputs, other] = await Promise.all([collectAllFromCluster(loaded, query), alongside?.(loaded)]);
  return { inputs, kubeconfig: loaded.description, alongside: other as T };
}
