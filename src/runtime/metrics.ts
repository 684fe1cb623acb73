// Prometheus metrics of the runtime, under controller-runtime's and client-go's names so
// existing dashboards and alerts work: controller_runtime_reconcile_*, workqueue_*,
// leader_election_master_status, rest_client_requests_total; plus crossrole_informer_healthy
// (1 while an informer reaches the apiserver, 0 when not) and crossrole_reconcile_step_seconds_total. Each manager gets its own
// Registry (never prom-client's global one), so tests and several managers stay isolated.
import { Counter, collectDefaultMetrics, exponentialBuckets, Gauge, Histogram, Registry } from "prom-client";
import type { ResponseInfo } from "./kube-client.ts";
import type { InFlightWork, WorkQueueMetrics } from "./workqueue.ts";

export interface RuntimeMetrics {
  readonly registry: Registry;
  /**
   * Families rendered straight to text at scrape time (metric-text.ts), by name, served after the
   * registry's: for families of thousands of series.
   */
  readonly textFamilies: Map<string, () => string>;
  readonly reconcileTotal: Counter<"controller" | "result">;
  readonly reconcileErrors: Counter<"controller">;
  readonly terminalReconcileErrors: Counter<"controller">;
  readonly reconcileTime: Histogram<"controller">;
  /** Where reconciles' wall time went: the steps callers mark (toolkit/step-times.ts), "other" the rest. */
  readonly reconcileStepSeconds: Counter<"controller" | "step">;
  readonly maxConcurrentReconciles: Gauge<"controller">;
  readonly activeWorkers: Gauge<"controller">;
  readonly workqueueDepth: Gauge<"controller" | "name">;
  readonly workqueueAdds: Counter<"controller" | "name">;
  readonly workqueueQueueDuration: Histogram<"controller" | "name">;
  readonly workqueueWorkDuration: Histogram<"controller" | "name">;
  readonly workqueueRetries: Counter<"controller" | "name">;
  /** Set at scrape time from each queue's in-flight keys (workQueueMetricsFor registers the queue). */
  readonly workqueueUnfinishedWork: Gauge<"controller" | "name">;
  readonly workqueueLongestRunning: Gauge<"controller" | "name">;
  /** The queues the two gauges above read, by controller name. */
  readonly inFlightSources: Map<string, () => InFlightWork>;
  readonly leaderElectionMasterStatus: Gauge<"name">;
  readonly restClientRequests: Counter<"code" | "method" | "host">;
  /** 1 while the informer's list/watch reaches the apiserver, 0 once it has failed past the grace period. */
  readonly informerHealthy: Gauge<"resource">;
}

export interface RuntimeMetricsOptions {
  /** Registry to register into; a new one by default. */
  readonly registry?: Registry;
  /** Also collect prom-client's process/Node.js metrics (process_resident_memory_bytes, ...). */
  readonly defaultMetrics?: boolean;
}

// controller-runtime's reconcile_time_seconds buckets.
const reconcileBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25,
  1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
// controller-runtime's workqueue latency buckets: 10 ns to 1000 s.
const queueBuckets = exponentialBuckets(10e-9, 10, 12);

export function createRuntimeMetrics(opts: RuntimeMetricsOptions = {}): RuntimeMetrics {
  const registry = opts.registry ?? new Registry();
  const registers = [registry];
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  const wq = ["controller", "name"] as const;
  const inFlightSources = new Map<string, () => InFlightWork>();
  // Both gauges are read from the queues when scraped, as client-go's unfinished-work loop
  // would have last set them; one reading per queue serves both.
  const readInFlight = (set: (labels: { controller: string; name: string }, w: InFlightWork) => void) => {
    for (const [controller, read] of inFlightSources) set({ controller, name: controller }, read());
  };
  return {
    registry,
    textFamilies: new Map(),
    reconcileTotal: new Counter({
      name: "controller_runtime_reconcile_total",
      help: "Total number of reconciliations per controller",
      labelNames: ["controller", "result"],
      registers,
    }),
    reconcileErrors: new Counter({
      name: "controller_runtime_reconcile_errors_total",
      help: "Total number of reconciliation errors per controller",
      labelNames: ["controller"],
      registers,
    }),
    terminalReconcileErrors: new Counter({
      name: "controller_runtime_terminal_reconcile_errors_total",
      help: "Total number of terminal reconciliation errors per controller",
      labelNames: ["controller"],
      registers,
    }),
    reconcileTime: new Histogram({
      name: "controller_runtime_reconcile_time_seconds",
      help: "Length of time per reconciliation per controller",
      labelNames: ["controller"],
      buckets: reconcileBuckets,
      registers,
    }),
    reconcileStepSeconds: new Counter({
      name: "crossrole_reconcile_step_seconds_total",
      help: "Wall time of reconciles by step: 'kubernetes_read' and 'kubernetes_write' (apiserver GETs, and every other request), 'aws' (AWS calls, their rate-limit waits and credentials included), 'decision' (which identity, account and region), 'comparison' (spec against AWS, status against what is stored), 'other' (the rest of the controller's own work: logging, metrics, building requests). Overlapping calls of one step count once.",
      labelNames: ["controller", "step"],
      registers,
    }),
    maxConcurrentReconciles: new Gauge({
      name: "controller_runtime_max_concurrent_reconciles",
      help: "Maximum number of concurrent reconciles per controller",
      labelNames: ["controller"],
      registers,
    }),
    activeWorkers: new Gauge({
      name: "controller_runtime_active_workers",
      help: "Number of currently used workers per controller",
      labelNames: ["controller"],
      registers,
    }),
    workqueueDepth: new Gauge({
      name: "workqueue_depth",
      help: "Current depth of workqueue",
      labelNames: wq,
      registers,
    }),
    workqueueAdds: new Counter({
      name: "workqueue_adds_total",
      help: "Total number of adds handled by workqueue",
      labelNames: wq,
      registers,
    }),
    workqueueQueueDuration: new Histogram({
      name: "workqueue_queue_duration_seconds",
      help: "How long in seconds an item stays in workqueue before being requested",
      labelNames: wq,
      buckets: queueBuckets,
      registers,
    }),
    workqueueWorkDuration: new Histogram({
      name: "workqueue_work_duration_seconds",
      help: "How long in seconds processing an item from workqueue takes",
      labelNames: wq,
      buckets: queueBuckets,
      registers,
    }),
    workqueueRetries: new Counter({
      name: "workqueue_retries_total",
      help: "Total number of retries handled by workqueue",
      labelNames: wq,
      registers,
    }),
    workqueueUnfinishedWork: new Gauge({
      name: "workqueue_unfinished_work_seconds",
      help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      labelNames: wq,
      registers,
      collect() {
        readInFlight((labels, w) => this.set(labels, w.unfinishedSeconds));
      },
    }),
    workqueueLongestRunning: new Gauge({
      name: "workqueue_longest_running_processor_seconds",
      help: "How many seconds has the longest running processor for workqueue been running.",
      labelNames: wq,
      registers,
      collect() {
        readInFlight((labels, w) => this.set(labels, w.longestSeconds));
      },
    }),
    inFlightSources,
    leaderElectionMasterStatus: new Gauge({
      name: "leader_election_master_status",
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
      labelNames: ["name"],
      registers,
    }),
    restClientRequests: new Counter({
      name: "rest_client_requests_total",
      help: "Number of HTTP requests to the Kubernetes API, partitioned by status code, method, and host",
      labelNames: ["code", "method", "host"],
      registers,
    }),
    informerHealthy: new Gauge({
      name: "crossrole_informer_healthy",
      help: "1 while the informer's list/watch reaches the Kubernetes API, 0 once it has kept failing past the grace period. 'resource' is the informer's name (resource, namespaces, selectors).",
      labelNames: ["resource"],
      registers,
    }),
  };
}

/**
 * The work-queue view of the metrics for one controller's queue; `inFlight` is read when
 * /metrics is scraped (workqueue_unfinished_work_seconds, workqueue_longest_running_processor_seconds).
 */
export function workQueueMetricsFor(
  m: RuntimeMetrics,
  controller: string,
  inFlight: () => InFlightWork,
): WorkQueueMetrics {
  const labels = { controller, name: controller };
  m.inFlightSources.set(controller, inFlight);
  // Zero-initialise, as client-go does, so the series exist before the first event.
  m.workqueueDepth.set(labels, 0);
  m.workqueueAdds.inc(labels, 0);
  m.workqueueRetries.inc(labels, 0);
  return {
    depth: (n) => m.workqueueDepth.set(labels, n),
    added: () => m.workqueueAdds.inc(labels),
    queueLatency: (s) => m.workqueueQueueDuration.observe(labels, s),
    workDuration: (s) => m.workqueueWorkDuration.observe(labels, s),
    retried: () => m.workqueueRetries.inc(labels),
  };
}

/** A KubeClient `onResponse` hook that counts requests in rest_client_requests_total. */
export function countRestRequests(m: RuntimeMetrics, host: string): (info: ResponseInfo) => void {
  return (info) =>
    m.restClientRequests.inc({
      code: info.status === 0 ? "<error>" : String(info.status),
      method: info.method,
      host,
    });
}
