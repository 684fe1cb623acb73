// `--role` and `--namespace`: narrow every list of a full report to what concerns the role (a
// role ARN, or an account ID for every role in it) and/or the namespace. Totals are recounted
// on the narrowed lists; `filter` records what was applied. A value that names nothing the
// report knows is an AuditFilterError listing what exists.

import { accountOfRoleArn, isAccountId } from "../api/validation.ts";
import { type AuditFilter, AuditFilterError } from "./input.ts";
import type { AuditFinding, AuditReport } from "./model.ts";
import { reportObjects } from "./report-objects.ts";

function objectKey(ref: { kind: string; name: string; namespace?: string }): string {
  return `${ref.kind}\u0000${ref.namespace ?? ""}\u0000${ref.name}`;
}

/** Counted by reportObjects, like the map's nodes: the summary and the map always agree. */
function totalsOf(report: Omit<AuditReport, "totals">): AuditReport["totals"] {
  const objects = reportObjects(report);
  return {
    namespaces: objects.namespaces.length,
    roles: objects.roles.size,
    accounts: objects.accounts.size,
    grants: objects.grants.length,
    reaches: report.reaches.length,
    findings: report.findings.length,
  };
}

export function applyFilter(report: AuditReport, filter: AuditFilter): AuditReport {
  const { role, namespace } = filter;
  if (role === undefined && namespace === undefined) return report;
  if (role !== undefined) {
    const known = new Set<string>();
    for (const g of report.grants) if (g.roleARN !== null) known.add(g.roleARN);
    for (const r of report.roles) if (r.roleARN !== null) known.add(r.roleARN);
    const accounts = new Set([...report.roles, ...report.grants].map((r) => r.account));
    if (!known.has(role) && !(isAccountId(role) && accounts.has(role))) {
      throw new AuditFilterError("role", role, [...known].sort());
    }
  }
  if (namespace !== undefined && !report.namespaces.some((ns) => ns.name === namespace)) {
    throw new AuditFilterError(
      "namespace",
      namespace,
      report.namespaces.map((ns) => ns.name),
    );
  }
  const roleMatches = (r: { roleARN: string | null; account: string | null }) =>
    role === undefined || r.roleARN === role || (isAccountId(role) && r.account === role);
  const nsMatches = (name: string) => namespace === undefined || name === namespace;

  const reaches = report.reaches.filter((r) => nsMatches(r.namespace) && roleMatches(r));
  const reached = new Set(reaches.map((r) => r.grant));
  const grants = report.grants.filter(
    (g) => roleMatches(g) && (namespace === undefined || reached.has(g.id)),
  );
  const roles = report.roles
    .filter(roleMatches)
    .map((r) => ({ ...r, namespaces: r.namespaces.filter((n) => nsMatches(n.namespace)) }))
    .filter((r) => namespace === undefined || r.namespaces.length > 0);
  const namespaces = report.namespaces
    .filter((ns) => nsMatches(ns.name))
    .map((ns) => (role === undefined ? ns : { ...ns, roles: ns.roles.filter(roleMatches) }))
    .filter((ns) => role === undefined || ns.roles.length > 0);
  const grantObjects = new Set(grants.map((g) => objectKey(g.object)));
  const related = (f: AuditFinding): boolean => {
    const byObject = grantObjects.has(objectKey(f.object));
    const byRole =
      role !== undefined &&
      f.roleARN !== undefined &&
      roleMatches({ roleARN: f.roleARN, account: accountOfRoleArn(f.roleARN) });
    const byNamespace =
      namespace !== undefined &&
      (f.namespaces?.includes(namespace) === true ||
        (f.object.kind === "Namespace" && f.object.name === namespace));
    if (role !== undefined && namespace !== undefined) return byObject || (byRole && byNamespace);
    return byObject || byRole || byNamespace;
  };
  return withTotals({
    ...report,
    filter: { ...(role === undefined ? {} : { role }), ...(namespace === undefined ? {} : { namespace }) },
    grants,
    reaches,
    roles,
    namespaces,
    findings: report.findings.filter(related),
  });
}

/** The report with its totals counted, fields in the model's order (the JSON's order). */
export function withTotals(
  report: Omit<AuditReport, "totals"> & { totals?: AuditReport["totals"] },
): AuditReport {
  const out: AuditReport = {
    apiVersion: report.apiVersion,
    mode: report.mode,
    source: report.source,
    controllerAccount: report.controllerAccount,
    kinds: report.kinds,
    filter: report.filter,
    totals: totalsOf(report),
    grants: report.grants,
    reaches: report.reaches,
    roles: report.roles,
    namespaces: report.namespaces,
    findings: report.findings,
    problems: report.problems,
  };
  return report.notes === undefined ? out : { ...out, notes: report.notes };
}
