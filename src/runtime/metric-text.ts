// Metric families written straight in Prometheus's text format at scrape time, for families of
// thousands of series (crossrole_resources: one per kind, namespace and outcome). prom-client
// builds objects for every series and label at every scrape: at 10,000 series that was about
// 10 MB of garbage per scrape and tens of MB of RSS while scraped every few seconds. Here the
// text is the only thing made. Registered beside the prom-client registry
// (RuntimeMetrics.textFamilies) and served after it on /metrics (http-server.ts).

export interface Series<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  readonly value: number;
}

/** The exposition format's escaping: label values escape `\`, `"` and newlines; help text `\` and newlines. */
const labelValue = (v: string): string => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const helpText = (v: string): string => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

/** A gauge family as exposition text: HELP, TYPE, one line per series (none: HELP and TYPE only). */
export function gaugeText<L extends string>(name: string, help: string, series: Iterable<Series<L>>): string {
  const lines = [`# HELP ${name} ${helpText(help)}`, `# TYPE ${name} gauge`];
  for (const s of series) {
    const labels = Object.entries<string>(s.labels)
      .map(([k, v]) => `${k}="${labelValue(v)}"`)
      .join(",");
    lines.push(`${name}{${labels}} ${s.value}`);
  }
  return `${lines.join("\n")}\n`;
}
