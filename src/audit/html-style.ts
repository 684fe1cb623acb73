// The report's only stylesheet, inlined in <head>: the file must stand alone (mailed,
// attached to a ticket, opened offline), so nothing is loaded from anywhere. Local fonts
// only; print-friendly (no dark backgrounds behind text).

export const reportCss = `
:root { color-scheme: light; --ink: #1f2633; --muted: #5b6475; --line: #d5dbe5; --soft: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; padding: 20px 24px 40px; font: 14px/1.45 system-ui, "Segoe UI", "DejaVu Sans", Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1352px; margin: 0 auto; }
h1 { font-size: 22px; margin: 0 0 6px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.meta { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; color: var(--muted); }
.meta div { display: flex; gap: 6px; }
.meta dt { font-weight: 600; }
.meta dd { margin: 0; color: var(--ink); }
.notes { margin: 8px 0 0; padding: 6px 10px 6px 28px; background: #fff8e6; border: 1px solid #f0d9a0; border-radius: 6px; }
.totals { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0 4px; }
.total { min-width: 120px; padding: 8px 14px; border: 1px solid var(--line); border-radius: 8px; background: var(--soft); }
.total .n { display: block; font-size: 24px; font-weight: 700; }
.total .l { color: var(--muted); }
.total.findings.some { border-color: #e0a3a3; background: #fdf1f1; }
table { width: 100%; border-collapse: collapse; margin: 6px 0; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; }
td ul { margin: 0; padding-left: 18px; }
.sev { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 700; color: #fff; }
.sev.high, .sev.error { background: #c0392b; }
.sev.medium, .sev.warning { background: #d9822b; }
.sev.low { background: #6c7a93; }
.tag { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; border: 1px solid; }
.tag.actual { color: #1d6b35; border-color: #1d6b35; }
.tag.potential { color: #6b5a1d; border-color: #b39b3c; border-style: dashed; }
.outcome { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; font-weight: 700; color: #fff; background: #6c7a93; }
.outcome.use { background: #2e7d46; }
.outcome.deny { background: #c0392b; }
.outcome.conflict { background: #d9822b; }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 3px; margin-right: 5px; vertical-align: -1px; }
.acct { white-space: nowrap; }
.muted { color: var(--muted); }
.none { color: var(--muted); font-style: italic; }
figure { margin: 8px 0; }
figcaption { color: var(--muted); margin-top: 6px; }
figcaption.aggregated { color: #8a4b08; font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 22px; align-items: center; margin: 8px 0 4px; color: var(--muted); }
.legend svg { vertical-align: middle; margin-right: 4px; }
svg.map { display: block; width: 100%; max-width: 1320px; height: auto; font-family: system-ui, "DejaVu Sans", Arial, sans-serif; }
svg.map .heading { font-size: 15px; font-weight: 700; fill: var(--ink); }
svg.map .heading .count { font-weight: 400; fill: var(--muted); }
svg.map .edge { fill: none; stroke-opacity: 0.8; }
svg.map .edge.potential { stroke-dasharray: 6 4; stroke-opacity: 0.65; }
svg.map .box { fill: #fff; stroke: #c5ccd8; stroke-width: 1.2; }
svg.map .namespace .box { fill: #eef2f7; stroke: #a9b4c6; }
svg.map .role .box, svg.map .account .box { stroke-width: 1.8; }
svg.map .more .box { fill: #fafafa; stroke: #8a94a6; stroke-dasharray: 4 3; }
svg.map .label { font-size: 13px; font-weight: 600; fill: var(--ink); }
svg.map .more .label { font-style: italic; }
svg.map .sub { font-size: 11px; fill: var(--muted); }
details summary { cursor: pointer; color: var(--muted); }
footer { margin-top: 30px; color: var(--muted); font-size: 12px; }
@media print { body { padding: 0; } .total { break-inside: avoid; } }
`;
