// `crossrole audit -o html`: the audit report as one self-contained HTML5 file — inline CSS
// and SVG, no script, no external resource — that a person can read at a glance and attach
// to a ticket: the totals, the findings, a map (namespaces → grants → roles → accounts), then
// tables that list everything. Pure and deterministic: the same report gives the same bytes
// (no clock, no randomness, sorts by code unit), so outputs can be diffed and tested.
import { accountColors } from "./html-colors.ts";
import { escapeHtml as esc } from "./html-escape.ts";
import { findingsHtml, problemsHtml } from "./html-findings.ts";
import { legendHtml } from "./html-legend.ts";
import type { RenderContext } from "./html-parts.ts";
import { reportCss } from "./html-style.ts";
import { grantsTableHtml, namespacesTableHtml, rolesTableHtml } from "./html-tables.ts";
import type { AuditReport } from "./model.ts";
import { aggregate } from "./svg-aggregate.ts";
import { buildGraph } from "./svg-graph.ts";
import { layoutMap } from "./svg-layout.ts";
import { mapCaption, renderMap } from "./svg-map.ts";

export function renderHtml(report: AuditReport): string {
  const full = buildGraph(report);
  const colors = accountColors(
    new Map(full.nodes.flatMap((n) => (n.column === "account" ? [[n.label, n.weight] as const] : []))),
  );
  const graph = aggregate(full);
  const ctx: RenderContext = { report, colors, grants: new Map(report.grants.map((g) => [g.id, g])) };
  const map =
    graph.nodes.length === 0
      ? `<p class="none">Nothing to draw: the report has no namespaces or grants.</p>`
      : [
          `<figure>`,
          renderMap(layoutMap(graph), colors, graph.aggregated),
          `<figcaption class="${graph.aggregated.length > 0 ? "aggregated" : "complete"}" data-aggregated="${graph.aggregated.length > 0}">${esc(mapCaption(graph.aggregated))}</figcaption>`,
          `</figure>`,
          legendHtml(colors, report.controllerAccount),
        ].join("\n");
  return [
    `<!DOCTYPE html>`,
    `<html lang="en">`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>crossrole audit: ${esc(report.source.detail)}</title>`,
    `<style>${reportCss}</style>`,
    `</head>`,
    `<body>`,
    `<main>`,
    headerHtml(report),
    totalsHtml(report),
    `<section id="findings"><h2>Findings (${report.findings.length})</h2>`,
    findingsHtml(ctx),
    `</section>`,
    `<section id="map"><h2>Who can act as which role</h2>`,
    map,
    `</section>`,
    `<section id="roles"><h2>Roles (${report.roles.length})</h2>`,
    rolesTableHtml(ctx),
    `</section>`,
    `<section id="namespaces"><h2>Namespaces (${report.namespaces.length})</h2>`,
    namespacesTableHtml(ctx),
    `</section>`,
    `<section id="grants"><h2>Grants (${report.grants.length})</h2>`,
    grantsTableHtml(ctx),
    `</section>`,
    ...(report.problems.length === 0
      ? []
      : [
          `<section id="problems"><h2>Problems in the configuration (${report.problems.length})</h2>`,
          problemsHtml(ctx),
          `</section>`,
        ]),
    `<footer>${esc(report.apiVersion)} · rendered by crossrole audit -o html · no scripts, nothing loaded from elsewhere</footer>`,
    `</main>`,
    `</body>`,
    `</html>`,
    ``,
  ].join("\n");
}

function headerHtml(report: AuditReport): string {
  const filter = [
    ...(report.filter.role === undefined ? [] : [`role ${report.filter.role}`]),
    ...(report.filter.namespace === undefined ? [] : [`namespace ${report.filter.namespace}`]),
  ];
  const item = (term: string, value: string, key: string) =>
    `<div><dt>${term}</dt><dd data-meta="${key}">${value}</dd></div>`;
  return [
    `<header>`,
    `<h1>crossrole audit: who can act as which AWS role</h1>`,
    `<dl class="meta">`,
    item("Mode", esc(report.mode), "mode"),
    item(
      "Source",
      `${esc(report.source.from)}: <span class="mono">${esc(report.source.detail)}</span>`,
      "source",
    ),
    item(
      "Controller account",
      report.controllerAccount === null
        ? `<span class="muted">not known</span>`
        : `<span class="mono">${esc(report.controllerAccount)}</span>`,
      "controllerAccount",
    ),
    item("Kinds", esc(report.kinds.join(", ")), "kinds"),
    item(
      "Filter",
      filter.length === 0 ? `<span class="muted">none</span>` : esc(filter.join(", ")),
      "filter",
    ),
    `</dl>`,
    ...(report.notes === undefined || report.notes.length === 0
      ? []
      : [
          `<ul class="notes" aria-label="Assumptions">${report.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>`,
        ]),
    `</header>`,
  ].join("\n");
}

const totalLabels = [
  ["namespaces", "namespaces"],
  ["grants", "grants"],
  ["roles", "roles"],
  ["accounts", "accounts"],
  ["reaches", "reaches"],
  ["findings", "findings"],
] as const;

function totalsHtml(report: AuditReport): string {
  const boxes = totalLabels.map(([key, label]) => {
    const value = report.totals[key];
    const some = key === "findings" && value > 0 ? " some" : "";
    return `<div class="total ${key}${some}"><span class="n" data-total="${key}">${value}</span><span class="l">${label}</span></div>`;
  });
  return `<section class="totals" aria-label="Totals">\n${boxes.join("\n")}\n</section>`;
}
