// What `crossrole takeover --from-ack` reads and writes in the cluster besides the resources:
// the preflight (ACK's controllers scaled to zero, crossrole's CRDs in place of ACK's) and the
// approvals it writes to ConfigMap crossrole-ack-takeover in the system namespace.

import type { ResourceKind } from "../api/kinds.ts";
import { takeoverConfigMapName } from "../controller/ack-takeover.ts";
import { checkControllerAccount } from "../controller/controller-account.ts";
import type { Settings } from "../resolver/types.ts";
import { isNotFound, type KubeClient, patchTypes } from "../runtime/kube-client.ts";

/** One thing that must be fixed before anything is approved; `fix` is a command or a step. */
export interface PreflightProblem {
  readonly what: string;
  readonly fix: string;
}

export interface Deployment {
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
  };
  readonly spec?: {
    readonly replicas?: number;
    readonly template?: {
      readonly spec?: {
        readonly containers?: readonly { readonly image?: string; readonly args?: readonly string[] }[];
      };
    };
  };
  readonly status?: { readonly replicas?: number };
}

/**
 * An ACK service controller's Deployment, however its release was named and wherever its image
 * is mirrored: ACK's chart label (`helm.sh/chart: s3-chart-1.10.0`), the arguments ACK's chart
 * passes (`$(ACK_WATCH_NAMESPACE)`), ACK's image, or the name ACK's docs install it under.
 */
export function isAckController(d: Deployment): boolean {
  const containers = d.spec?.template?.spec?.containers ?? [];
  return (
    /^ack-[a-z0-9]+-controller/.test(d.metadata.name) ||
    /^[a-z0-9]+-chart-v?\d/.test(d.metadata.labels?.["helm.sh/chart"] ?? "") ||
    containers.some(
      (c) =>
        /aws-controllers-k8s\/[a-z0-9]+-controller/.test(c.image ?? "") ||
        (c.args ?? []).includes("$(ACK_WATCH_NAMESPACE)"),
    )
  );
}

/**
 * ACK controllers that still run (replicas wanted or still up): two controllers acting on the
 * same objects would race each other's writes, so nothing is approved while one runs.
 */
export async function runningAckControllers(kube: KubeClient): Promise<PreflightProblem[]> {
  const list = await kube.request<{ items?: Deployment[] }>({
    method: "GET",
    path: "/apis/apps/v1/deployments",
  });
  return (list.items ?? [])
    .filter(isAckController)
    .filter((d) => (d.spec?.replicas ?? 1) > 0 || (d.status?.replicas ?? 0) > 0)
    .map((d) => {
      const ns = d.metadata.namespace ?? "default";
      return {
        what: `ACK's controller ${ns}/${d.metadata.name} still runs (${d.spec?.replicas ?? 1} replicas wanted, ${d.status?.replicas ?? 0} up)`,
        fix: `kubectl scale deployment -n ${ns} ${d.metadata.name} --replicas=0`,
      };
    });
}

/** Served kinds whose CRD is missing or still ACK's (crossrole's carry the category `crossrole`). */
export async function crdsNotCrossroles(
  kube: KubeClient,
  kinds: readonly ResourceKind[],
): Promise<PreflightProblem[]> {
  // One GET per kind, together: none depends on another.
  const problems = await Promise.all(
    kinds.map(async (k): Promise<PreflightProblem | undefined> => {
      const name = `${k.plural}.${k.group}`;
      try {
        const crd = await kube.request<{ spec?: { names?: { categories?: string[] } } }>({
          method: "GET",
          path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
        });
        if ((crd.spec?.names?.categories ?? []).includes("crossrole")) return undefined;
        return {
          what: `CRD ${name} is not crossrole's (ACK's is still installed)`,
          fix: `kubectl apply --server-side --force-conflicts -f config/crd/${k.group}_${k.plural}.yaml`,
        };
      } catch (err) {
        // No CRD: no objects of the kind either; nothing to take over for it.
        if (isNotFound(err)) return undefined;
        throw err;
      }
    }),
  );
  return problems.filter((p) => p !== undefined);
}

/** Adds `approvals` (`<Kind>.<namespace>.<name>` → UID) to the takeover ConfigMap, creating it if needed. */
export async function writeApprovals(
  kube: KubeClient,
  systemNamespace: string,
  approvals: Readonly<Record<string, string>>,
): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(systemNamespace)}/configmaps`;
  try {
    await kube.request({
      method: "PATCH",
      path: `${path}/${takeoverConfigMapName}`,
      contentType: patchTypes.merge,
      body: { data: approvals },
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await kube.request({
      method: "POST",
      path,
      body: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: takeoverConfigMapName,
          namespace: systemNamespace,
          annotations: {
            "crossrole.dev/purpose":
              "Objects an administrator approved for takeover from ACK (crossrole takeover --from-ack); delete once every object is taken over",
          },
        },
        data: approvals,
      },
    });
  }
}

/**
 * The settings with the controller's own account as STS names it for the default credential
 * chain (what the controller does at start, src/controller/start.ts), and the preflight problems
 * when STS cannot say or contradicts --controller-account: then nothing is approved.
 */
export async function controllerAccountFromSts(
  settings: Settings,
): Promise<{ readonly settings: Settings; readonly problems: PreflightProblem[] }> {
  const { lookupCallerAccount } = await import("./controller-account.ts");
  const caller = await lookupCallerAccount({
    region: settings.defaultRegion,
    endpoint: settings.defaultEndpoint,
  });
  if (caller.account === null) {
    return {
      settings: { ...settings, controllerAccount: null },
      problems: [
        {
          what: `the controller's own account is unknown: sts:GetCallerIdentity failed (${caller.error})`,
          fix: "run takeover with the controller's AWS credentials (its environment, profile or web identity), or as a Job with its ServiceAccount",
        },
      ],
    };
  }
  // The controller's own rule at start (checkControllerAccount): STS decides, the flag is a claim.
  const sts = { account: caller.account, arn: caller.arn ?? "?" };
  const check = checkControllerAccount({ flag: settings.controllerAccount, sts });
  if (!check.ok) {
    return {
      settings: { ...settings, controllerAccount: caller.account },
      problems: [
        {
          what: `--controller-account ${settings.controllerAccount} contradicts sts:GetCallerIdentity, which names account ${sts.account} (${sts.arn})`,
          fix: `set --controller-account=${caller.account}, or drop it`,
        },
      ],
    };
  }
  return { settings: { ...settings, controllerAccount: check.account }, problems: [] };
}
