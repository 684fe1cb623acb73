// The text form of `crossrole audit`: totals, then findings (most severe first), then each role
// with the grants leading to it and the namespaces reaching it through each, then each
// namespace with what a plain resource gets and every role it can reach. Pure: report in,
// text out; everything shown is in the report (`-o json` prints the same report).

import { roleLabel } from "./context.ts";
import type { AuditGrant, AuditHop, AuditNamespace, AuditReach, AuditReport } from "./model.ts";

/** Namespaces listed per grant before "and N more": the JSON has them all. */
const shownPerGrant = 50;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function header(report: AuditReport): string[] {
  const t = report.totals;
  const actual = report.reaches.filter((r) => r.actual).length;
  const lines = [
    `crossrole audit: ${report.mode} mode, from ${report.source.from === "files" ? "files" : "the cluster"} ${report.source.detail}`,
    `Controller account: ${report.controllerAccount ?? "unknown"}`,
    `Kinds: ${report.kinds.join(", ")}`,
  ];
  const filters = [
    ...(report.filter.role === undefined ? [] : [`--role ${report.filter.role}`]),
    ...(report.filter.namespace === undefined ? [] : [`--namespace ${report.filter.namespace}`]),
  ];
  if (filters.length > 0)
    lines.push(`Filter: ${filters.join(" ")} (the lists and totals below cover only this)`);
  lines.push(
    `Totals: ${plural(t.namespaces, "namespace")}, ${plural(t.roles, "role")} in ${plural(t.accounts, "account")}, ` +
      `${plural(t.grants, "grant")}, ${plural(t.reaches, "reach", "reaches")} (${actual} actual, ${t.reaches - actual} potential), ` +
      `${plural(t.findings, "finding")}`,
  );
  if (report.shards !== undefined) {
    const m = report.shards.members;
    lines.push(
      m.length === 0
        ? "Sharded across replicas, but no member Lease is live now: no replica reconciles anything."
        : `Sharded across ${m.length} replica${m.length === 1 ? "" : "s"} (${m.join(", ")}): each namespace below names the one that reconciles it.`,
    );
  }
  if (report.notes !== undefined && report.notes.length > 0) {
    lines.push("Notes:", ...report.notes.map((n) => `  - ${n}`));
  }
  return lines;
}

function findingsText(report: AuditReport): string[] {
  if (report.findings.length === 0) return ["Findings: none."];
  const lines = [`Findings (${report.findings.length}, most severe first):`];
  report.findings.forEach((f, i) => {
    const { kind, namespace, name } = f.object;
    lines.push(
      `  ${i + 1}. [${f.severity}] ${f.code}: ${kind} ${namespace === undefined ? "" : `${namespace}/`}${name}`,
      `     ${f.message}.`,
      `     Fix: ${f.fix}.`,
    );
  });
  return lines;
}

function hopText(hop: AuditHop): string {
  const details = [
    ...(hop.roleARN === undefined ? [] : [hop.roleARN]),
    ...(hop.account === undefined || hop.roleARN !== undefined ? [] : [`account ${hop.account}`]),
    ...(hop.admits === undefined ? [] : [`admits ${hop.admits}`]),
  ];
  const name =
    hop.kind === "CARM"
      ? `CARM key ${hop.name}`
      : `${hop.kind} ${hop.namespace === undefined ? "" : `${hop.namespace}/`}${hop.name}`;
  return details.length === 0 ? name : `${name} (${details.join("; ")})`;
}

function accountText(account: string | null): string {
  return account === null ? "account unknown" : `account ${account}`;
}

function reachLine(reach: AuditReach, kinds: readonly string[], width: number): string {
  const kindText = reach.kinds.length === kinds.length ? "" : `[${reach.kinds.join(", ")}] `;
  const inUse = reach.resources === undefined ? "" : `; in use by ${reach.resources.join(", ")}`;
  return `      ${reach.namespace.padEnd(width)}  ${reach.actual ? "actual   " : "potential"}  ${kindText}${reach.how}${inUse}`;
}

function rolesText(report: AuditReport, reachesByGrant: ReadonlyMap<string, AuditReach[]>): string[] {
  if (report.roles.length === 0) return ["Roles: none reached."];
  const grants = new Map(report.grants.map((g) => [g.id, g]));
  const lines = [`Roles (${report.roles.length}):`];
  for (const role of report.roles) {
    const actual = role.namespaces.filter((n) => n.actual).length;
    const ids = [...new Set(role.namespaces.flatMap((n) => n.grants))].sort();
    // "actual" is about a new resource (it would use the role by default), which says nothing of
    // the resources already using it on request (identityRef): both are said, in those words.
    const used = new Set(
      ids.flatMap((id) => (reachesByGrant.get(id) ?? []).flatMap((r) => r.resources ?? [])),
    );
    lines.push(
      `  ${roleLabel(role.roleARN, role.credentials)} (${accountText(role.account)}): ` +
        `${plural(role.namespaces.length, "namespace")} (${actual} by default, ${role.namespaces.length - actual} on request)` +
        (used.size === 0
          ? ""
          : `; ${used.size === 1 ? "1 resource uses" : `${used.size} resources use`} it now`),
    );
    for (const id of ids) {
      const grant: AuditGrant | undefined = grants.get(id);
      // A grant leads to one role, so every reach through it is this role's.
      const reaches = reachesByGrant.get(id) ?? [];
      lines.push(`    through ${id}: ${grant === undefined ? "" : grant.hops.map(hopText).join(" ← ")}`);
      const width = Math.max(...reaches.slice(0, shownPerGrant).map((r) => r.namespace.length));
      for (const reach of reaches.slice(0, shownPerGrant)) lines.push(reachLine(reach, report.kinds, width));
      if (reaches.length > shownPerGrant) {
        lines.push(
          `      ... and ${reaches.length - shownPerGrant} more (see -o json, or narrow with --namespace)`,
        );
      }
    }
  }
  return lines;
}

/** What a plain resource gets, kinds with the same answer on one line. */
function defaultsText(ns: AuditNamespace, kinds: readonly string[]): string[] {
  const groups = new Map<string, { kinds: string[]; text: string }>();
  for (const d of ns.defaults) {
    const key = `${d.outcome}\u0000${d.roleARN ?? ""}\u0000${d.account ?? ""}`;
    const text =
      d.outcome === "use"
        ? `use ${d.roleARN ?? "the controller's own credentials"} (${accountText(d.account)})`
        : `${d.outcome}: ${d.message}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { kinds: [d.kind], text });
    else group.kinds.push(d.kind);
  }
  return [...groups.values()].map(
    (g) => `    plain ${g.kinds.length === kinds.length ? "resources" : g.kinds.join(", ")}: ${g.text}`,
  );
}

function namespacesText(
  report: AuditReport,
  reachesByNamespace: ReadonlyMap<string, AuditReach[]>,
): string[] {
  if (report.namespaces.length === 0) return ["Namespaces: none."];
  const lines = [`Namespaces (${report.namespaces.length}):`];
  for (const ns of report.namespaces) {
    const by =
      ns.reconciledBy === undefined
        ? ""
        : ` (reconciled by ${ns.reconciledBy === "" ? "no replica now: no member Lease is live" : `replica ${ns.reconciledBy}`})`;
    lines.push(`  ${ns.name}${by}`, ...defaultsText(ns, report.kinds));
    if (ns.roles.length === 0) {
      lines.push("    reaches no role");
      continue;
    }
    lines.push("    reaches:");
    const reaches = reachesByNamespace.get(ns.name) ?? [];
    for (const role of ns.roles) {
      const mine = reaches.filter((r) => r.roleARN === role.roleARN && role.grants.includes(r.grant));
      const actual = [...new Set(mine.filter((r) => r.actual).map((r) => r.grant))];
      const potential = [...new Set(mine.filter((r) => !r.actual).map((r) => r.grant))];
      const parts = [
        ...(actual.length === 0 ? [] : [`actual via ${actual.join(", ")}`]),
        ...(potential.length === 0 ? [] : [`potential via ${potential.join(", ")}`]),
      ];
      lines.push(`      ${roleLabel(role.roleARN, role.credentials)}: ${parts.join("; ")}`);
    }
  }
  return lines;
}

function groupBy(reaches: readonly AuditReach[], key: (r: AuditReach) => string): Map<string, AuditReach[]> {
  const out = new Map<string, AuditReach[]>();
  for (const reach of reaches) {
    const k = key(reach);
    const list = out.get(k);
    if (list === undefined) out.set(k, [reach]);
    else list.push(reach);
  }
  return out;
}

export function renderText(report: AuditReport): string {
  const sections = [
    header(report),
    findingsText(report),
    rolesText(
      report,
      groupBy(report.reaches, (r) => r.grant),
    ),
    namespacesText(
      report,
      groupBy(report.reaches, (r) => r.namespace),
    ),
  ];
  return `${sections.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}
