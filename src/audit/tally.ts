// Turns the collected reaches into the report's three views — the reaches themselves, per role
// and per namespace — plus the counts and per-role lists the findings read. One pass over the
// namespaces in name order, so every list comes out sorted without re-sorting.

import { compareText } from "../toolkit/compare-text.ts";
import type { AuditContext } from "./context.ts";
import type { Grant } from "./grants.ts";
import type { AuditGrant, AuditNamespace, AuditReach, AuditRole } from "./model.ts";
import type { PlainNamespace } from "./plain.ts";

/** How one namespace reaches one role: the grants, and whether any reach is actual. */
export interface RoleUse {
  readonly namespace: string;
  readonly grants: string[];
  actual: boolean;
}

interface RoleEntry {
  readonly roleARN: string | null;
  readonly account: string | null;
  readonly credentials: string | undefined;
  /** In namespace order. */
  readonly uses: RoleUse[];
}

export interface Tally {
  readonly reaches: AuditReach[];
  readonly roles: AuditRole[];
  readonly namespaces: AuditNamespace[];
  readonly grants: AuditGrant[];
  /** grant id → how many namespaces reach through it. */
  readonly grantUsers: ReadonlyMap<string, number>;
  /** role key (Grant.roleKey) → each namespace reaching it, in name order. */
  readonly byRole: ReadonlyMap<string, readonly RoleUse[]>;
}

function compareRoles(a: RoleEntry, b: RoleEntry): number {
  // Role ARNs sorted; then the credentials without a role (controller first, then static keys).
  if (a.roleARN !== null && b.roleARN !== null) {
    return compareText(a.roleARN, b.roleARN);
  }
  if (a.roleARN !== null) return -1;
  if (b.roleARN !== null) return 1;
  const x = a.credentials ?? "";
  const y = b.credentials ?? "";
  return x === y ? 0 : x === "controller" ? -1 : y === "controller" ? 1 : x < y ? -1 : 1;
}

function roleFields(entry: RoleEntry): Pick<AuditRole, "roleARN" | "account" | "credentials"> {
  return entry.credentials === undefined
    ? { roleARN: entry.roleARN, account: entry.account }
    : { roleARN: entry.roleARN, account: entry.account, credentials: entry.credentials };
}

function newRole(grant: Grant, roles: Map<string, RoleEntry>): RoleEntry {
  const entry: RoleEntry = {
    roleARN: grant.roleARN,
    // GrantBook sets a grant's account from its roleARN whenever it has one.
    account: grant.account,
    credentials: grant.credentials,
    uses: [],
  };
  roles.set(grant.roleKey, entry);
  return entry;
}

export function tallyReaches(ctx: AuditContext, plain: ReadonlyMap<string, PlainNamespace>): Tally {
  const { reaches: book, grants: grantBook } = ctx;
  const reaches: AuditReach[] = [];
  const grantUsers = new Map<string, number>();
  const roles = new Map<string, RoleEntry>();
  const namespaces: AuditNamespace[] = [];

  for (const name of [...plain.keys()].sort()) {
    // This namespace's roles, in the order first reached: role entry and its use (a list: a
    // namespace reaches tens of roles, and a Map per namespace costs more than the scan).
    const mine: { entry: RoleEntry; use: RoleUse }[] = [];
    let lastGrant = "";
    for (const reach of book.take(name)) {
      const grant = grantBook.get(reach.grant)!;
      if (reach.resources !== undefined) (reach.resources as string[]).sort();
      reaches.push(reach);
      // A namespace's reaches come sorted by grant: count each grant once per namespace.
      if (grant.id !== lastGrant) grantUsers.set(grant.id, (grantUsers.get(grant.id) ?? 0) + 1);
      lastGrant = grant.id;

      const entry = roles.get(grant.roleKey) ?? newRole(grant, roles);
      let use = mine.find((m) => m.entry === entry)?.use;
      if (use === undefined) {
        use = { namespace: name, grants: [], actual: false };
        entry.uses.push(use);
        mine.push({ entry, use });
      }
      if (use.grants[use.grants.length - 1] !== grant.id) use.grants.push(grant.id);
      if (reach.actual) use.actual = true;
    }
    mine.sort((a, b) => compareRoles(a.entry, b.entry));
    namespaces.push({
      name,
      defaults: plain.get(name)!.defaults,
      roles: mine.map(({ entry, use }) => ({ ...roleFields(entry), grants: use.grants, actual: use.actual })),
    });
  }

  // Every role a grant leads to is listed, used or not (an unused key's role): the totals and
  // the map count it, so the roles the report lists must include it too.
  for (const grant of grantBook.all()) if (!roles.has(grant.roleKey)) newRole(grant, roles);
  const roleList = [...roles.values()]
    .sort(compareRoles)
    .map((entry): AuditRole => ({ ...roleFields(entry), namespaces: entry.uses }));
  const grants = grantBook.all().map(
    (grant: Grant): AuditGrant => ({
      id: grant.id,
      kind: grant.kind,
      object: grant.object,
      ...(grant.key === undefined ? {} : { key: grant.key }),
      roleARN: grant.roleARN,
      account: grant.account,
      hops: grant.hops,
      namespaceCount: grantUsers.get(grant.id) ?? 0,
    }),
  );
  const byRole = new Map<string, readonly RoleUse[]>();
  for (const [key, entry] of roles) byRole.set(key, entry.uses);
  return { reaches, roles: roleList, namespaces, grants, grantUsers, byRole };
}
