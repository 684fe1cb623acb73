// The map as a graph, before any layout: one node per namespace, grant, role and account of
// the report, and the edges that say who reaches what. Namespace → grant edges come from the
// reaches; grant → role from each grant's final role; role → account from the role's account.
// An edge is `actual` when any reach along it is actual (a plain resource uses it today),
// otherwise `potential`. Node ids are what the HTML's data-node attributes carry, so a test can
// count them against the JSON.
import { grantLabel, roleName } from "./html-labels.ts";
import type { AuditReport } from "./model.ts";
import { controllerRoleKey, grantRoleKey, reportObjects } from "./report-objects.ts";

export type Column = "namespace" | "grant" | "role" | "account";
export const columns: readonly Column[] = ["namespace", "grant", "role", "account"];

export interface GraphNode {
  /** `<column>:<key>`: `namespace:shop`, `grant:<grant id>`, `role:<ARN>` or `role:controller`, `account:<id>`. */
  readonly id: string;
  readonly column: Column;
  readonly label: string;
  readonly sub: string;
  /** Full text for the tooltip (labels are truncated, this never is). */
  readonly title: string;
  /** Colours the node; null when it has none (controller's unknown account, mixed aggregate). */
  readonly account: string | null;
  /** How many namespaces (for a namespace: grants) it connects; ranks nodes for aggregation. */
  readonly weight: number;
  /** 0 for a report object; K for the "… and K more" node that stands for K of them. */
  readonly more: number;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly actual: boolean;
  /** How many report-level edges it stands for (more than 1 only after aggregation). */
  readonly count: number;
}

export interface Graph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

function nodeId(column: Column, key: string): string {
  return `${column}:${key}`;
}

export function buildGraph(report: AuditReport): Graph {
  const edges = new EdgeSet();
  // Namespaces reaching each node, to rank them (and label namespaces by what they reach).
  const reachers = new Map<string, Set<string>>();
  const reached = (id: string, namespace: string) => {
    const set = reachers.get(id) ?? new Set<string>();
    set.add(namespace);
    reachers.set(id, set);
  };
  const grantsById = new Map(report.grants.map((g) => [g.id, g]));
  const nsGrants = new Map<string, { all: Set<string>; actual: Set<string> }>();
  const actualRoles = new Set<string>();

  for (const reach of report.reaches) {
    const grant = grantsById.get(reach.grant);
    const roleId = nodeId(
      "role",
      grant === undefined ? (reach.roleARN ?? controllerRoleKey) : grantRoleKey(grant),
    );
    edges.add(nodeId("namespace", reach.namespace), nodeId("grant", reach.grant), reach.actual);
    edges.add(nodeId("grant", reach.grant), roleId, reach.actual);
    if (reach.actual) actualRoles.add(roleId);
    reached(nodeId("grant", reach.grant), reach.namespace);
    reached(roleId, reach.namespace);
    const mine = nsGrants.get(reach.namespace) ?? { all: new Set<string>(), actual: new Set<string>() };
    mine.all.add(reach.grant);
    if (reach.actual) mine.actual.add(reach.grant);
    nsGrants.set(reach.namespace, mine);
  }

  const nodes = new Map<string, GraphNode>();
  const put = (node: Omit<GraphNode, "weight" | "more">) => {
    if (!nodes.has(node.id))
      nodes.set(node.id, { ...node, weight: reachers.get(node.id)?.size ?? 0, more: 0 });
  };

  // The same objects the totals count (report-objects.ts), so the two always agree.
  const objects = reportObjects(report);
  for (const name of objects.namespaces) {
    const mine = nsGrants.get(name);
    const actual = mine?.actual.size ?? 0;
    const potential = (mine?.all.size ?? 0) - actual;
    const id = nodeId("namespace", name);
    nodes.set(id, {
      id,
      column: "namespace",
      label: name,
      sub: `grants: ${actual} actual · ${potential} potential`,
      title: `namespace ${name}: ${actual} grant(s) used by plain resources today, ${potential} more it could use`,
      account: null,
      weight: mine?.all.size ?? 0,
      more: 0,
    });
  }

  for (const grant of objects.grants) {
    const { label, sub } = grantLabel(grant);
    put({
      id: nodeId("grant", grant.id),
      column: "grant",
      label,
      sub,
      title: `${grant.id} (${grant.namespaceCount} namespace(s))`,
      account: grant.account,
    });
    edges.add(nodeId("grant", grant.id), nodeId("role", grantRoleKey(grant)), false);
  }
  const { roles, accounts } = objects;
  for (const [key, role] of roles) {
    put({
      id: nodeId("role", key),
      column: "role",
      // Without an ARN the key says whose credentials: the controller's, or static keys'.
      label: role.roleARN === null && key !== controllerRoleKey ? key : roleName(role.roleARN),
      sub: role.account === null ? "account not known" : `account ${role.account}`,
      title: role.roleARN ?? "the controller's own credentials (no role assumed)",
      account: role.account,
    });
    // A role's line to its account is as actual as the role's use; the account is reached by
    // every namespace reaching one of its roles.
    if (role.account !== null) {
      const roleId = nodeId("role", key);
      edges.add(roleId, nodeId("account", role.account), actualRoles.has(roleId));
      for (const ns of reachers.get(roleId) ?? []) reached(nodeId("account", role.account), ns);
    }
  }
  for (const account of accounts) {
    const roleCount = [...roles.values()].filter((r) => r.account === account).length;
    const controller = account === report.controllerAccount;
    put({
      id: nodeId("account", account),
      column: "account",
      label: account,
      sub: `${controller ? "controller's account · " : ""}${roleCount} role${roleCount === 1 ? "" : "s"}`,
      title: `AWS account ${account}${controller ? " (the controller's own account)" : ""}`,
      account,
    });
  }
  return { nodes: [...nodes.values()], edges: edges.list() };
}

/** Edges keyed by their ends: one per pair, actual if any edge merged into it is. */
export class EdgeSet {
  readonly #edges = new Map<string, GraphEdge>();

  /** A report-level edge: seen again (another reach along it), it is still one edge. */
  add(from: string, to: string, actual: boolean): void {
    const seen = this.#edges.get(`${from}\n${to}`);
    this.#put({ from, to, actual: actual || (seen?.actual ?? false), count: 1 });
  }

  /** An edge folded into an aggregate: counts add up. */
  merge(edge: GraphEdge): void {
    const seen = this.#edges.get(`${edge.from}\n${edge.to}`);
    this.#put({
      ...edge,
      actual: edge.actual || (seen?.actual ?? false),
      count: edge.count + (seen?.count ?? 0),
    });
  }

  list(): GraphEdge[] {
    return [...this.#edges.values()];
  }

  #put(edge: GraphEdge): void {
    this.#edges.set(`${edge.from}\n${edge.to}`, edge);
  }
}
