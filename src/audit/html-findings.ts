// The findings table (what an auditor should change, worst first) and the table of
// configuration problems (objects excluded or suspicious). Finding and problem text can quote
// tenant-written values, so all of it is escaped.
import { escapeHtml as esc } from "./html-escape.ts";
import { objectText, roleName } from "./html-labels.ts";
import { namesHtml, type RenderContext, tableHtml } from "./html-parts.ts";
import type { AuditFinding } from "./model.ts";

const severityRank: Readonly<Record<AuditFinding["severity"], number>> = { high: 0, medium: 1, low: 2 };

export function findingsHtml(ctx: RenderContext): string {
  const findings = ctx.report.findings;
  if (findings.length === 0) return `<p class="none">No findings.</p>`;
  // Stable sort: within a severity, the report's own order.
  const sorted = [...findings].sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
  const rows = sorted.map((f) => {
    const involved = [
      ...(f.roleARN === undefined
        ? []
        : [`role <span title="${esc(f.roleARN)}">${esc(roleName(f.roleARN))}</span>`]),
      ...(f.namespaces === undefined || f.namespaces.length === 0
        ? []
        : [`namespaces ${namesHtml(f.namespaces, "namespaces")}`]),
    ];
    const extra = involved.length === 0 ? "" : `<br><span class="muted">${involved.join(" · ")}</span>`;
    return (
      `<tr data-finding="${esc(f.code)}" data-severity="${esc(f.severity)}">` +
      `<td><span class="sev ${esc(f.severity)}">${esc(f.severity)}</span></td>` +
      `<td><code>${esc(f.code)}</code></td>` +
      `<td>${esc(objectText(f.object))}</td>` +
      `<td>${esc(f.message)}${extra}</td>` +
      `<td>${esc(f.fix)}</td></tr>`
    );
  });
  return tableHtml(["Severity", "Code", "Object", "What is wrong", "Fix"], rows, "findings");
}

export function problemsHtml(ctx: RenderContext): string {
  const rows = ctx.report.problems.map(
    (p) =>
      `<tr data-problem="${esc(p.severity)}">` +
      `<td><span class="sev ${esc(p.severity)}">${esc(p.severity)}</span></td>` +
      `<td>${esc(objectText(p.object))}</td>` +
      `<td><code>${esc(p.field)}</code>${p.value === undefined ? "" : `<br><code class="muted">${esc(p.value)}</code>`}</td>` +
      `<td>${esc(p.message)}</td><td>${esc(p.fix)}</td></tr>`,
  );
  return tableHtml(["Severity", "Object", "Field", "What is wrong", "Fix"], rows, "problems");
}
