// The objects a report is about — namespaces, grants, roles and accounts — counted once, here,
// for both the totals (the summary boxes, `Totals:` of the text) and the map's nodes: two
// separate counts had drifted apart (a map key nobody used drew its role and account on the
// map but was left out of the totals), and a reader compares the two.
import type { AuditGrant, AuditReport, AuditRole } from "./model.ts";

/** The controller's own credentials, as a role key. */
export const controllerRoleKey = "controller";

/** One key per role: its ARN, else whose credentials (`controller`, `AWSStaticIdentity/<name>`). */
export function roleKeyOf(role: Pick<AuditRole, "roleARN" | "credentials">): string {
  return role.roleARN ?? role.credentials ?? controllerRoleKey;
}

/** The key of the role a grant leads to; without an ARN, the base of its chain says whose keys. */
export function grantRoleKey(grant: Pick<AuditGrant, "roleARN" | "hops">): string {
  if (grant.roleARN !== null) return grant.roleARN;
  const base = grant.hops[grant.hops.length - 1];
  return base?.kind === "AWSStaticIdentity" ? `AWSStaticIdentity/${base.name}` : controllerRoleKey;
}

export interface ReportRole {
  readonly key: string;
  readonly roleARN: string | null;
  readonly account: string | null;
}

export interface ReportObjects {
  /** The report's namespaces, then any only a reach names, in that order. */
  readonly namespaces: readonly string[];
  readonly grants: readonly AuditGrant[];
  /** The report's roles, then any only a grant leads to (a key no namespace uses), by key. */
  readonly roles: ReadonlyMap<string, ReportRole>;
  /** Accounts of those roles, when known. */
  readonly accounts: ReadonlySet<string>;
}

export function reportObjects(
  report: Pick<AuditReport, "namespaces" | "reaches" | "grants" | "roles">,
): ReportObjects {
  const namespaces = new Set(report.namespaces.map((n) => n.name));
  for (const reach of report.reaches) namespaces.add(reach.namespace);
  const roles = new Map<string, ReportRole>();
  for (const role of report.roles) {
    const key = roleKeyOf(role);
    roles.set(key, { key, roleARN: role.roleARN, account: role.account });
  }
  for (const grant of report.grants) {
    const key = grantRoleKey(grant);
    if (!roles.has(key)) roles.set(key, { key, roleARN: grant.roleARN, account: grant.account });
  }
  const accounts = new Set<string>();
  for (const role of roles.values()) if (role.account !== null) accounts.add(role.account);
  return { namespaces: [...namespaces], grants: report.grants, roles, accounts };
}
