// Findings an auditor acts on, each naming the object, the field and the fix. They are read
// off what the audit already computed (reaches, conflicts, chains, snapshot problems), never
// guessed separately: a finding about who reaches a role lists exactly the reaches above.

import { namespaceAnnotations, resourceAnnotations } from "../api/annotations.ts";
import type { CarmEntry } from "../api/carm.ts";
import { accountOfRoleArn } from "../api/validation.ts";
import { describeEntry } from "../resolver/carm-lookup.ts";
import type { ChainLink } from "../resolver/rule-identity-ref.ts";
import { controllerIdentityKey } from "../resolver/snapshot-identities.ts";
import type { IdentityConfig } from "../resolver/snapshot-types.ts";
import type { ObjectRef } from "../resolver/types.ts";
import { compareText } from "../toolkit/compare-text.ts";
import { type AuditContext, carmActive, roleLabel } from "./context.ts";
import { describeGrantObject, type Grant } from "./grants.ts";
import type { IdentityChains } from "./identities.ts";
import type { AuditFinding, FindingCode } from "./model.ts";
import type { ConflictGroup } from "./plain.ts";
import type { Tally } from "./tally.ts";

const severityRank = { high: 0, medium: 1, low: 2 } as const;
const codeRank: Readonly<Record<FindingCode, number>> = {
  IdentityAdmitsEveryNamespace: 0,
  SelectorWithoutNamespaceSelector: 1,
  RoleWiderThanKey: 2,
  CrossAccountChain: 3,
  Conflict: 4,
  DeniedResource: 5,
  UnusedMapKey: 6,
  InvalidObject: 7,
};

/** How many names a message lists before "and N more" (the full list is in `namespaces`). */
const shownNames = 10;

function listText(names: readonly string[], bound = shownNames): string {
  const shown = names.slice(0, bound).join(", ");
  return names.length > bound ? `${shown} and ${names.length - bound} more` : shown;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function refText(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace === undefined ? "" : `${ref.namespace}/`}${ref.name}`;
}

function compareFindings(a: AuditFinding, b: AuditFinding): number {
  return (
    severityRank[a.severity] - severityRank[b.severity] ||
    codeRank[a.code] - codeRank[b.code] ||
    refText(a.object).localeCompare(refText(b.object)) ||
    compareText(a.message, b.message)
  );
}

function roleText(grant: Grant): string {
  const label = roleLabel(grant.roleARN, grant.credentials);
  return grant.account === null ? label : `${label} (account ${grant.account})`;
}

function identityAdmitsEveryNamespace(ctx: AuditContext, chains: readonly IdentityChains[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  const total = ctx.namespaces.all.length;
  const { cluster, invalid } = ctx.snapshot.identities;
  for (const { grant, namespaces: users } of chains) {
    if (grant.object.namespace !== undefined) continue;
    const key = `${grant.object.kind}/${grant.object.name}`;
    const identity = cluster.get(key);
    const implicit = identity === undefined && key === controllerIdentityKey && !invalid.has(key);
    if (!implicit && identity?.allowedNamespaces?.kind !== "all") continue;
    const object = { kind: grant.object.kind, name: grant.object.name };
    const role = roleText(grant);
    const withRole = grant.roleARN === null ? {} : { roleARN: grant.roleARN };
    if (key === controllerIdentityKey) {
      out.push({
        code: "IdentityAdmitsEveryNamespace",
        severity: "medium",
        object,
        message: implicit
          ? `No AWSControllerIdentity default exists, so every namespace (${total}) may act with ${role}, as in ACK: as the default identity of a resource nothing maps, and through spec.identityRef`
          : `AWSControllerIdentity default has spec.allowedNamespaces: {}, so every namespace (${total}) may act with ${role}: as the default identity of a resource nothing maps, and through spec.identityRef`,
        fix: implicit
          ? "create AWSControllerIdentity default with spec.allowedNamespaces listing only the namespaces that may act as the controller (roles granted by CARM maps and IAMRoleSelectors do not need it)"
          : "list in spec.allowedNamespaces only the namespaces that may act as the controller (roles granted by CARM maps and IAMRoleSelectors do not need it)",
        ...withRole,
      });
      continue;
    }
    const whole = users === total;
    out.push({
      code: "IdentityAdmitsEveryNamespace",
      severity: whole ? "high" : "low",
      object,
      message: whole
        ? `${grant.object.kind} ${grant.object.name} has spec.allowedNamespaces: {}, so every namespace (${total}) may name it in spec.identityRef and act as ${role}`
        : `${grant.object.kind} ${grant.object.name} has spec.allowedNamespaces: {}, but its sourceIdentityRef chain admits only ${users} of ${total} namespaces; it still admits every namespace the chain's other hops ever admit`,
      fix: `list in spec.allowedNamespaces (list or selector) only the namespaces that need ${role}, instead of {}`,
      ...withRole,
    });
  }
  return out;
}

function selectorsWithoutNamespaceSelector(ctx: AuditContext): AuditFinding[] {
  const out: AuditFinding[] = [];
  const total = ctx.namespaces.all.length;
  const active = ctx.mode === "IAMRoleSelector";
  for (const selector of ctx.snapshot.selectors.all) {
    if (selector.namespaceNames !== null || selector.namespaceLabels !== null) continue;
    const types =
      selector.resourceTypes === null
        ? "any resource"
        : `any ${selector.resourceTypes.map((t) => t.kind ?? `${t.group ?? "*"}/*`).join(" or ")}`;
    const labelled =
      selector.resourceLabels === null ? "" : ` labelled to match ${selector.resourceLabels.toString()}`;
    out.push({
      code: "SelectorWithoutNamespaceSelector",
      severity: !active ? "low" : selector.resourceLabels === null ? "high" : "medium",
      object: { kind: "IAMRoleSelector", name: selector.name },
      message: `IAMRoleSelector ${selector.name} has no spec.namespaceSelector, so ${types}${labelled} in every namespace (${total}) may be reconciled as ${selector.arn}${active ? "" : " once IAMRoleSelector mode is on (it is ignored in CARM mode)"}`,
      fix: `add spec.namespaceSelector (names or labelSelector) naming only the namespaces that may use ${selector.arn}`,
      roleARN: selector.arn,
    });
  }
  return out;
}

const selectorConflict = /Conflicting IAMRoleSelectors: \[([^\]]*)\]/;
/** describeEntry's form, `ConfigMap <ns>/<map> key <key> = "<value>"`, as CARM conflicts list contenders. */
const carmContender = /ConfigMap ([^/\s]+)\/(\S+) key (\S+) = "/;

function conflicts(ctx: AuditContext, groups: readonly ConflictGroup[]): AuditFinding[] {
  return groups.map((group) => {
    const namespaces = [...group.namespaces].sort();
    const kinds = ctx.kindSets.list(group.kinds).join(", ");
    const selectors = selectorConflict.exec(group.message)?.[1]?.split(", ");
    const contender = carmContender.exec(group.message);
    const object: ObjectRef =
      selectors !== undefined
        ? { kind: "IAMRoleSelector", name: selectors[0] ?? "" }
        : contender !== null
          ? { kind: "ConfigMap", name: contender[2]!, namespace: contender[1]! }
          : { kind: "Namespace", name: namespaces[0] ?? "" };
    const resources =
      group.resources.length > 0 ? `; existing resources: ${listText([...group.resources].sort())}` : "";
    return {
      code: "Conflict",
      severity: "medium",
      object,
      message: `${kinds} in ${plural(namespaces.length, "namespace")} (${listText(namespaces)}) are not reconciled: ${group.message}${resources}`,
      fix:
        selectors !== undefined
          ? `narrow the selectors [${selectors.join(", ")}] (spec.namespaceSelector, spec.resourceTypeSelector, spec.resourceLabelSelector) so that one applies, or annotate each resource with ${resourceAnnotations.iamRoleSelector} naming one of them`
          : "keep one role per key: remove the key from one of the maps, or give both the same role",
      namespaces,
    };
  });
}

function isServiceLevel(ctx: AuditContext, entry: CarmEntry): string | null {
  if (entry.service !== null) return entry.service;
  if (entry.subject !== "team") return null;
  return ctx.kinds.find((k) => entry.id.startsWith(`${k.service}.`))?.service ?? null;
}

function unusedMapKeys(ctx: AuditContext, tally: Tally, groups: readonly ConflictGroup[]): AuditFinding[] {
  if (!carmActive(ctx.settings)) return [];
  const out: AuditFinding[] = [];
  const gates = ctx.settings.featureGates;
  const system = ctx.snapshot.systemNamespace;
  for (const entry of ctx.grants.carmRoleEntries()) {
    const grant = ctx.grants.carm(entry, false);
    const resourceLevel = ctx.grants.get(`resourceAccount:${entry.map}/${entry.key}`);
    if (
      tally.grantUsers.has(grant.id) ||
      (resourceLevel !== undefined && tally.grantUsers.has(resourceLevel.id))
    ) {
      continue;
    }
    // A key in a conflict is reported there: removing it may be the wrong fix.
    const where = `${describeEntry(system, entry)} = "`;
    if (groups.some((g) => g.message.includes(where))) continue;
    const service = isServiceLevel(ctx, entry);
    const annotation =
      entry.subject === "account" ? namespaceAnnotations.ownerAccountId : namespaceAnnotations.teamId;
    const id = service === null ? entry.id : entry.id.slice(service.length + 1);
    let why: string;
    let fix: string;
    if (entry.subject === "team" && !gates.TeamLevelCARM) {
      why = "feature gate TeamLevelCARM is off, so team keys are never read";
      fix = "remove the key, or turn on --feature-gates TeamLevelCARM=true";
    } else if (service !== null && !gates.ServiceLevelCARM) {
      why = `feature gate ServiceLevelCARM is off, so ${service}.<id> keys are never read`;
      fix = "remove the key, or turn on --feature-gates ServiceLevelCARM=true";
    } else {
      why = `no namespace that reaches a role through its ${annotation} annotation asks for ${entry.subject} ${id}${entry.subject === "account" && gates.ResourceLevelCARM ? ` (nor lists it in ${namespaceAnnotations.allowedOwnerAccountIds})` : ""}`;
      fix = `remove the key, or annotate the namespaces meant to use ${grant.roleARN} with ${annotation}=${id}`;
    }
    out.push({
      code: "UnusedMapKey",
      severity: "low",
      object: grant.object,
      message: `${describeGrantObject(grant)} maps to ${grant.roleARN}, but no namespace reaches it in ${ctx.mode} mode: ${why}`,
      fix,
      ...(grant.roleARN === null ? {} : { roleARN: grant.roleARN }),
    });
  }
  return out;
}

function roleWiderThanKey(ctx: AuditContext, tally: Tally): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const grant of ctx.grants.all()) {
    if ((grant.kind !== "accountMap" && grant.kind !== "teamMap") || grant.roleARN === null) continue;
    const twin = `resourceAccount:${grant.entry?.map}/${grant.key}`;
    const users = tally.byRole.get(grant.roleKey);
    if (users === undefined) continue;
    const own: string[] = [];
    const others: string[] = [];
    const via: string[] = [];
    const throughGrants = new Set<string>();
    for (const use of users) {
      const namespace = use.namespace;
      if (use.grants.includes(grant.id) || use.grants.includes(twin)) {
        own.push(namespace);
        continue;
      }
      others.push(namespace);
      if (via.length < shownNames) {
        via.push(`${namespace} via ${use.grants.join(", ")} (${use.actual ? "actual" : "potential"})`);
      }
      for (const g of use.grants) throughGrants.add(g);
    }
    if (others.length === 0) continue;
    const meantFor = grant.hops[0]?.admits ?? `its key ${grant.key}`;
    const more = others.length > via.length ? ` and ${others.length - via.length} more` : "";
    const objects = [...throughGrants].sort().map((id) => {
      const g = ctx.grants.get(id);
      return g === undefined ? id : describeGrantObject(g);
    });
    out.push({
      code: "RoleWiderThanKey",
      severity: "medium",
      object: grant.object,
      message: `${describeGrantObject(grant)} maps to ${grant.roleARN}, meant for ${meantFor} (${own.length === 0 ? "none today" : listText(own)}), but ${plural(others.length, "other namespace")} reach the same role: ${via.join(", ")}${more}`,
      fix: `if only those namespaces should act as ${grant.roleARN}, remove it from ${listText(objects)}; otherwise give each grant its own role`,
      roleARN: grant.roleARN,
      namespaces: others,
    });
  }
  return out;
}

function linkText(link: ChainLink, controllerAccount: string | null): string {
  if (link === "implicit-controller")
    return `the controller's own credentials${controllerAccount === null ? "" : ` (${controllerAccount})`}`;
  const account = link.roleARN === undefined ? null : accountOfRoleArn(link.roleARN);
  return `${link.kind} ${link.name}${account === null ? "" : ` (${account})`}`;
}

function crossAccountChains(ctx: AuditContext, chains: readonly IdentityChains[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const { grant, chains: variants, namespaces } of chains) {
    for (const links of variants) {
      // Base first, as the credentials flow: the first role is assumed from the base credentials.
      const baseFirst = [...links].reverse();
      const roles = baseFirst.filter(
        (l): l is IdentityConfig => l !== "implicit-controller" && l.roleARN !== undefined,
      );
      const accounts = roles.map((l) => accountOfRoleArn(l.roleARN!) ?? "");
      if (new Set(accounts).size < 2) continue;
      const last = roles[roles.length - 1]!;
      const before = roles[roles.length - 2]!;
      out.push({
        code: "CrossAccountChain",
        severity: namespaces > 0 ? "medium" : "low",
        object: grant.object,
        message: `${refText(grant.object)}'s chain (spec.sourceIdentityRef) crosses accounts ${[...new Set(accounts)].join(" → ")}: ${baseFirst.map((l) => linkText(l, ctx.settings.controllerAccount)).join(" → ")}; ${plural(namespaces, "namespace")} may use it through spec.identityRef`,
        fix: `check that the trust policy of ${last.roleARN} (account ${accountOfRoleArn(last.roleARN!)}) trusts only ${before.roleARN} (with an external ID), and that acting in ${accountOfRoleArn(last.roleARN!)} from ${accountOfRoleArn(before.roleARN!)} is intended`,
        ...(grant.roleARN === null ? {} : { roleARN: grant.roleARN }),
      });
      break; // one finding per identity
    }
  }
  return out;
}

function invalidObjects(ctx: AuditContext): AuditFinding[] {
  return ctx.snapshot.problems
    .filter((p) => p.severity === "error")
    .map((p) => ({
      code: "InvalidObject" as const,
      severity: "medium" as const,
      object: p.object,
      message: `${p.message} (field ${p.field})`,
      fix: p.fix,
      ...(p.object.kind === "Namespace" ? { namespaces: [p.object.name] } : {}),
    }));
}

export function computeFindings(
  ctx: AuditContext,
  tally: Tally,
  chains: readonly IdentityChains[],
  conflictGroups: readonly ConflictGroup[],
  denied: readonly AuditFinding[] = [],
): AuditFinding[] {
  return [
    ...identityAdmitsEveryNamespace(ctx, chains),
    ...selectorsWithoutNamespaceSelector(ctx),
    ...conflicts(ctx, conflictGroups),
    ...unusedMapKeys(ctx, tally, conflictGroups),
    ...roleWiderThanKey(ctx, tally),
    ...crossAccountChains(ctx, chains),
    ...invalidObjects(ctx),
    ...denied,
  ].sort(compareFindings);
}
