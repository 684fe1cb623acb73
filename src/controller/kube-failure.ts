// A Kubernetes call that failed inside a reconcile, reported as one (pure): which call (verb,
// the part of the object, the kind as users write it, namespace/name), the apiserver's status,
// reason and message, and what fixes it. Thrown among the AWS calls of a reconcile, such an
// error used to be worded as the failure of an AWS read ("GetQueueAttributes ... failed with
// KubeApiError"), which sent users looking in AWS for a problem in their cluster.
import { KubeApiError, type KubeCall } from "../runtime/kube-client.ts";
import { causeOfType } from "../toolkit/cause-chain.ts";
import type { FailureState } from "./ack-conditions.ts";

/** The condition reason of every failed Kubernetes call. */
export const kubernetesErrorReason = "KubernetesError";

/** The KubeApiError in `err` or its cause chain. */
export function kubeApiErrorIn(err: unknown): KubeApiError | undefined {
  return causeOfType(err, KubeApiError);
}

/** The resource type whose objects the reconcile writes, to name them by kind. */
export interface OwnType {
  readonly plural: string;
  readonly kind: string;
}

/** Kinds a reconcile reads or writes besides its own, by plural. */
const coreKinds: Readonly<Record<string, string>> = {
  secrets: "Secret",
  events: "Event",
  configmaps: "ConfigMap",
  namespaces: "Namespace",
};

const namespacedPath =
  /^\/(?:api\/v1|apis\/[^/]+\/[^/]+)\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/;

/**
 * The call as a user reads it: "PATCH status of Queue shop/orders", "PATCH spec of Queue
 * shop/orders", "GET Secret shop/db-password"; the method and path when the path is another shape.
 */
export function describeKubeCall(call: KubeCall, own: OwnType): string {
  const m = namespacedPath.exec(call.path);
  if (!m) return `${call.method} ${call.path}`;
  const [, namespace, plural = "", name, subresource] = m;
  const kind = plural === own.plural ? own.kind : (coreKinds[plural] ?? plural);
  const part = subresource ?? (call.fields && call.fields.length > 0 ? call.fields.join(" and ") : undefined);
  return `${call.method} ${part === undefined ? "" : `${part} of `}${kind} ${namespace}/${name}`;
}

/** Statuses no retry of the same write can change: the object or the cluster must change first. */
const refusedStatuses: ReadonlySet<number> = new Set([400, 413, 422]);

/** What to do about a failed call, by the apiserver's status; " (...)". */
function hint(status: number, own: OwnType): string {
  if (refusedStatuses.has(status)) {
    return ` (the ${own.kind} CRD installed in the cluster, or an admission policy, does not accept what crossrole wrote: if the cluster's CRDs come from another crossrole version, apply this version's (helm/crossrole/crds/); otherwise set the field named above in the spec yourself. Not retried until the object changes)`;
  }
  if (status === 403) {
    return " (the controller's ServiceAccount is not allowed this call: apply the RBAC of this crossrole version (crossrole rbac, or the Helm chart); retrying)";
  }
  if (status === 404) return " (the object is gone; retrying)";
  if (status === 409) return " (the object changed meanwhile; retrying with its new version)";
  if (status === 429 || status >= 500) return " (the apiserver is overloaded or failing; retrying)";
  return " (retrying)";
}

/**
 * The condition state for a failed Kubernetes call: Terminal when the apiserver refused what was
 * written (a retry would send the same thing: a 422 loop), Recoverable otherwise.
 */
export function kubeFailureState(err: KubeApiError, own: OwnType): FailureState {
  const body = (typeof err.body === "object" && err.body !== null ? err.body : {}) as { message?: unknown };
  const said = typeof body.message === "string" && body.message !== "" ? body.message : err.message;
  const call = err.call === undefined ? "A Kubernetes call" : describeKubeCall(err.call, own);
  return {
    kind: refusedStatuses.has(err.status) ? "terminal" : "recoverable",
    reason: kubernetesErrorReason,
    message: `${call} failed: ${err.status}${err.reason ? ` ${err.reason}` : ""}: ${said}${hint(err.status, own)}`,
  };
}
