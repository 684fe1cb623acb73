// `crossrole explain` and `audit`, online: which replica reconciles a namespace, when the
// controller shards across replicas (src/runtime/shards/): read from the member Leases in the
// system namespace, the owner of the namespace among the members whose Lease is live now.
// Nothing when no member Lease exists (one replica, no sharding).
import type { AuditReport } from "../audit/model.ts";
import type { Lease } from "../runtime/leader-election.ts";
import type { RestConfig } from "../runtime/rest-config.ts";
import { memberLeaseName, shardMemberLabel } from "../runtime/shards/member.ts";
import { Assignment, ownerOf } from "../runtime/shards/rendezvous.ts";
import { userAgent } from "../version.ts";

/** The members whose Lease is live at `nowMs` (this machine's clock), sorted. */
export function liveMembers(leases: readonly Lease[], nowMs: number): string[] {
  return leases
    .filter((l) => {
      const holder = l.spec?.holderIdentity ?? "";
      const renewed = Date.parse(l.spec?.renewTime ?? "");
      return holder !== "" && renewed + (l.spec?.leaseDurationSeconds ?? 15) * 1000 > nowMs;
    })
    .map((l) => l.spec?.holderIdentity ?? "")
    .sort();
}

/** The note for `namespace`, from the member Leases as listed now (`nowMs`: this machine's clock). */
export function shardNote(
  leases: readonly Lease[],
  namespace: string,
  systemNamespace: string,
  nowMs: number,
): string | null {
  if (leases.length === 0) return null;
  const live = liveMembers(leases, nowMs);
  if (live.length === 0) {
    return `Sharded across replicas, but no member Lease in ${systemNamespace} is live now: no replica reconciles namespace ${namespace} until one is (kubectl get leases -n ${systemNamespace} -l ${shardMemberLabel})`;
  }
  const owner = ownerOf(namespace, live) ?? "";
  return `Sharded across ${live.length} replica${live.length === 1 ? "" : "s"} (${live.join(", ")}): namespace ${namespace} is reconciled by ${owner} (member Lease ${systemNamespace}/${memberLeaseName(owner)})`;
}

/**
 * The member Leases of the controller's shards, read with the user's credentials; [] when there
 * are none, or the user may not read them (best effort: explain and audit do not depend on them).
 */
export async function readMemberLeases(kubeConfig: RestConfig, systemNamespace: string): Promise<Lease[]> {
  const { createKubeClient } = await import("../runtime/kube-client.ts");
  try {
    const list = await createKubeClient(kubeConfig, { userAgent }).request<{ items?: Lease[] }>({
      method: "GET",
      path: memberLeasesPath(systemNamespace),
      query: { labelSelector: memberLeasesSelector },
    });
    return list.items ?? [];
  } catch {
    return [];
  }
}

/** The audit report with the replica that reconciles each namespace now (`crossrole audit`, online). */
export function withReconciledBy(report: AuditReport, leases: readonly Lease[], nowMs: number): AuditReport {
  const live = liveMembers(leases, nowMs);
  const view = new Assignment(live);
  return {
    ...report,
    shards: { members: live },
    namespaces: report.namespaces.map((ns) => ({ ...ns, reconciledBy: view.ownerOf(ns.name) ?? "" })),
  };
}

/** The member Leases' list path and label selector. */
export const memberLeasesPath = (systemNamespace: string): string =>
  `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(systemNamespace)}/leases`;
export const memberLeasesSelector = `${shardMemberLabel}=true`;
