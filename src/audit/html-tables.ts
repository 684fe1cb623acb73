// The report's detail tables, which list everything even when the map is aggregated: the
// grants (and the chain each leads through), each role (who uses it today, who could), and
// each namespace (what a plain resource gets, every role it can reach and how).

import { compareText } from "../toolkit/compare-text.ts";
import { escapeHtml as esc } from "./html-escape.ts";
import { grantKindText, grantLabel, objectText } from "./html-labels.ts";
import {
  accountHtml,
  grantHtml,
  listHtml,
  namesHtml,
  type RenderContext,
  roleHtml,
  tableHtml,
} from "./html-parts.ts";
import type { AuditHop, AuditNamespace, AuditReach } from "./model.ts";
import { controllerRoleKey, grantRoleKey, roleKeyOf } from "./report-objects.ts";

function hopHtml(hop: AuditHop): string {
  const where = hop.namespace === undefined ? hop.name : `${hop.namespace}/${hop.name}`;
  const role = hop.roleARN === undefined ? "" : ` → <code>${esc(hop.roleARN)}</code>`;
  const admits = hop.admits === undefined ? "" : ` <span class="muted">admits ${esc(hop.admits)}</span>`;
  return `${esc(hop.kind)} ${esc(where)}${role}${admits}`;
}

export function grantsTableHtml(ctx: RenderContext): string {
  const rows = ctx.report.grants.map((g) => {
    const { label } = grantLabel(g);
    return (
      `<tr data-grant="${esc(g.id)}">` +
      `<td><b>${esc(label)}</b><br><code class="muted">${esc(g.id)}</code></td>` +
      `<td>${esc(grantKindText(g))}</td>` +
      `<td>${esc(objectText(g.object))}${g.key === undefined ? "" : `<br><span class="muted">key</span> <code>${esc(g.key)}</code>`}</td>` +
      `<td>${listHtml(g.hops.map(hopHtml), "hops")}</td>` +
      `<td>${roleHtml(g.roleARN)}</td>` +
      `<td>${accountHtml(g.account, ctx)}</td>` +
      `<td>${g.namespaceCount}</td></tr>`
    );
  });
  if (rows.length === 0) return `<p class="none">No grants.</p>`;
  return tableHtml(["Grant", "Kind", "Object", "Chain", "Role", "Account", "Namespaces"], rows, "grants");
}

/**
 * Existing resources using each role, by role key: from every reach, actual or potential — a
 * resource naming an identity in spec.identityRef uses it today although a plain resource of
 * its namespace would not (Alice's database, through AWSRoleIdentity central-it).
 */
function resourcesByRole(ctx: RenderContext): Map<string, string[]> {
  const byRole = new Map<string, string[]>();
  for (const reach of ctx.report.reaches) {
    if (reach.resources === undefined) continue;
    const grant = ctx.grants.get(reach.grant);
    const key = grant === undefined ? (reach.roleARN ?? controllerRoleKey) : grantRoleKey(grant);
    byRole.set(key, [...(byRole.get(key) ?? []), ...reach.resources]);
  }
  for (const list of byRole.values()) list.sort(compareText);
  return byRole;
}

/** Who uses a role today: namespaces whose plain resources would, and each existing resource. */
function usedTodayHtml(namespaces: readonly string[], resources: readonly string[]): string {
  if (resources.length === 0) return namesHtml(namespaces, "namespaces");
  const used = `<div data-used-by="resources"><span class="muted">resources:</span> ${namesHtml(resources, "resources")}</div>`;
  return namespaces.length === 0 ? used : `${namesHtml(namespaces, "namespaces")}${used}`;
}

export function rolesTableHtml(ctx: RenderContext): string {
  const inUse = resourcesByRole(ctx);
  const rows = ctx.report.roles.map((role) => {
    const actual = role.namespaces.filter((n) => n.actual).map((n) => n.namespace);
    const potential = role.namespaces.filter((n) => !n.actual).map((n) => n.namespace);
    const grants = [...new Set(role.namespaces.flatMap((n) => n.grants))].sort();
    return (
      `<tr data-role="${esc(role.roleARN ?? "controller")}">` +
      `<td>${roleHtml(role.roleARN)}${role.roleARN === null ? "" : `<br><code class="muted">${esc(role.roleARN)}</code>`}</td>` +
      `<td>${accountHtml(role.account, ctx)}</td>` +
      `<td>${usedTodayHtml(actual, inUse.get(roleKeyOf(role)) ?? [])}</td>` +
      `<td>${namesHtml(potential, "namespaces")}</td>` +
      `<td>${listHtml(
        grants.map((id) => grantHtml(id, ctx)),
        "grants",
      )}</td></tr>`
    );
  });
  if (rows.length === 0) return `<p class="none">No roles.</p>`;
  return tableHtml(
    ["Role", "Account", "Used today by (actual)", "Can be used by (potential)", "Through"],
    rows,
    "roles",
  );
}

type Default = AuditNamespace["defaults"][number];

/**
 * Kinds with the same decision in one line: "Bucket, Queue: use shop-team". Messages usually
 * differ only by the kind they name, so kinds group when their messages do once the kind's
 * name is taken out; the first kind's message is shown, and every kind's own message is one
 * click away when they differ.
 */
function defaultsHtml(ns: AuditNamespace, ctx: RenderContext): string {
  const groups = new Map<string, Default[]>();
  for (const d of ns.defaults) {
    const key = JSON.stringify([d.outcome, d.roleARN, d.account, d.message.split(d.kind).join("\u0000")]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [d]);
    else group.push(d);
  }
  const items = [...groups.values()].map((group) => {
    const d = group[0]!;
    const target = d.outcome === "use" ? ` ${roleHtml(d.roleARN)} in ${accountHtml(d.account, ctx)}` : "";
    const same = group.every((g) => g.message === d.message);
    const each = same
      ? ""
      : `<details><summary>each kind's message</summary><ul>${group
          .map((g) => `<li><b>${esc(g.kind)}</b>: ${esc(g.message)}</li>`)
          .join("")}</ul></details>`;
    return (
      `<b>${esc(group.map((g) => g.kind).join(", "))}</b>: <span class="outcome ${esc(d.outcome)}">${esc(d.outcome)}</span>${target}` +
      `<br><span class="muted">${esc(d.message)}</span>${each}`
    );
  });
  return listHtml(items, "decisions");
}

function reachHtml(reach: AuditReach, ctx: RenderContext): string {
  const kind = reach.actual ? "actual" : "potential";
  const allKinds = reach.kinds.length === ctx.report.kinds.length;
  const kinds = allKinds ? "" : ` <span class="muted">(${esc(reach.kinds.join(", "))})</span>`;
  return (
    `<span class="tag ${kind}">${kind}</span> ${roleHtml(reach.roleARN)} in ${accountHtml(reach.account, ctx)}` +
    ` via ${grantHtml(reach.grant, ctx)}${kinds}<br><span class="muted">${esc(reach.how)}</span>`
  );
}

export function namespacesTableHtml(ctx: RenderContext): string {
  const reaches = new Map<string, AuditReach[]>();
  for (const reach of ctx.report.reaches) {
    const list = reaches.get(reach.namespace);
    if (list === undefined) reaches.set(reach.namespace, [reach]);
    else list.push(reach);
  }
  const rows = ctx.report.namespaces.map((ns) => {
    // Actual first: what the namespace uses today matters more than what it could use.
    const mine = [...(reaches.get(ns.name) ?? [])].sort((a, b) => Number(b.actual) - Number(a.actual));
    return (
      `<tr data-namespace="${esc(ns.name)}"><td><b>${esc(ns.name)}</b></td>` +
      `<td>${defaultsHtml(ns, ctx)}</td>` +
      `<td>${listHtml(
        mine.map((r) => reachHtml(r, ctx)),
        "reaches",
      )}</td></tr>`
    );
  });
  if (rows.length === 0) return `<p class="none">No namespaces.</p>`;
  return tableHtml(
    ["Namespace", "A plain resource today", "Roles it can reach, and how"],
    rows,
    "namespaces",
  );
}
