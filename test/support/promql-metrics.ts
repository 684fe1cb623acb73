// The metric names a PromQL expression reads, and the metric names a /metrics text exports, so
// a test can check that a chart's alerts and dashboard ask only for what the controller has.
// Enough PromQL for our own expressions: selectors, functions, aggregations with by/without,
// ranges, binary operators, numbers and strings.

const keywords = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "and",
  "or",
  "unless",
  "offset",
]);

/** The metric names `expr` selects (functions, label matchers, grouping labels left out). */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, " ") // label matchers
    .replace(/\[[^\]]*\]/g, " ") // ranges ($__rate_interval, 5m)
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " "); // grouping labels
  const names = new Set<string>();
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const rest = stripped.slice(m.index + m[0].length);
    if (/^\s*\(/.test(rest)) continue; // a function or aggregation
    if (keywords.has(m[0])) continue;
    if (/^[0-9]/.test(m[0]) || (m.index > 0 && /[0-9.$]/.test(stripped[m.index - 1] ?? ""))) continue;
    names.add(m[0]);
  }
  return [...names];
}

/** Every series name /metrics exposes: each family, and a histogram's _bucket, _sum, _count. */
export function exportedMetricNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (!typed) continue;
    const [, name, type] = typed as unknown as [string, string, string];
    names.add(name);
    if (type === "histogram") for (const s of ["_bucket", "_sum", "_count"]) names.add(name + s);
    if (type === "summary") for (const s of ["_sum", "_count"]) names.add(name + s);
  }
  return names;
}
