// `crossrole audit -o html` in a real browser (Debian's chromium, scripts/install-browser.sh):
// the report renders, what it shows agrees with the JSON — totals, one map node per namespace,
// grant, role and account, one line per edge, one row per finding — tenant-written text stays
// text once a browser has parsed it, and a large report's map is aggregated. A screenshot is
// written to test-output/audit-report.png ($CROSSROLE_TEST_OUTPUT to change the folder) and
// named in the test's diagnostics, for a person to look at.
//
// The report comes from the real CLI (`audit --from examples/alice`, in-process) when the
// audit command is there, else from the hand-built fixture that mirrors it.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { AuditReport } from "../../src/audit/model.ts";
import { renderHtml } from "../../src/audit/render-html.ts";
import { commands } from "../../src/cli/commands.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";
import { browserBinary, dumpDom, pageHeight, screenshot } from "../harness/browser.ts";
import { pngStats, readPng } from "../harness/png.ts";
import {
  aliceAuditReport,
  expectedMap,
  largeAuditReport,
  withHostileStrings,
} from "../support/audit-report-fixture.ts";
import { attributeValues, countTags, textOf } from "../support/html-query.ts";
import { aliceExample, parseJson, runCrossrole } from "../support/run-crossrole.ts";

const outputDir = resolve(process.env["CROSSROLE_TEST_OUTPUT"] ?? join(repoRoot, "test-output"));
const width = 1400;
/** Tall enough for Alice's whole report, short enough for a PNG a reviewer opens. */
const maxScreenshotHeight = 6000;

let work: string;

before(async () => {
  browserBinary(); // throws, saying how to install chromium, when it is missing: never a silent skip
  work = await mkdtemp(join(tmpdir(), "crossrole-audit-html-"));
  await mkdir(outputDir, { recursive: true });
});
after(() => rm(work, { recursive: true, force: true }));

/** Alice's report as JSON and HTML, from the CLI when it has the audit command. */
async function aliceReport(): Promise<{ report: AuditReport; html: string; from: string }> {
  if (!commands.some((c) => c.name === "audit")) {
    const report = aliceAuditReport();
    return { report, html: renderHtml(report), from: "the fixture (no audit command in the CLI yet)" };
  }
  const args = ["audit", "--from", aliceExample];
  const json = await runCrossrole([...args, "-o", "json"]);
  const html = await runCrossrole([...args, "-o", "html"]);
  // The exit status may say "findings" (not asserted here); the output must be the report.
  assert.ok(html.stdout.startsWith("<!DOCTYPE html>"), `audit -o html (exit ${html.code}):\n${html.stderr}`);
  const report = parseJson(json) as unknown as AuditReport;
  assert.equal(
    html.stdout.trimEnd(),
    renderHtml(report).trimEnd(),
    "-o html renders the report -o json prints",
  );
  return { report, html: html.stdout, from: `crossrole audit --from examples/alice (exit ${html.code})` };
}

async function writePage(name: string, html: string): Promise<string> {
  const file = join(work, name);
  await writeFile(file, html);
  return file;
}

function assertShowsReport(dom: string, report: AuditReport): void {
  for (const [key, value] of Object.entries(report.totals)) {
    assert.equal(textOf(dom, "data-total", key), String(value), `total ${key} shown`);
  }
  assert.equal(attributeValues(dom, "data-finding").length, report.findings.length, "finding rows");
  assert.equal(attributeValues(dom, "data-finding").length, report.totals.findings);
}

describe("audit -o html in chromium", () => {
  test("renders Alice's report; its numbers, nodes and lines match the JSON; screenshot attached", async (t) => {
    const { report, html, from } = await aliceReport();
    t.diagnostic(`report from ${from}`);
    const page = await writePage("audit.html", html);

    const dom = await dumpDom(page, { width });
    assert.equal(countTags(dom, "script"), 0);
    assertShowsReport(dom, report);
    const expected = expectedMap(report);
    assert.deepEqual(attributeValues(dom, "data-node").sort(), expected.nodes, "one map node per object");
    assert.equal(attributeValues(dom, "data-from").length, expected.edges, "map lines");
    const reaches = attributeValues(dom, "data-reach");
    assert.equal(
      attributeValues(dom, "data-to").filter((to, i) => to.startsWith("grant:") && reaches[i] === "actual")
        .length,
      expected.actualReachEdges,
      "solid namespace → grant lines",
    );
    assert.equal(attributeValues(dom, "data-more-node").length, 0, "nothing aggregated");
    // The summary boxes and the map count the same objects.
    const nodes = attributeValues(dom, "data-node");
    for (const column of ["namespace", "grant", "role", "account"] as const) {
      assert.equal(
        nodes.filter((n) => n.startsWith(`${column}:`)).length,
        report.totals[`${column}s`],
        `${column} nodes = the ${column}s box`,
      );
    }
    // Every resource using a role is in its row, those naming an identity (the database) too.
    for (const reach of report.reaches) {
      for (const resource of reach.resources ?? []) {
        const row = new RegExp(`<tr data-role="${reach.roleARN ?? "controller"}">.*?</tr>`, "s").exec(
          dom,
        )?.[0];
        assert.ok(row?.includes(resource), `${resource} in the row of ${reach.roleARN}`);
      }
    }

    // The whole page, as a person sees it.
    const height = Math.min(maxScreenshotHeight, await pageHeight(page, { width }));
    const png = join(outputDir, "audit-report.png");
    const bytes = await screenshot(page, png, { width, height });
    const stats = pngStats(readPng(png));
    t.diagnostic(`screenshot: ${png} (${bytes} bytes, ${stats.width}×${stats.height})`);
    assert.equal(stats.width, width);
    assert.equal(stats.height, height);
    assert.ok(bytes > 50_000, `a rendered report is not ${bytes} bytes`);
    // Not blank: text, boxes and coloured lines cover a good part, in many colours.
    assert.ok(stats.inkRatio > 0.05 && stats.inkRatio < 0.9, `ink ratio ${stats.inkRatio}`);
    assert.ok(stats.colors > 200, `${stats.colors} colours`);
  });

  test("tenant-written text is text: the parsed page has no injected element or attribute", async () => {
    const marker = `<script>document.title="pwned"</script><img src=x onerror="alert(1)"> & "q"`;
    const report = withHostileStrings(aliceAuditReport(), marker);
    const dom = await dumpDom(await writePage("hostile.html", renderHtml(report)), { width });
    assert.equal(countTags(dom, "script"), 0);
    assert.equal(countTags(dom, "img"), 0);
    // In a tag, not in text (a serialized text node keeps its quotes, escapes only < > &).
    assert.doesNotMatch(dom, /<[a-zA-Z][^<>]*\sonerror\s*=/i);
    assert.doesNotMatch(dom, /<title>pwned<\/title>/);
    // The text itself is there, as text, in the findings and the namespaces' tables.
    assert.ok(dom.includes('&lt;script&gt;document.title="pwned"&lt;/script&gt;'), "the marker, escaped");
    assertShowsReport(dom, report);
  });

  test("a 500-namespace report renders, stays small enough, and its caption says the map is aggregated", async (t) => {
    const report = largeAuditReport(500);
    const html = renderHtml(report);
    assert.ok(html.length < 3_000_000, `${html.length} bytes of HTML`);
    const page = await writePage("large.html", html);
    const dom = await dumpDom(page, { width });
    assertShowsReport(dom, report);
    assert.match(
      textOf(dom, "data-aggregated", "true") ?? "",
      /map is aggregated.*tables below list everything/,
    );
    assert.equal(attributeValues(dom, "data-namespace").length, 500, "every namespace in the table");
    const shown = attributeValues(dom, "data-node").filter((n) => n.startsWith("namespace:")).length;
    const more = Number(attributeValues(dom, "data-more")[0]);
    assert.equal(shown + more, 500, "drawn namespaces + the “… and K more” box");

    const png = join(outputDir, "audit-report-large.png");
    const bytes = await screenshot(page, png, { width, height: 2400 });
    const stats = pngStats(readPng(png));
    t.diagnostic(`screenshot: ${png} (${bytes} bytes, ${stats.width}×${stats.height})`);
    assert.ok(stats.inkRatio > 0.05, `ink ratio ${stats.inkRatio}`);
  });
});
