// The HTML audit report without a browser: self-contained (no script, nothing loaded from
// elsewhere), tenant-written text escaped everywhere, the same bytes for the same report,
// totals and map nodes as the JSON says, and a large report's map aggregated while its tables
// list everything. test/integration/audit-html.test.ts renders it in a real browser.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  aliceAuditReport,
  expectedMap,
  largeAuditReport,
  withHostileStrings,
} from "../../test/support/audit-report-fixture.ts";
import { attributeValues, countTags, textOf } from "../../test/support/html-query.ts";
import type { AuditReport } from "./model.ts";
import { renderHtml } from "./render-html.ts";
import { mapColumnLimit, mapColumnShown } from "./svg-aggregate.ts";

const hostile = `<script>alert("x")</script> & "quoted" 'single' <img src=x onerror=alert(1)>`;
const hostileEscaped =
  "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39; &lt;img src=x onerror=alert(1)&gt;";

function nodesOf(html: string): string[] {
  return attributeValues(html, "data-node").sort();
}

describe("renderHtml", () => {
  test("is one self-contained HTML5 document: inline style and SVG, no script, nothing external", () => {
    const html = renderHtml(aliceAuditReport());
    assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
    assert.ok(html.endsWith("</html>\n"));
    assert.equal(countTags(html, "style"), 1);
    assert.equal(countTags(html, "svg") >= 1, true);
    for (const tag of ["script", "link", "img", "iframe", "object", "embed", "base", "meta http-equiv"]) {
      assert.equal(countTags(html, tag), 0, `<${tag}> in the report`);
    }
    assert.doesNotMatch(html, /https?:\/\//, "a URL in the report");
    assert.doesNotMatch(html, /\s(src|href|xlink:href|action|formaction)=/i);
    assert.doesNotMatch(html, /url\(|@import|@font-face/i);
    assert.doesNotMatch(html, /\son[a-z]+=/i, "an event handler attribute");
  });

  test("shows the report's totals, one finding row per finding, and its header", () => {
    const report = aliceAuditReport();
    const html = renderHtml(report);
    for (const [key, value] of Object.entries(report.totals)) {
      assert.equal(textOf(html, "data-total", key), String(value), `total ${key}`);
    }
    assert.equal(attributeValues(html, "data-finding").length, report.findings.length);
    // Worst first: high before low.
    assert.deepEqual(attributeValues(html, "data-severity"), ["high", "medium", "low"]);
    assert.equal(textOf(html, "data-meta", "mode"), "CARM");
    assert.match(html, /<dd data-meta="controllerAccount"><span class="mono">999999999999<\/span>/);
  });

  test("draws one map node per namespace, grant, role and account, and one line per edge", () => {
    const report = aliceAuditReport();
    const html = renderHtml(report);
    const expected = expectedMap(report);
    assert.deepEqual(nodesOf(html), expected.nodes);
    assert.equal(attributeValues(html, "data-from").length, expected.edges);
    // shop uses its team's key today and could use central-it: solid and dashed.
    assert.match(
      html,
      /data-from="namespace:shop" data-to="grant:accountMap:ack-role-account-map\/111111111111" data-reach="actual"/,
    );
    assert.match(
      html,
      /data-from="namespace:shop" data-to="grant:identity:AWSRoleIdentity\/central-it" data-reach="potential"/,
    );
    assert.equal(attributeValues(html, "data-reach").filter((r) => r === "actual").length >= 2, true);
    assert.equal(textOf(html, "data-aggregated", "false")?.startsWith("Every namespace"), true);
  });

  test("escapes tenant-written text everywhere: no element or attribute is injected", () => {
    const base = withHostileStrings(aliceAuditReport(), hostile);
    // Also in an id (attributes) and a namespace name (map labels, titles and table cells).
    const report: AuditReport = {
      ...base,
      grants: base.grants.map((g, i) => (i === 0 ? { ...g, id: `${g.id}" onmouseover="x` } : g)),
      reaches: base.reaches.map((r, i) =>
        i === 0 ? { ...r, grant: `${r.grant}" onmouseover="x`, namespace: `shop${hostile}` } : r,
      ),
    };
    const html = renderHtml(report);
    assert.equal(countTags(html, "script"), 0);
    assert.equal(countTags(html, "img"), 0);
    assert.doesNotMatch(html, /\son[a-z]+="/i);
    assert.ok(html.includes(hostileEscaped), "the escaped text is shown");
    assert.ok(
      nodesOf(html).includes(`namespace:shop${hostile}`),
      "the namespace's node, intact once unescaped",
    );
    assert.ok(nodesOf(html).includes(`grant:${report.grants[0]?.id}`));
    assert.equal(attributeValues(html, "data-finding").length, report.findings.length);
  });

  test("a role's “used today” cell lists every resource using it, through a potential reach too", () => {
    const html = renderHtml(aliceAuditReport());
    const cell = (role: string) =>
      new RegExp(`<tr data-role="${role}">(?:<td>.*?</td>){2}<td>(.*?)</td>`).exec(html)?.[1] ?? "";
    assert.match(
      cell("arn:aws:iam::222222222222:role/central-it"),
      /^<div data-used-by="resources">.*Bucket shop\/shop-billing-exports, DBInstance shop\/shop-db, DBSubnetGroup shop\/shop-db-subnets<\/div>$/,
    );
    assert.match(cell("arn:aws:iam::111111111111:role/shop-team"), /^shop<div data-used-by="resources">/);
    assert.match(cell("controller"), /^sandbox$/);
  });

  test("is deterministic: the same report gives the same bytes", () => {
    const report = largeAuditReport(80);
    const first = renderHtml(report);
    assert.equal(renderHtml(report), first);
    assert.equal(renderHtml(JSON.parse(JSON.stringify(report)) as AuditReport), first);
  });

  test("truncates long labels in the map and keeps the full text in the tooltip", () => {
    const long = `namespace-with-a-rather-long-name-${"x".repeat(40)}`;
    const report = aliceAuditReport();
    const renamed: AuditReport = {
      ...report,
      namespaces: report.namespaces.map((n) => (n.name === "shop" ? { ...n, name: long } : n)),
      reaches: report.reaches.map((r) => (r.namespace === "shop" ? { ...r, namespace: long } : r)),
    };
    const html = renderHtml(renamed);
    const node = new RegExp(
      `<g [^>]*data-node="namespace:${long}"[^>]*><title>([^<]*)</title>.*?<text class="label"[^>]*>([^<]*)<`,
    ).exec(html);
    assert.ok(node, "the namespace's node");
    assert.ok(node[1]?.includes(long), "full name in <title>");
    assert.ok(node[2]?.endsWith("…") && node[2].length < long.length, `label truncated: ${node[2]}`);
  });

  test(`aggregates a map column over ${mapColumnLimit} nodes, says so, and the tables still list everything`, () => {
    const report = largeAuditReport(500);
    const html = renderHtml(report);
    assert.ok(html.length < 3_000_000, `${html.length} bytes`);
    const caption = textOf(html, "data-aggregated", "true");
    assert.match(
      caption ?? "",
      /aggregated.*30 most connected of 500 namespaces.*tables below list everything/,
    );
    const nodes = nodesOf(html);
    assert.equal(nodes.filter((n) => n.startsWith("namespace:")).length, mapColumnShown);
    assert.equal(nodes.filter((n) => n.startsWith("grant:")).length, mapColumnShown);
    const more = new Map(
      attributeValues(html, "data-more-node").map((column, i) => [
        column,
        Number(attributeValues(html, "data-more")[i]),
      ]),
    );
    assert.equal(more.get("namespace"), 500 - mapColumnShown);
    assert.equal(more.get("grant"), report.grants.length - mapColumnShown);
    assert.equal(more.has("account"), false, "25 accounts are all drawn");
    assert.equal(attributeValues(html, "data-namespace").length, 500);
    assert.equal(attributeValues(html, "data-grant").length, report.grants.length);
    assert.equal(attributeValues(html, "data-role").length, report.roles.length);
    // Both the central identity and the controller's credentials reach all 500: they are kept.
    assert.ok(nodes.includes("grant:identity:AWSRoleIdentity/central-it"));
  });

  test(`draws every node of a report at the limit (${mapColumnLimit} grants and roles)`, () => {
    const report = largeAuditReport(mapColumnLimit - 2);
    const html = renderHtml(report);
    assert.equal(attributeValues(html, "data-more-node").length, 0);
    assert.deepEqual(nodesOf(html), expectedMap(report).nodes);
    assert.equal(attributeValues(html, "data-from").length, expectedMap(report).edges);
  });

  test("renders an empty report", () => {
    const report = aliceAuditReport();
    const empty: AuditReport = {
      ...report,
      totals: { namespaces: 0, roles: 0, accounts: 0, grants: 0, reaches: 0, findings: 0 },
      grants: [],
      reaches: [],
      roles: [],
      namespaces: [],
      findings: [],
    };
    const html = renderHtml(empty);
    assert.match(html, /Nothing to draw/);
    assert.match(html, /No findings\./);
    assert.equal(textOf(html, "data-total", "reaches"), "0");
  });
});
