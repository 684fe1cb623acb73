// Keeps the map readable for large reports: a column with more than `limit` nodes shows only
// its `shown` best-connected ones and one "… and K more" node standing for the rest, with the
// rest's edges folded onto it. The tables below the map still list everything.
import { compareText } from "../toolkit/compare-text.ts";
import { type Column, columns, EdgeSet, type Graph, type GraphNode } from "./svg-graph.ts";

/** A column with more nodes than this is aggregated... */
export const mapColumnLimit = 60;
/** ...to this many, plus the "… and K more" node. */
export const mapColumnShown = 30;

export interface ColumnAggregation {
  readonly column: Column;
  readonly shown: number;
  readonly total: number;
}

export interface AggregatedGraph extends Graph {
  /** Columns that were aggregated, in map order; empty when the map shows everything. */
  readonly aggregated: readonly ColumnAggregation[];
}

const plural: Readonly<Record<Column, string>> = {
  namespace: "namespaces",
  grant: "grants",
  role: "roles",
  account: "accounts",
};

export function columnNoun(column: Column, count: number): string {
  return count === 1 ? column : plural[column];
}

/** The id of a column's "… and K more" node (`*` is in no namespace, key, ARN or account). */
export function moreNodeId(column: Column): string {
  return `${column}:*`;
}

export function aggregate(graph: Graph, limit = mapColumnLimit, shown = mapColumnShown): AggregatedGraph {
  const alias = new Map<string, string>();
  const nodes: GraphNode[] = [];
  const aggregated: ColumnAggregation[] = [];
  for (const column of columns) {
    const all = graph.nodes.filter((n) => n.column === column);
    if (all.length <= limit) {
      nodes.push(...all);
      continue;
    }
    // Most-connected first; ties by id, so the same report always keeps the same nodes.
    const ranked = [...all].sort((a, b) => b.weight - a.weight || compareText(a.id, b.id));
    const kept = ranked.slice(0, shown);
    const rest = ranked.slice(shown);
    const id = moreNodeId(column);
    for (const node of rest) alias.set(node.id, id);
    const accounts = new Set(rest.map((n) => n.account));
    const sample = rest.slice(0, 12).map((n) => n.label);
    nodes.push(...kept, {
      id,
      column,
      label: `… and ${rest.length} more`,
      sub: `${plural[column]}: see the tables`,
      title: `${rest.length} more ${plural[column]}, e.g. ${sample.join(", ")}${rest.length > sample.length ? ", …" : ""}`,
      account: accounts.size === 1 ? ([...accounts][0] ?? null) : null,
      weight: rest.reduce((sum, n) => sum + n.weight, 0),
      more: rest.length,
    });
    aggregated.push({ column, shown: kept.length, total: all.length });
  }
  if (aggregated.length === 0) return { ...graph, aggregated };
  const edges = new EdgeSet();
  for (const edge of graph.edges) {
    edges.merge({ ...edge, from: alias.get(edge.from) ?? edge.from, to: alias.get(edge.to) ?? edge.to });
  }
  return { nodes, edges: edges.list(), aggregated };
}
