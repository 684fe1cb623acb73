// Existing resources the controller refuses (`deny`): never created in AWS, and each one a
// tenant asking for something it may not have — an identity whose allowedNamespaces leaves its
// namespace out (Alice's sandbox bucket naming central-it), an annotation the namespace may not
// use. The audit lists who *can* reach a role; these say who *tried* and was refused.
// Resources refused with the same message (same namespace, same identity, same reason) make
// one finding, so a tenant's hundred copies do not drown the rest.

import type { Decision, ObjectRef, ResourceObject } from "../resolver/types.ts";
import { compareText } from "../toolkit/compare-text.ts";
import type { AuditContext } from "./context.ts";
import { identityGrantId } from "./grants.ts";
import type { AuditFinding } from "./model.ts";

interface DenialGroup {
  readonly message: string;
  readonly reason: string;
  readonly namespace: string;
  /** The identity spec.identityRef names, when that is what was refused. */
  readonly identity: ObjectRef | null;
  readonly roleARN: string | null;
  readonly resources: string[];
}

/** How many resources a finding's message names before "and N more". */
const shownResources = 10;

export class Denials {
  readonly #groups = new Map<string, DenialGroup>();

  record(ctx: AuditContext, resource: ResourceObject, decision: Decision, label: string): void {
    const namespace = resource.metadata.namespace ?? "";
    const seen = this.#groups.get(decision.message);
    if (seen !== undefined) {
      seen.resources.push(label);
      return;
    }
    const ref = decision.source === "identityRef" ? resource.spec?.identityRef : undefined;
    // An AWSServiceAccountIdentity lives in the resource's namespace; the others are cluster-wide.
    const grant =
      ref === undefined
        ? undefined
        : (ctx.grants.get(identityGrantId(ref)) ?? ctx.grants.get(identityGrantId({ ...ref, namespace })));
    this.#groups.set(decision.message, {
      message: decision.message,
      reason: decision.reason,
      namespace,
      identity: grant?.object ?? (ref === undefined ? null : { kind: ref.kind, name: ref.name }),
      roleARN: grant?.roleARN ?? null,
      resources: [label],
    });
  }

  findings(): AuditFinding[] {
    return [...this.#groups.values()].map((group): AuditFinding => {
      const resources = [...group.resources].sort(compareText);
      const shown = resources.slice(0, shownResources).join(", ");
      const more = resources.length > shownResources ? ` and ${resources.length - shownResources} more` : "";
      const [kind, name] = splitLabel(resources[0]!);
      return {
        code: "DeniedResource",
        severity: "medium",
        object: { kind, name, namespace: group.namespace },
        message: `${shown}${more} ${resources.length === 1 ? "exists but is" : "exist but are"} denied (${group.reason}), so nothing is done in AWS: ${group.message}`,
        fix:
          group.identity === null
            ? "change what the message names, or delete the resource if it was never meant to be reconciled"
            : `if namespace ${group.namespace} should act as ${group.identity.kind} ${group.identity.name}, an administrator adds it to that identity's spec.allowedNamespaces; otherwise remove spec.identityRef from the resource, or delete it`,
        ...(group.roleARN === null ? {} : { roleARN: group.roleARN }),
        namespaces: [group.namespace],
      };
    });
  }
}

/** `Bucket sandbox/name` → [`Bucket`, `name`]. */
function splitLabel(label: string): [string, string] {
  const space = label.indexOf(" ");
  const path = label.slice(space + 1);
  return [label.slice(0, space), path.slice(path.indexOf("/") + 1)];
}
