// `crossrole explain`, online: which replica reconciles the resource, when the controller shards
// across replicas (src/runtime/shards/): read from the member Leases in the system namespace, the
// owner of the resource's namespace among the members whose Lease is live now. Nothing when no
// member Lease exists (one replica, no sharding).
import type { Lease } from "../runtime/leader-election.ts";
import { memberLeaseName, shardMemberLabel } from "../runtime/shards/member.ts";
import { ownerOf } from "../runtime/shards/rendezvous.ts";

/** The note for `namespace`, from the member Leases as listed now (`nowMs`: this machine's clock). */
export function shardNote(
  leases: readonly Lease[],
  namespace: string,
  systemNamespace: string,
  nowMs: number,
): string | null {
  if (leases.length === 0) return null;
  const live = leases
    .filter((l) => {
      const holder = l.spec?.holderIdentity ?? "";
      const renewed = Date.parse(l.spec?.renewTime ?? "");
      return holder !== "" && renewed + (l.spec?.leaseDurationSeconds ?? 15) * 1000 > nowMs;
    })
    .map((l) => l.spec?.holderIdentity ?? "")
    .sort();
  if (live.length === 0) {
    return `Sharded across replicas, but no member Lease in ${systemNamespace} is live now: no replica reconciles namespace ${namespace} until one is (kubectl get leases -n ${systemNamespace} -l ${shardMemberLabel})`;
  }
  const owner = ownerOf(namespace, live) ?? "";
  return `Sharded across ${live.length} replica${live.length === 1 ? "" : "s"} (${live.join(", ")}): namespace ${namespace} is reconciled by ${owner} (member Lease ${systemNamespace}/${memberLeaseName(owner)})`;
}

/** The member Leases' list path and label selector. */
export const memberLeasesPath = (systemNamespace: string): string =>
  `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(systemNamespace)}/leases`;
export const memberLeasesSelector = `${shardMemberLabel}=true`;
