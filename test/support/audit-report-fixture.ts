// AuditReports for the HTML report's tests, written by hand so they do not depend on
// computeAudit: `aliceAuditReport()` is what `crossrole audit --from examples/alice
// --controller-account 999999999999` describes (namespaces shop and sandbox, the CARM account
// map to 111111111111, AWSRoleIdentity central-it in 222222222222 for shop only, the
// controller's own credentials for everyone else), and `largeAuditReport(n)` a cluster with n
// team namespaces, for the map's aggregation. `withStrings` rewrites a report's tenant-written
// text, to test escaping.
import type {
  AuditFinding,
  AuditGrant,
  AuditNamespace,
  AuditReach,
  AuditReport,
  AuditRole,
} from "../../src/audit/model.ts";
import { servedKindNames } from "../../src/services/served.ts";

/** Every served kind, sorted, as the report lists them. */
const kinds: readonly string[] = [...servedKindNames].sort();
const controllerAccount = "999999999999";
const shopTeam = "arn:aws:iam::111111111111:role/shop-team";
const centralIt = "arn:aws:iam::222222222222:role/central-it";

const accountMapGrant = (account: string, roleARN: string, namespaceCount: number): AuditGrant => ({
  id: `accountMap:ack-role-account-map/${account}`,
  kind: "accountMap",
  object: { kind: "ConfigMap", namespace: "ack-system", name: "ack-role-account-map" },
  key: account,
  roleARN,
  account,
  hops: [
    {
      kind: "CARM",
      name: "ack-role-account-map",
      namespace: "ack-system",
      roleARN,
      account,
      admits: `namespaces annotated services.k8s.aws/owner-account-id: ${account}`,
    },
  ],
  namespaceCount,
});

const controllerDefault = (namespaceCount: number): AuditGrant => ({
  id: "controller:default",
  kind: "controller",
  object: { kind: "AWSControllerIdentity", name: "default" },
  roleARN: null,
  account: controllerAccount,
  hops: [{ kind: "AWSControllerIdentity", name: "default", account: controllerAccount }],
  namespaceCount,
});

const controllerIdentity = (namespaceCount: number): AuditGrant => ({
  id: "identity:AWSControllerIdentity/default",
  kind: "identity",
  object: { kind: "AWSControllerIdentity", name: "default" },
  roleARN: null,
  account: controllerAccount,
  hops: [
    {
      kind: "AWSControllerIdentity",
      name: "default",
      account: controllerAccount,
      admits: "allowedNamespaces: {} (every namespace)",
    },
  ],
  namespaceCount,
});

const centralItGrant: AuditGrant = {
  id: "identity:AWSRoleIdentity/central-it",
  kind: "identity",
  object: { kind: "AWSRoleIdentity", name: "central-it" },
  roleARN: centralIt,
  account: "222222222222",
  hops: [
    {
      kind: "AWSControllerIdentity",
      name: "default",
      account: controllerAccount,
      admits: "allowedNamespaces: {} (every namespace)",
    },
    {
      kind: "AWSRoleIdentity",
      name: "central-it",
      roleARN: centralIt,
      account: "222222222222",
      admits: "list [shop]",
    },
  ],
  namespaceCount: 1,
};

function reach(
  namespace: string,
  grant: AuditGrant,
  actual: boolean,
  how: string,
  kindsHeld: readonly string[] = kinds,
): AuditReach {
  return {
    namespace,
    kinds: kindsHeld,
    grant: grant.id,
    roleARN: grant.roleARN,
    account: grant.account,
    actual,
    how,
  };
}

function namespaceEntry(name: string, uses: AuditGrant, message: string, reaches: readonly AuditReach[]) {
  const roles = new Map<string, AuditNamespace["roles"][number]>();
  for (const r of reaches) {
    const key = r.roleARN ?? "";
    const seen = roles.get(key);
    roles.set(key, {
      roleARN: r.roleARN,
      account: r.account,
      grants: [...(seen?.grants ?? []), r.grant].sort(),
      actual: (seen?.actual ?? false) || r.actual,
    });
  }
  const entry: AuditNamespace = {
    name,
    defaults: kinds.map((kind) => ({
      kind,
      outcome: "use" as const,
      roleARN: uses.roleARN,
      account: uses.account,
      message,
    })),
    roles: [...roles.values()].sort((a, b) => ((a.roleARN ?? "") < (b.roleARN ?? "") ? -1 : 1)),
  };
  return entry;
}

/** Roles from reaches, each namespace once with the grants it uses (AuditRole's shape). */
function rolesOf(reaches: readonly AuditReach[]): AuditRole[] {
  const roles = new Map<
    string,
    { roleARN: string | null; account: string | null; ns: Map<string, AuditReach[]> }
  >();
  for (const r of reaches) {
    const key = r.roleARN ?? "";
    const role = roles.get(key) ?? { roleARN: r.roleARN, account: r.account, ns: new Map() };
    role.ns.set(r.namespace, [...(role.ns.get(r.namespace) ?? []), r]);
    roles.set(key, role);
  }
  return [...roles.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, role]) => ({
      roleARN: role.roleARN,
      account: role.account,
      namespaces: [...role.ns.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([namespace, rs]) => ({
          namespace,
          grants: [...new Set(rs.map((r) => r.grant))].sort(),
          actual: rs.some((r) => r.actual),
        })),
    }));
}

function assemble(
  grants: readonly AuditGrant[],
  reaches: readonly AuditReach[],
  namespaces: readonly AuditNamespace[],
  findings: readonly AuditFinding[],
): AuditReport {
  const roles = rolesOf(reaches);
  const accounts = new Set(roles.flatMap((r) => (r.account === null ? [] : [r.account])));
  return {
    apiVersion: "crossrole.dev/audit/v1",
    mode: "CARM",
    source: { from: "files", detail: "examples/alice" },
    controllerAccount,
    kinds,
    filter: {},
    totals: {
      namespaces: namespaces.length,
      roles: roles.length,
      accounts: accounts.size,
      grants: grants.length,
      reaches: reaches.length,
      findings: findings.length,
    },
    grants,
    reaches,
    roles,
    namespaces,
    findings,
    problems: [],
  };
}

const everyNamespaceFinding = (namespaces: readonly string[]): AuditFinding => ({
  code: "IdentityAdmitsEveryNamespace",
  severity: "high",
  object: { kind: "AWSControllerIdentity", name: "default" },
  message:
    "AWSControllerIdentity default admits every namespace (spec.allowedNamespaces: {}): any namespace " +
    `can act as the controller's own credentials in ${controllerAccount} by naming it in spec.identityRef.`,
  fix: "List the namespaces that need it in spec.allowedNamespaces.list, or select them with spec.allowedNamespaces.selector.",
  namespaces,
});

const crossAccountFinding: AuditFinding = {
  code: "CrossAccountChain",
  severity: "low",
  object: { kind: "AWSRoleIdentity", name: "central-it" },
  message: `AWSRoleIdentity central-it chains from the controller's credentials in ${controllerAccount} into account 222222222222 (${centralIt}).`,
  fix: "Expected for a central role; check that the role in 222222222222 trusts only the controller's role.",
  roleARN: centralIt,
  namespaces: ["shop"],
};

const deniedFinding: AuditFinding = {
  code: "DeniedResource",
  severity: "medium",
  object: { kind: "Bucket", name: "sandbox-billing-exports", namespace: "sandbox" },
  message:
    "Bucket sandbox/sandbox-billing-exports exists but is denied (IdentityNotPermitted), so nothing is done in AWS: AWSRoleIdentity central-it does not allow namespace sandbox",
  fix: "if namespace sandbox should act as AWSRoleIdentity central-it, an administrator adds it to that identity's spec.allowedNamespaces; otherwise remove spec.identityRef from the resource, or delete it",
  roleARN: centralIt,
  namespaces: ["sandbox"],
};

export function aliceAuditReport(): AuditReport {
  const shopMap = accountMapGrant("111111111111", shopTeam, 1);
  const viaDefault = controllerDefault(1);
  const viaIdentity = controllerIdentity(2);
  const shop = [
    {
      ...reach(
        "shop",
        shopMap,
        true,
        "namespace annotation services.k8s.aws/owner-account-id: 111111111111, mapped by ConfigMap ack-system/ack-role-account-map",
      ),
      resources: ["Bucket shop/shop-assets", "Queue shop/shop-orders"],
    },
    // In use although only potential: these resources name the identity in spec.identityRef.
    {
      ...reach("shop", centralItGrant, false, "spec.identityRef to AWSRoleIdentity central-it"),
      resources: [
        "Bucket shop/shop-billing-exports",
        "DBInstance shop/shop-db",
        "DBSubnetGroup shop/shop-db-subnets",
      ],
    },
    reach("shop", viaIdentity, false, "spec.identityRef to AWSControllerIdentity default"),
  ];
  const sandbox = [
    reach("sandbox", viaDefault, true, "no CARM mapping for the namespace: the controller's own credentials"),
    reach("sandbox", viaIdentity, false, "spec.identityRef to AWSControllerIdentity default"),
  ];
  return assemble(
    [shopMap, centralItGrant, viaDefault, viaIdentity],
    [...shop, ...sandbox],
    [
      namespaceEntry(
        "sandbox",
        viaDefault,
        "namespace sandbox has no owner-account-id annotation: the controller's own credentials (default rule)",
        sandbox,
      ),
      namespaceEntry(
        "shop",
        shopMap,
        `CARM: namespace shop is annotated owner-account-id 111111111111, mapped to ${shopTeam}`,
        shop,
      ),
    ],
    [everyNamespaceFinding(["sandbox", "shop"]), deniedFinding, crossAccountFinding],
  );
}

/**
 * `count` team namespaces `team-000`..., each mapped by its own CARM team-map key to its team's
 * role (twenty teams to an account) and each able to use central-it and the controller's
 * credentials: large in every column but accounts.
 */
export function largeAuditReport(count: number): AuditReport {
  const viaIdentity = controllerIdentity(count);
  const open: AuditGrant = { ...centralItGrant, namespaceCount: count };
  const grants: AuditGrant[] = [];
  const reaches: AuditReach[] = [];
  const namespaces: AuditNamespace[] = [];
  for (let i = 0; i < count; i++) {
    const name = `team-${String(i).padStart(3, "0")}`;
    const account = String(300000000000 + Math.floor(i / 20));
    const roleARN = `arn:aws:iam::${account}:role/${name}`;
    const team: AuditGrant = {
      id: `teamMap:ack-role-team-map/${name}`,
      kind: "teamMap",
      object: { kind: "ConfigMap", namespace: "ack-system", name: "ack-role-team-map" },
      key: name,
      roleARN,
      account,
      hops: [{ kind: "CARM", name: "ack-role-team-map", namespace: "ack-system", roleARN, account }],
      namespaceCount: 1,
    };
    grants.push(team);
    const mine = [
      reach(name, team, true, `namespace annotation services.k8s.aws/team-id: ${name}`),
      reach(name, open, false, "spec.identityRef to AWSRoleIdentity central-it"),
      reach(name, viaIdentity, false, "spec.identityRef to AWSControllerIdentity default", [
        "Bucket",
        "Queue",
      ]),
    ];
    reaches.push(...mine);
    namespaces.push(namespaceEntry(name, team, `CARM maps team ${name} to ${roleARN}`, mine));
  }
  return assemble([...grants, open, viaIdentity], reaches, namespaces, [
    everyNamespaceFinding(namespaces.map((n) => n.name)),
  ]);
}

/** The report with `text` in every tenant-writable string a renderer shows. */
export function withHostileStrings(report: AuditReport, text: string): AuditReport {
  return {
    ...report,
    source: { ...report.source, detail: `${report.source.detail} ${text}` },
    notes: [`namespace assumed to exist ${text}`],
    reaches: report.reaches.map((r) => ({ ...r, how: `${r.how} ${text}` })),
    grants: report.grants.map((g) => ({
      ...g,
      key: g.key === undefined ? undefined : `${g.key}${text}`,
      hops: g.hops.map((h) => ({ ...h, admits: `selector team=${text}` })),
    })),
    findings: report.findings.map((f) => ({
      ...f,
      message: `${f.message} ${text}`,
      fix: `${f.fix} ${text}`,
    })),
    namespaces: report.namespaces.map((n) => ({
      ...n,
      defaults: n.defaults.map((d) => ({ ...d, message: `${d.message} ${text}` })),
    })),
  };
}

/**
 * What the HTML map must show for `report`, derived from the JSON alone (independently of the
 * renderer): one node per namespace, grant, role (the report's and any a grant leads to) and
 * account of those roles, and one edge per namespace → grant pair reached, per grant (to its
 * role) and per role with a known account.
 */
export function expectedMap(report: AuditReport): {
  readonly nodes: readonly string[];
  readonly edges: number;
  readonly actualReachEdges: number;
} {
  const roles = new Map<string, string | null>();
  for (const r of report.roles) roles.set(r.roleARN ?? "controller", r.account);
  for (const g of report.grants)
    if (!roles.has(g.roleARN ?? "controller")) roles.set(g.roleARN ?? "controller", g.account);
  const accounts = new Set([...roles.values()].filter((a): a is string => a !== null));
  const namespaces = new Set([
    ...report.namespaces.map((n) => n.name),
    ...report.reaches.map((r) => r.namespace),
  ]);
  const pairs = new Map<string, boolean>();
  for (const r of report.reaches) {
    const key = `${r.namespace}\n${r.grant}`;
    pairs.set(key, (pairs.get(key) ?? false) || r.actual);
  }
  const nodes = [
    ...[...namespaces].map((n) => `namespace:${n}`),
    ...report.grants.map((g) => `grant:${g.id}`),
    ...[...roles.keys()].map((r) => `role:${r}`),
    ...[...accounts].map((a) => `account:${a}`),
  ];
  return {
    nodes: nodes.sort(),
    edges: pairs.size + report.grants.length + [...roles.values()].filter((a) => a !== null).length,
    actualReachEdges: [...pairs.values()].filter(Boolean).length,
  };
}
