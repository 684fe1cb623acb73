import assert from "node:assert/strict";
import { test } from "node:test";
import { Gauge, Registry } from "prom-client";
import { gaugeText } from "./metric-text.ts";

test("gaugeText writes what prom-client would for the same gauge, escaping included", async () => {
  const series = [
    { labels: { kind: "Bucket", namespace: "a" }, value: 2 },
    { labels: { kind: 'odd"\\\nkind', namespace: "b" }, value: 0 },
  ];
  const help = "Managed resources \\ by kind\nand namespace";
  const registry = new Registry();
  const g = new Gauge({ name: "x_total", help, labelNames: ["kind", "namespace"], registers: [registry] });
  for (const s of series) g.set(s.labels, s.value);
  assert.equal(gaugeText("x_total", help, series), await registry.metrics());
});

test("no series: HELP and TYPE only", () => {
  assert.equal(gaugeText("x", "h", []), "# HELP x h\n# TYPE x gauge\n");
});
