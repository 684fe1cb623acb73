// Where `explain`, `audit` and `migrate` read from: a cluster (kubeconfig, context) or, offline,
// manifests (--from). One flag table and one rule for the three commands.

import { type FlagSpec, type FlagValues, stringFlag } from "./args.ts";
import { badInput } from "./errors.ts";

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
