// Where `explain`, `audit` and `migrate` read from: a cluster (kubeconfig, context) or, offline,
// manifests (--from). One flag table and one rule for the three commands.

import type { ResourceKind } from "../api/kinds.ts";
import type { Settings } from "../resolver/types.ts";
import type { AllInputs } from "./all-from-cluster.ts";
import { type FlagSpec, type FlagValues, stringFlag } from "./args.ts";
import type { CallerAccount } from "./controller-account.ts";
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

/** The controller's account from sts:GetCallerIdentity, or null when --controller-account names it. */
export async function callerAccountUnlessGiven(settings: Settings): Promise<CallerAccount | null> {
  if (settings.controllerAccount !== null) return null;
  const { lookupCallerAccount } = await import("./controller-account.ts");
  return lookupCallerAccount({ region: settings.defaultRegion, endpoint: settings.defaultEndpoint });
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

/** Online: the same as readAllFromManifests, from the cluster the kubeconfig flags name. */
export async function readAllFromCluster(
  values: FlagValues,
  query: { readonly systemNamespace: string; readonly kinds: readonly ResourceKind[] },
  io: CliIO,
): Promise<AllInputs> {
  const loaded = await kubeconfigFromFlags(values, io);
  const { collectAllFromCluster } = await import("./all-from-cluster.ts");
  return collectAllFromCluster(loaded, query);
}
