// Why a subject would be decided differently after the switch, and what to do about it. The
// causes are tried from the most specific (something written on the resource itself) to the
// most general (CARM refusing today), so each change names the one object at its root:
//   1. a resource-level owner-account-id (ResourceLevelCARM): a selector cannot match annotations;
//   2. IAMRoleSelectors that already exist (ignored in CARM mode) and match the resource;
//   3. the resource's iam-role-selector annotation (ignored in CARM mode);
//   4. CARM refusing today (wait / deny / conflict): a selector cannot refuse;
//   5. the team's endpoint from ack-carm-map: a selector has no endpoint;
//   otherwise both modes' messages side by side.

import { namespaceAnnotations, resourceAnnotations } from "../api/annotations.ts";
import { annotationOf } from "../resolver/resource-info.ts";
import type { NamespaceConfig } from "../resolver/snapshot-types.ts";
import type { ResourceObject, Settings } from "../resolver/types.ts";
import type { ModeDecision } from "./types.ts";

export interface ChangeContext {
  readonly resource: ResourceObject;
  readonly synthetic: boolean;
  readonly namespace: NamespaceConfig | undefined;
  readonly carmSettings: Settings;
  readonly carm: ModeDecision;
  readonly selectorMode: ModeDecision;
  /** IAMRoleSelector mode with only the generated selectors (none of the existing ones). */
  readonly generatedOnly: () => ModeDecision;
  readonly generatedNames: ReadonlySet<string>;
}

export interface Explanation {
  readonly why: string;
  readonly fix: string;
}

/** What a decision does, as a verb phrase: `use role arn:… (IAMRoleSelector x)`, `deny: …`. */
function describeDecision(d: ModeDecision): string {
  if (d.outcome !== "use") return `${d.outcome}: ${d.message}`;
  if (d.roleARN === null) return "use the controller's own credentials";
  return `use role ${d.roleARN}${d.selector === null ? "" : ` (IAMRoleSelector ${d.selector})`}`;
}

function sameDecision(a: ModeDecision, b: ModeDecision): boolean {
  return (
    a.outcome === b.outcome &&
    a.roleARN === b.roleARN &&
    a.account === b.account &&
    a.region === b.region &&
    a.endpoint === b.endpoint &&
    a.externalID === b.externalID
  );
}

/** The selectors a decision names: the one that chose, or the contenders of a conflict. */
function selectorsNamed(d: ModeDecision): string[] {
  if (d.selector !== null) return [d.selector];
  const m = /Conflicting IAMRoleSelectors: \[([^\]]*)\]/.exec(d.message);
  return m?.[1] === undefined || m[1] === "" ? [] : m[1].split(", ");
}

const refusalVerb = { wait: "waits", deny: "denies it", conflict: "reports a conflict" } as const;

function list(names: readonly string[]): string {
  return names.length === 1 ? `IAMRoleSelector ${names[0]}` : `IAMRoleSelectors ${names.join(", ")}`;
}

export function explainChange(ctx: ChangeContext): Explanation {
  const { resource, carm, selectorMode: sel, carmSettings } = ctx;
  const ns = resource.metadata.namespace ?? "";
  const subject = ctx.synthetic ? `every ${resource.kind} in ${ns}` : "the resource";
  const hasIdentityRef = resource.spec?.identityRef !== undefined && resource.spec.identityRef !== null;

  const account = annotationOf(resource.metadata, resourceAnnotations.ownerAccountId);
  if (account !== null && carmSettings.featureGates.ResourceLevelCARM && !hasIdentityRef) {
    return {
      why: `its annotation ${resourceAnnotations.ownerAccountId}: "${account}" picks the account per resource (ResourceLevelCARM); an IAMRoleSelector matches namespaces, kinds and labels, never annotations, so IAMRoleSelector mode ignores it and would ${describeDecision(sel)}`,
      fix:
        carm.outcome === "use" && carm.roleARN !== null
          ? `give the resource spec.identityRef to an AWSRoleIdentity for ${carm.roleARN} whose allowedNamespaces lists ${ns} (honoured the same in both modes), then re-run migrate`
          : `remove the annotation: CARM ${carm.outcome === "use" ? "uses the controller's credentials" : refusalVerb[carm.outcome]} today and IAMRoleSelector mode ignores it`,
    };
  }

  if (!hasIdentityRef && sel.outcome !== "deny") {
    const only = ctx.generatedOnly();
    const existing = selectorsNamed(sel).filter((name) => !ctx.generatedNames.has(name));
    if (existing.length > 0 && sameDecision(carm, only)) {
      const pick = only.selector;
      return {
        why: `${list(existing)} already exist${existing.length === 1 ? "s" : ""} and match${existing.length === 1 ? "es" : ""} ${subject}: CARM mode ignores selectors, IAMRoleSelector mode would ${describeDecision(sel)}`,
        fix:
          `narrow or delete ${list(existing)}` +
          (pick !== null && sel.outcome === "conflict" && !ctx.synthetic
            ? `, or annotate the resource with ${resourceAnnotations.iamRoleSelector}: ${pick}`
            : "") +
          ", then re-run migrate",
      };
    }
  }

  const picked = annotationOf(resource.metadata, resourceAnnotations.iamRoleSelector);
  if (picked !== null && !hasIdentityRef) {
    return {
      why: `its annotation ${resourceAnnotations.iamRoleSelector}: ${picked} is ignored in CARM mode but decides in IAMRoleSelector mode: ${sel.message}`,
      fix: `remove the annotation${ctx.generatedOnly().selector === null ? "" : ` or set it to ${ctx.generatedOnly().selector}`}`,
    };
  }

  if (carm.outcome !== "use") {
    const fallback =
      sel.outcome === "use" && sel.roleARN === null
        ? `; or keep ${ns} off the controller's own credentials with an AWSControllerIdentity default whose allowedNamespaces leaves it out`
        : "";
    return {
      why: `CARM ${refusalVerb[carm.outcome]} today: ${carm.message}. A selector cannot refuse the way CARM does, so IAMRoleSelector mode would ${describeDecision(sel)}`,
      fix: `fix what CARM reports, then re-run migrate so that its selectors cover ${ns}${fallback}`,
    };
  }

  const hasNamespaceEndpoint =
    ctx.namespace?.endpointUrl !== null && ctx.namespace?.endpointUrl !== undefined;
  if (carm.endpoint !== sel.endpoint && carm.source === "teamCARM" && !hasNamespaceEndpoint) {
    const team = ctx.namespace?.teamId?.raw ?? "?";
    return {
      why: `the endpoint ${carm.endpoint} is set for team ${team} in ConfigMap ${carmSettings.systemNamespace}/ack-carm-map; an IAMRoleSelector has no endpoint, so IAMRoleSelector mode would use ${sel.endpoint ?? "the AWS SDK's regional endpoint"}`,
      fix: `annotate namespace ${ns} with ${namespaceAnnotations.endpointUrl}: ${carm.endpoint} (it wins over the team's endpoint in both modes), then re-run migrate`,
    };
  }

  return {
    why: `CARM: ${carm.message}; IAMRoleSelector mode: ${sel.message}`,
    fix: `compare \`crossrole explain\` for it in both modes (--feature-gates IAMRoleSelector=true --enable-carm=false for the new one)`,
  };
}
