// The map as inline SVG: boxes for namespaces, grants, roles and accounts, lines for who
// reaches what. Solid lines are actual (a plain resource uses them today), dashed ones
// potential; a line takes the colour of the account it leads to. Labels are truncated to fit
// their box; the full text is in each box's <title> (a tooltip). Static: no script, no
// external reference, so it works offline and without JavaScript.
import type { AccountColors } from "./html-colors.ts";
import { escapeHtml as esc, truncate } from "./html-escape.ts";
import { type ColumnAggregation, columnNoun } from "./svg-aggregate.ts";
import type { Column } from "./svg-graph.ts";
import { geometry, type MapLayout, type PlacedEdge, type PlacedNode } from "./svg-layout.ts";

const headings: Readonly<Record<Column, string>> = {
  namespace: "Namespaces",
  grant: "Grants",
  role: "Roles",
  account: "Accounts",
};

/** Characters that fit a box at the label's and the sub-line's font size. */
const labelChars = 27;
const subChars = 34;

/** Fixed-precision numbers: the same layout always prints the same bytes. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

export function renderMap(
  layout: MapLayout,
  colors: AccountColors,
  aggregated: readonly ColumnAggregation[],
): string {
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  const counts = (column: Column) => {
    const agg = aggregated.find((a) => a.column === column);
    const shown = layout.nodes.filter((node) => node.column === column && node.more === 0).length;
    return agg === undefined ? `${shown}` : `${agg.shown} of ${agg.total}`;
  };
  const heading = (column: Column) =>
    `<text class="heading" x="${layout.columnX[column]}" y="18">${headings[column]} <tspan class="count">(${counts(column)})</tspan></text>`;
  // Potential lines first, so actual ones are drawn on top of them.
  const edges = [...layout.edges].sort((a, b) => Number(a.actual) - Number(b.actual));
  return [
    `<svg class="map" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="img" aria-labelledby="map-title">`,
    `<title id="map-title">Who can act as which role: namespaces, the grants they reach, the roles those lead to, and the roles' accounts</title>`,
    `<g class="headings">${(Object.keys(headings) as Column[]).map(heading).join("")}</g>`,
    `<g class="edges">`,
    ...edges.map((edge) => edgeSvg(edge, byId, colors)),
    `</g>`,
    `<g class="nodes">`,
    ...layout.nodes.map((node) => nodeSvg(node, colors)),
    `</g>`,
    `</svg>`,
  ].join("\n");
}

function edgeSvg(edge: PlacedEdge, byId: ReadonlyMap<string, PlacedNode>, colors: AccountColors): string {
  const from = byId.get(edge.from);
  const to = byId.get(edge.to);
  const bend = (edge.x2 - edge.x1) / 2;
  const d = `M${n(edge.x1)} ${n(edge.y1)} C${n(edge.x1 + bend)} ${n(edge.y1)} ${n(edge.x2 - bend)} ${n(edge.y2)} ${n(edge.x2)} ${n(edge.y2)}`;
  const reach = edge.actual ? "actual" : "potential";
  const width = (edge.actual ? 2.6 : 1.6) + Math.min(3, Math.log2(edge.count));
  const folded = edge.count > 1 ? ` (${edge.count} lines folded into one)` : "";
  const title = `${from?.label ?? edge.from} → ${to?.label ?? edge.to}: ${reach}${folded}`;
  return (
    `<path class="edge ${reach}" d="${d}" stroke="${colors(to?.account ?? null)}" stroke-width="${n(width)}"` +
    ` data-from="${esc(edge.from)}" data-to="${esc(edge.to)}" data-reach="${reach}"><title>${esc(title)}</title></path>`
  );
}

function nodeSvg(node: PlacedNode, colors: AccountColors): string {
  const { nodeWidth: w, nodeHeight: h } = geometry;
  // Inline style, not a stroke attribute: the stylesheet's .box rule would override that.
  const color = colors(node.account);
  const identity =
    node.more > 0
      ? `data-more-node="${node.column}" data-more="${node.more}"`
      : `data-node="${esc(node.id)}"`;
  const shapes: string[] = [];
  switch (node.column) {
    case "namespace":
      shapes.push(`<rect class="box" width="${w}" height="${h}" rx="6"/>`);
      break;
    case "grant":
      shapes.push(`<rect class="box" width="${w}" height="${h}" rx="6"/>`);
      shapes.push(`<rect class="stripe" width="6" height="${h}" rx="3" fill="${color}"/>`);
      break;
    case "role":
      shapes.push(`<rect class="box" width="${w}" height="${h}" rx="6" style="stroke:${color}"/>`);
      shapes.push(`<rect class="stripe" width="6" height="${h}" rx="3" fill="${color}"/>`);
      break;
    case "account":
      shapes.push(`<rect class="box" width="${w}" height="${h}" rx="6" style="stroke:${color}"/>`);
      shapes.push(`<rect width="${w}" height="${h}" rx="6" fill="${color}" fill-opacity="0.22"/>`);
      break;
  }
  const more = node.more > 0 ? " more" : "";
  return [
    `<g class="node ${node.column}${more}" ${identity} transform="translate(${n(node.x)} ${n(node.y)})">`,
    `<title>${esc(node.title)}</title>`,
    ...shapes,
    `<text class="label" x="14" y="16">${esc(truncate(node.label, labelChars))}</text>`,
    `<text class="sub" x="14" y="31">${esc(truncate(node.sub, subChars))}</text>`,
    `</g>`,
  ].join("");
}

/** The sentence under the map: what it shows, and whether (and how) it was aggregated. */
export function mapCaption(aggregated: readonly ColumnAggregation[]): string {
  if (aggregated.length === 0) {
    return "Every namespace, grant, role and account of the report. Hover over a box or a line for its full name.";
  }
  const parts = aggregated.map(
    (a) => `the ${a.shown} most connected of ${a.total} ${columnNoun(a.column, a.total)}`,
  );
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return (
    `The map is aggregated to stay readable: it shows ${list}, ` +
    `and one “… and K more” box standing for the rest of each. The tables below list everything.`
  );
}
