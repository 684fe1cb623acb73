// Where each box and line of the map goes. Four columns left to right (namespaces → grants →
// roles → accounts). Orders each column from the right so that lines cross as little as a
// simple rule allows: accounts by id, roles by their account, grants by their role,
// namespaces by the mean position of the grants they reach. Each column is centred
// vertically; a node's lines leave and arrive spread over its side, in the order of their
// other ends, instead of all meeting in one point.
import { compareText } from "../toolkit/compare-text.ts";
import { type AggregatedGraph, moreNodeId } from "./svg-aggregate.ts";
import { type Column, columns, type GraphEdge, type GraphNode } from "./svg-graph.ts";

export const geometry = {
  width: 1320,
  nodeWidth: 240,
  nodeHeight: 38,
  pitch: 48,
  /** Room above the first row for the column headings. */
  top: 44,
  bottom: 8,
} as const;

export interface PlacedNode extends GraphNode {
  readonly x: number;
  readonly y: number;
}

export interface PlacedEdge extends GraphEdge {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface MapLayout {
  readonly width: number;
  readonly height: number;
  readonly columnX: Readonly<Record<Column, number>>;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

/** The columns' nodes in display order (see the file comment). */
function orderColumns(graph: AggregatedGraph): Map<Column, GraphNode[]> {
  const ordered = new Map<Column, GraphNode[]>();
  const position = new Map<string, number>();
  const targets = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const list = targets.get(edge.from);
    if (list === undefined) targets.set(edge.from, [edge.to]);
    else list.push(edge.to);
  }
  for (const column of [...columns].reverse()) {
    const mean = (node: GraphNode): number => {
      const known = (targets.get(node.id) ?? []).flatMap((t) => position.get(t) ?? []);
      return known.length === 0 ? Number.POSITIVE_INFINITY : known.reduce((a, b) => a + b, 0) / known.length;
    };
    const keyed = graph.nodes
      .filter((n) => n.column === column)
      .map((node) => ({ node, key: column === "account" ? 0 : mean(node) }));
    keyed.sort((a, b) => {
      const moreA = a.node.id === moreNodeId(column);
      const moreB = b.node.id === moreNodeId(column);
      if (moreA !== moreB) return moreA ? 1 : -1;
      if (a.key !== b.key) return a.key < b.key ? -1 : 1;
      return compareText(a.node.label, b.node.label) || compareText(a.node.id, b.node.id);
    });
    const nodes = keyed.map((k) => k.node);
    nodes.forEach((n, i) => {
      position.set(n.id, i);
    });
    ordered.set(column, nodes);
  }
  return ordered;
}

export function layoutMap(graph: AggregatedGraph): MapLayout {
  const { width, nodeWidth, nodeHeight, pitch, top, bottom } = geometry;
  const ordered = orderColumns(graph);
  const gap = pitch - nodeHeight;
  const columnHeight = (n: number) => Math.max(0, n * pitch - gap);
  const tallest = Math.max(nodeHeight, ...[...ordered.values()].map((nodes) => columnHeight(nodes.length)));
  const step = (width - nodeWidth) / (columns.length - 1);
  const columnX = Object.fromEntries(columns.map((c, i) => [c, Math.round(i * step)])) as Record<
    Column,
    number
  >;

  const placed = new Map<string, PlacedNode>();
  for (const column of columns) {
    const nodes = ordered.get(column) ?? [];
    const y0 = top + (tallest - columnHeight(nodes.length)) / 2;
    nodes.forEach((node, i) => {
      placed.set(node.id, { ...node, x: columnX[column], y: Math.round(y0 + i * pitch) });
    });
  }

  const centre = (id: string) => {
    const n = placed.get(id);
    return n === undefined ? 0 : n.y + nodeHeight / 2;
  };
  const outgoing = spread(
    graph.edges,
    (e) => e.from,
    (e) => centre(e.to),
  );
  const incoming = spread(
    graph.edges,
    (e) => e.to,
    (e) => centre(e.from),
  );
  const edges: PlacedEdge[] = [];
  for (const edge of graph.edges) {
    const from = placed.get(edge.from);
    const to = placed.get(edge.to);
    if (from === undefined || to === undefined) continue;
    edges.push({
      ...edge,
      x1: from.x + nodeWidth,
      y1: from.y + (outgoing.get(edge) ?? nodeHeight / 2),
      x2: to.x,
      y2: to.y + (incoming.get(edge) ?? nodeHeight / 2),
    });
  }
  return { width, height: top + tallest + bottom, columnX, nodes: [...placed.values()], edges };
}

/**
 * For each node, the offsets (from its top) where its edges on one side attach: spread over
 * the middle of its side, in the order of the edges' other ends, so lines do not cross at it.
 */
function spread(
  edges: readonly GraphEdge[],
  end: (e: GraphEdge) => string,
  otherY: (e: GraphEdge) => number,
): Map<GraphEdge, number> {
  const byNode = new Map<string, GraphEdge[]>();
  for (const e of edges) {
    const list = byNode.get(end(e));
    if (list === undefined) byNode.set(end(e), [e]);
    else list.push(e);
  }
  const margin = 8;
  const usable = geometry.nodeHeight - 2 * margin;
  const offsets = new Map<GraphEdge, number>();
  for (const list of byNode.values()) {
    list.sort((a, b) => otherY(a) - otherY(b) || compareText(`${a.from} ${a.to}`, `${b.from} ${b.to}`));
    list.forEach((e, i) => {
      offsets.set(e, list.length === 1 ? geometry.nodeHeight / 2 : margin + (usable * i) / (list.length - 1));
    });
  }
  return offsets;
}
