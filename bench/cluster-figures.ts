// What the cluster-level benches (e2e.ts, scale.ts) read off the cluster and the controller:
// how many resources of a kind are Ready, and sums of the controller's Prometheus metrics.
import { lookupKind } from "../src/api/kinds.ts";
import type { KubeClient } from "../src/runtime/kube-client.ts";
import { waitFor } from "../src/runtime/wait-for.ts";

interface ResourceList {
  items: { status?: { conditions?: { type: string; status: string }[] } }[];
}

export async function readyCount(kube: KubeClient, kind: string): Promise<number> {
  const k = lookupKind(kind);
  if (!k) throw new Error(`no resource kind ${kind}`);
  const list = await kube.request<ResourceList>({
    method: "GET",
    path: `/apis/${k.group}/${k.version}/${k.plural}`,
  });
  return list.items.filter((b) =>
    b.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
  ).length;
}

/** The samples of metric `name` in Prometheus text: each one's labels (`{…}`, or "") and value. */
export function metricSamples(text: string, name: string): { labels: string; value: number }[] {
  const out: { labels: string; value: number }[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const space = line.lastIndexOf(" ");
    out.push({ labels: line.slice(name.length, space), value: Number(line.slice(space + 1)) });
  }
  return out;
}

export function metricSum(text: string, name: string): number {
  return metricSamples(text, name).reduce((sum, s) => sum + s.value, 0);
}

/** A counter's sum per value of one label (e.g. reconciles per controller). */
export function metricByLabel(text: string, name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  const re = new RegExp(`${label}="([^"]*)"`);
  for (const { labels, value } of metricSamples(text, name)) {
    if (!labels) continue;
    const key = re.exec(labels)?.[1] ?? "";
    out[key] = (out[key] ?? 0) + value;
  }
  return out;
}

/**
 * Where each controller's reconciles spent their wall time, in ms per reconcile by step
 * (crossrole_reconcile_step_seconds_total: kubernetes_read, kubernetes_write, aws, decision, comparison, other).
 */
export function stepMsPerReconcile(text: string): Record<string, Record<string, number>> {
  const reconciles = metricByLabel(text, "controller_runtime_reconcile_total", "controller");
  const out: Record<string, Record<string, number>> = {};
  for (const { labels, value } of metricSamples(text, "crossrole_reconcile_step_seconds_total")) {
    const controller = /controller="([^"]*)"/.exec(labels)?.[1] ?? "";
    const step = /step="([^"]*)"/.exec(labels)?.[1] ?? "";
    const n = reconciles[controller] ?? 0;
    if (n === 0) continue;
    out[controller] ??= {};
    out[controller][step] = Number(((value * 1000) / n).toFixed(1));
  }
  return out;
}

/** What the controller's /metrics said once it had gone idle, and since when it was. */
export interface Idle {
  /** performance.now() of the last change in its reconcile count. */
  readonly since: number;
  readonly reconciles: number;
  /** The last metrics text read (per-controller counts come from it). */
  readonly metrics: string;
}

/**
 * Waits until the controller's reconcile count (controller_runtime_reconcile_total, read from
 * `metricsURL`) has not moved for `quietMs`, polling every `intervalMs` (each read makes the
 * controller count every resource for its gauges: poll no faster than needed).
 */
export async function waitForIdle(
  metricsURL: string,
  opts: { readonly quietMs: number; readonly intervalMs: number; readonly timeoutMs: number },
): Promise<Idle> {
  let metrics = "";
  const read = async () => {
    metrics = await (await fetch(`${metricsURL}/metrics`)).text();
    return metricSum(metrics, "controller_runtime_reconcile_total");
  };
  let last = await read();
  let since = performance.now();
  await waitFor(
    async () => {
      const now = await read();
      if (now !== last) {
        last = now;
        since = performance.now();
      }
      return performance.now() - since >= opts.quietMs || undefined;
    },
    { what: "the controller to go idle", timeoutMs: opts.timeoutMs, intervalMs: opts.intervalMs },
  );
  return { since, reconciles: last, metrics };
}
