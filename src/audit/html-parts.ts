// Small HTML pieces the report's tables share: an account with its colour, a role, a grant,
// a list that folds away when long. Every report string is escaped here, at the point where
// it becomes HTML.
import type { AccountColors } from "./html-colors.ts";
import { escapeHtml as esc } from "./html-escape.ts";
import { grantLabel, roleName } from "./html-labels.ts";
import type { AuditGrant, AuditReport } from "./model.ts";

/** What every table needs to name things consistently with the map. */
export interface RenderContext {
  readonly report: AuditReport;
  readonly colors: AccountColors;
  readonly grants: ReadonlyMap<string, AuditGrant>;
}

export function accountHtml(account: string | null, ctx: RenderContext): string {
  const swatch = `<span class="swatch" style="background:${ctx.colors(account)}"></span>`;
  if (account === null) return `<span class="acct">${swatch}<span class="muted">not known</span></span>`;
  const controller =
    account === ctx.report.controllerAccount ? ` <span class="muted">(controller's)</span>` : "";
  return `<span class="acct">${swatch}<span class="mono">${esc(account)}</span>${controller}</span>`;
}

/** The role's short name, with its full ARN as a tooltip. */
export function roleHtml(roleARN: string | null): string {
  const title = roleARN ?? "the controller's own credentials (no role assumed)";
  return `<b title="${esc(title)}">${esc(roleName(roleARN))}</b>`;
}

export function grantHtml(id: string, ctx: RenderContext): string {
  const grant = ctx.grants.get(id);
  if (grant === undefined) return `<code>${esc(id)}</code>`;
  return `<span title="${esc(grant.id)}">${esc(grantLabel(grant).label)}</span>`;
}

/** A bulleted list, folded into a <details> (no script needed) when it is long. */
export function listHtml(items: readonly string[], noun: string, fold = 12): string {
  if (items.length === 0) return `<span class="none">none</span>`;
  const ul = `<ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul>`;
  return items.length <= fold ? ul : `<details><summary>${items.length} ${noun}</summary>${ul}</details>`;
}

/** A comma-separated run of names, folded into a <details> when long. */
export function namesHtml(names: readonly string[], noun: string, fold = 12): string {
  if (names.length === 0) return `<span class="none">none</span>`;
  const text = names.map(esc).join(", ");
  return names.length <= fold ? text : `<details><summary>${names.length} ${noun}</summary>${text}</details>`;
}

export function tableHtml(headers: readonly string[], rows: readonly string[], cls: string): string {
  return (
    `<table class="${cls}"><thead><tr>${headers.map((h) => `<th>${h}</th>`).join("")}</tr></thead>` +
    `<tbody>\n${rows.join("\n")}\n</tbody></table>`
  );
}
