// The map's legend: which colour is which account, and what solid and dashed lines mean.
import type { AccountColors } from "./html-colors.ts";
import { escapeHtml as esc } from "./html-escape.ts";

function line(dashed: boolean): string {
  const dash = dashed ? ` stroke-dasharray="6 4"` : "";
  return (
    `<svg width="44" height="10" aria-hidden="true">` +
    `<line x1="0" y1="5" x2="44" y2="5" stroke="#5b6475" stroke-width="${dashed ? 1.6 : 2.6}"${dash}/></svg>`
  );
}

export function legendHtml(colors: AccountColors, controllerAccount: string | null): string {
  const swatch = (color: string, text: string) =>
    `<span><span class="swatch" style="background:${color}"></span>${text}</span>`;
  const accounts = colors.colored.map((a) =>
    swatch(
      colors(a),
      `<span class="mono">${esc(a)}</span>${a === controllerAccount ? " (controller's)" : ""}`,
    ),
  );
  const grey = colors.overflow ? "other accounts, unknown or several" : "unknown or several";
  return [
    `<div class="legend" data-legend="lines">`,
    `<span>${line(false)}<b>actual</b>: a plain resource created in the namespace today uses it</span>`,
    `<span>${line(true)}<b>potential</b>: the namespace could use it by writing something in its own namespace</span>`,
    `</div>`,
    `<div class="legend" data-legend="accounts"><b>Accounts:</b> ${[...accounts, swatch(colors(null), grey)].join(" ")}</div>`,
  ].join("\n");
}
