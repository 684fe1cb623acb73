// The manager owns a controller process's moving parts and their lifecycle:
//   start: probe/metrics servers → informers (caches warm on every replica) → leader election
//          → controllers (only on the leader; each waits for its caches);
//   stop (SIGTERM): /readyz fails, controllers stop taking work and finish in-flight
//          reconciles within the shutdown deadline, pending Events are flushed, the lease is
//          released (a standby takes over at once), informers and servers stop.
// Losing the lease stops the manager the same way and rejects `done` with LeadershipLostError:
// a process that may no longer be leader must not keep reconciling (controller-runtime exits).
// With sharding (shards/), controllers added as `sharded` run on every replica from the start,
// each on the namespaces its shard member may act on; the member Lease is deleted last on stop.
// /readyz (503 when failing) also fails while an informer cannot reach the apiserver (its
// list/watch has kept failing past the grace period, `informerUnhealthyAfterMs`); /healthz does
// not: restarting the process would not bring the apiserver back, and would lose the caches.

import { Gauge } from "prom-client";
import { type Clock, sleep, systemClock } from "../toolkit/clock.ts";
import { Controller, type ControllerOptions } from "./controller.ts";
import { EventRecorder } from "./events.ts";
import {
  checksHandler,
  type HealthCheck,
  metricsHandler,
  type ProbeServer,
  type RouteHandler,
  startProbeServer,
} from "./http-server.ts";
import { Informer, type InformerOptions } from "./informer.ts";
import { createKubeClient, type KubeClient } from "./kube-client.ts";
import type { KubeObject, ResourceType } from "./kube-object.ts";
import { defaultIdentity, LeaderElector, type Lease, type LeaseOptions } from "./leader-election.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { countRestRequests, createRuntimeMetrics, type RuntimeMetrics } from "./metrics.ts";
import type { RestConfig } from "./rest-config.ts";
import { unbucketedSelector } from "./shards/buckets.ts";
import { type MemberState, mayAct } from "./shards/gate.ts";
import { ShardMember, shardMemberLabel } from "./shards/member.ts";
import { ShardCaches } from "./shards/shard-caches.ts";
import { StringPool } from "./string-pool.ts";

export interface ManagerOptions {
  /** Where to connect (a kubeconfig context or in-cluster); or pass `client`. */
  readonly kubeConfig?: RestConfig;
  readonly client?: KubeClient;
  readonly logger?: Logger;
  /** Defaults to a fresh registry with process metrics. */
  readonly metrics?: RuntimeMetrics;
  /** Listen address for /metrics (e.g. ":8080", "127.0.0.1:0"); none if absent. */
  readonly metricsAddr?: string;
  /** Listen address for /healthz and /readyz; may equal metricsAddr (one server). None if absent. */
  readonly healthAddr?: string;
  /** Lease-based leader election; without it this process always leads. */
  readonly leaderElection?: LeaseOptions;
  /**
   * Sharding across replicas (shards/member.ts): this replica's member name and where the member
   * Leases live. Controllers added with `sharded: true` then run on every replica, each on the
   * namespaces its shard holds; the others still run on the leader only.
   */
  readonly sharding?: {
    readonly member: string;
    readonly namespace: string;
    readonly leaseDurationMs?: number;
    readonly renewPeriodMs?: number;
    readonly renewDeadlineMs?: number;
  };
  /** Default namespaces for informers of namespaced kinds (--watch-namespace); all if absent. */
  readonly watchNamespaces?: readonly string[];
  /**
   * The label selector informers of a resource use when they name none (--watch-selectors, for
   * the managed kinds only); none if absent or it answers undefined.
   */
  readonly defaultLabelSelector?: (resource: ResourceType) => string | undefined;
  /**
   * With sharding: the resources whose informers hold only this replica's shard (the managed
   * kinds; shards/shard-caches.ts), unless an informer asks for `allShards`. None if absent.
   */
  readonly shardedResource?: (resource: ResourceType) => boolean;
  /** How long stop() waits for in-flight reconciles (30 s). */
  readonly shutdownTimeoutMs?: number;
  /**
   * How long an informer's list/watch must keep failing before it counts as unhealthy and
   * /readyz fails (5 s: a routine watch reconnect never flips readiness). Per informer:
   * `unhealthyAfterMs`.
   */
  readonly informerUnhealthyAfterMs?: number;
  readonly clock?: Clock;
  readonly userAgent?: string;
}

const leaseResource: ResourceType = {
  group: "coordination.k8s.io",
  version: "v1",
  plural: "leases",
  kind: "Lease",
  namespaced: true,
};

export class LeadershipLostError extends Error {
  constructor(lease: string) {
    super(`lost the leader lease ${lease}; stopped`);
    this.name = "LeadershipLostError";
  }
}

/** What informer() takes: InformerOptions without the parts the manager provides. */
export type ManagedInformerOptions = Omit<InformerOptions, "client" | "logger" | "clock" | "name"> & {
  /** Every shard's objects, also where the resource is sharded (the leader's controllers' views). */
  readonly allShards?: boolean;
  /** Started only while this process leads: for views only the leader's controllers read. */
  readonly leaderOnly?: boolean;
};
/** What controller() takes: ControllerOptions without the parts the manager provides. */
export type ManagedControllerOptions = Omit<ControllerOptions, "logger" | "metrics" | "clock" | "shard"> & {
  /** With sharding: runs on every replica, on its shard's namespaces (without: on the leader). */
  readonly sharded?: boolean;
};

/**
 * The ready check over informers' connections: fails while any of them is unhealthy, naming
 * each with since when and its last error.
 */
export function informerHealthCheck(
  informers: () => Iterable<Informer>,
  clock: Clock = systemClock,
): HealthCheck {
  return {
    name: "informer-connections",
    check: () => {
      const now = clock.now();
      const failing: string[] = [];
      for (const i of informers()) {
        const h = i.health();
        if (h.healthy) continue;
        const since = h.since ?? now;
        const forS = Math.round((now - since) / 100) / 10;
        failing.push(
          `${i.name}: cannot reach the apiserver since ${new Date(since).toISOString()} (${forS}s): ${h.lastError ?? "unknown error"}`,
        );
      }
      return failing.length === 0 ? true : failing.join("; ");
    },
  };
}

export class Manager {
  readonly client: KubeClient;
  readonly metrics: RuntimeMetrics;
  /** This process's identity: the lease holder name and the Events' reportingInstance. */
  readonly identity: string;
  readonly logger: Logger;
  /** Settles when the manager has stopped: resolves after stop(), rejects on lost leadership. */
  readonly done: Promise<void>;
  readonly #o: ManagerOptions;
  readonly #clock: Clock;
  readonly #informers = new Map<string, Informer>();
  /** Every informer's cached objects share one copy of each short string (string-pool.ts). */
  readonly #strings = new StringPool();
  readonly #controllers: Controller[] = [];
  /** Controllers that run on every replica, each on its shard's namespaces. */
  readonly #sharded: Controller[] = [];
  readonly #shard: ShardMember | undefined;
  readonly #shardCaches: ShardCaches | undefined;
  /** Informers started only while leading. */
  readonly #leaderOnly = new Set<Informer>();
  /** The shard state at the last change: a namespace it did not allow and the new one does is queued. */
  #shardBefore: MemberState | undefined;
  readonly #recorders: EventRecorder[] = [];
  readonly #readyChecks: HealthCheck[] = [];
  readonly #healthChecks: HealthCheck[] = [{ name: "ping", check: () => true }];
  readonly #servers: ProbeServer[] = [];
  #elector: LeaderElector | undefined;
  #leading = false;
  #started = false;
  #stopping: Promise<void> | undefined;
  #resolveDone!: () => void;
  #rejectDone!: (err: Error) => void;
  #metricsUrl: string | undefined;
  #healthUrl: string | undefined;

  constructor(opts: ManagerOptions) {
    this.#o = opts;
    this.#clock = opts.clock ?? systemClock;
    this.logger = opts.logger ?? silentLogger;
    this.identity = opts.leaderElection?.identity ?? defaultIdentity();
    this.metrics = opts.metrics ?? createRuntimeMetrics({ defaultMetrics: true });
    if (opts.client) {
      this.client = opts.client;
    } else if (opts.kubeConfig) {
      const host = opts.kubeConfig.server;
      this.client = createKubeClient(opts.kubeConfig, {
        userAgent: opts.userAgent,
        onResponse: countRestRequests(this.metrics, new URL(host || "http://unknown").host),
      });
    } else {
      throw new Error("Manager needs a kubeConfig or a client");
    }
    this.done = new Promise<void>((resolve, reject) => {
      this.#resolveDone = resolve;
      this.#rejectDone = reject;
    });
    // Nobody may await `done` (tests, short scripts); an unobserved rejection must not crash.
    this.done.catch(() => {});
    this.#readyChecks.push({
      name: "informers",
      check: () => {
        const waiting = [...this.#informers.values()]
          .filter((i) => !i.hasSynced() && (this.#leading || !this.#leaderOnly.has(i)))
          .map((i) => i.name);
        return waiting.length === 0 ? true : `not synced: ${waiting.join(", ")}`;
      },
    });
    this.#readyChecks.push(informerHealthCheck(() => this.#informers.values(), this.#clock));
    const informers = this.#informers;
    new Gauge({
      name: "crossrole_informer_objects",
      help: "Objects in each informer's cache ('resource' as in crossrole_informer_healthy). With sharding, a managed kind's informer holds this replica's shard only.",
      labelNames: ["resource"] as const,
      registers: [this.metrics.registry],
      collect() {
        for (const i of informers.values()) this.set({ resource: i.name }, i.size);
      },
    });
    this.#readyChecks.push({ name: "shutdown", check: () => (this.#stopping ? "shutting down" : true) });
    const sh = opts.sharding;
    if (sh) {
      const leases = this.informer<Lease>({
        resource: leaseResource,
        namespaces: [sh.namespace],
        labelSelector: `${shardMemberLabel}=true`,
      });
      this.#shard = new ShardMember({
        client: this.client,
        namespace: sh.namespace,
        member: sh.member,
        leases: () => leases.list(),
        inFlightNamespaces: () => this.#sharded.flatMap((c) => [...c.inFlightNamespaces()]),
        ...(sh.leaseDurationMs === undefined ? {} : { leaseDurationMs: sh.leaseDurationMs }),
        ...(sh.renewPeriodMs === undefined ? {} : { renewPeriodMs: sh.renewPeriodMs }),
        ...(sh.renewDeadlineMs === undefined ? {} : { renewDeadlineMs: sh.renewDeadlineMs }),
        ...(opts.clock ? { clock: opts.clock } : {}),
        logger: this.logger,
        onChange: () => this.#onShardChange(),
      });
      this.#shardCaches = new ShardCaches({
        client: this.client,
        member: this.#shard,
        logger: this.logger,
        ...(opts.clock ? { clock: opts.clock } : {}),
      });
      const shard = this.#shard;
      const registers = [this.metrics.registry];
      new Gauge({
        name: "crossrole_shard_members",
        help: "Replicas in this replica's view of the shard members (member Leases live by its clock)",
        labelNames: ["member"] as const,
        registers,
        collect() {
          this.set({ member: shard.member }, shard.state.view.members.length);
        },
      });
      const acting = () => this.#cachedNamespaces().filter((ns) => shard.mayAct(ns)).length;
      new Gauge({
        name: "crossrole_shard_namespaces",
        help: "Namespaces this replica reconciles now (its shard, handed over)",
        labelNames: ["member"] as const,
        registers,
        collect() {
          this.set({ member: shard.member }, acting());
        },
      });
    }
  }

  /** This replica's shard membership, when sharding is on. */
  get shard(): ShardMember | undefined {
    return this.#shard;
  }

  /** Namespaces the sharded controllers' caches hold objects in. */
  #cachedNamespaces(): string[] {
    const namespaces = new Set<string>();
    for (const c of this.#sharded) for (const ns of c.cachedNamespaces()) namespaces.add(ns);
    return [...namespaces];
  }

  /**
   * The shard changed: caches follow the buckets this replica owns now, reconciles in flight for
   * namespaces it may no longer act on are aborted, and every sharded controller queues the
   * namespaces the gate allows now and did not before. (Objects that
   * reach a cache later are queued as they arrive; those the gate refused then, at the change
   * that allows them.)
   */
  #onShardChange(): void {
    const shard = this.#shard;
    if (!shard) return;
    this.#shardCaches?.update();
    // What it may no longer act on: the reconciles in flight there are aborted (fence.ts).
    for (const c of this.#sharded) c.fenceInFlight();
    const before = this.#shardBefore;
    const now = shard.state;
    this.#shardBefore = now;
    for (const ns of this.#cachedNamespaces()) {
      if (!mayAct(now, ns).act || (before !== undefined && mayAct(before, ns).act)) continue;
      for (const c of this.#sharded) c.enqueueNamespace(ns);
    }
  }

  /**
   * The shared informer for a resource (same resource, namespaces and selectors → same
   * instance). Namespaced kinds default to the manager's watchNamespaces; pass `namespaces: []`
   * for all namespaces. Started with the manager (or at once if it already runs).
   */
  informer<T extends KubeObject = KubeObject>(opts: ManagedInformerOptions): Informer<T> {
    const { allShards, leaderOnly, ...informerOpts } = opts;
    const namespaces = opts.resource.namespaced
      ? [...(opts.namespaces ?? this.#o.watchNamespaces ?? [])].sort()
      : [];
    const r = opts.resource;
    const labelSelector = opts.labelSelector ?? this.#o.defaultLabelSelector?.(r);
    const caches = this.#shardCaches;
    // Sharded: holds only this replica's buckets, the selector following its view.
    const sharded =
      caches !== undefined &&
      allShards !== true &&
      opts.labelSelector === undefined &&
      this.#o.shardedResource?.(r) === true;
    const key = JSON.stringify([
      r.group,
      r.version,
      r.plural,
      namespaces,
      labelSelector,
      opts.fieldSelector,
      opts.metadataOnly ?? false,
      opts.projection?.name,
      sharded,
      leaderOnly ?? false,
    ]);
    let informer = this.#informers.get(key);
    if (!informer) {
      const base = `${r.plural}${r.group ? `.${r.group}` : ""}${namespaces.length > 0 ? ` in ${namespaces.join(",")}` : ""}`;
      informer = new Informer({
        ...informerOpts,
        ...(sharded && caches
          ? {
              labelSelector: caches.selectorFor(labelSelector),
              name: `${base} (this replica's shard${labelSelector ? `, ${labelSelector}` : ""})`,
            }
          : labelSelector === undefined
            ? {}
            : { labelSelector }),
        unhealthyAfterMs: opts.unhealthyAfterMs ?? this.#o.informerUnhealthyAfterMs,
        namespaces,
        client: this.client,
        strings: this.#strings,
        logger: this.logger,
        clock: this.#o.clock,
      });
      this.#informers.set(key, informer);
      if (leaderOnly) this.#leaderOnly.add(informer);
      const labels = { resource: informer.name };
      this.metrics.informerHealthy.set(labels, informer.health().healthy ? 1 : 0);
      informer.onHealthChange((h) => this.metrics.informerHealthy.set(labels, h.healthy ? 1 : 0));
      if (sharded && caches) {
        // The same resource's objects that carry no bucket (yet): the member owning their namespace labels them.
        const unbucketed = this.informer({
          resource: r,
          ...(namespaces.length > 0 ? { namespaces } : {}),
          labelSelector: [labelSelector, unbucketedSelector].filter((s) => s !== undefined).join(","),
          metadataOnly: true,
        });
        caches.track(r, informer, labelSelector, unbucketed);
      }
      if (this.#started && !this.#stopping && (!leaderOnly || this.#leading)) informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  /** Adds a controller; it starts when this process leads (and its caches have synced). */
  controller(opts: ManagedControllerOptions): Controller {
    const { sharded, ...rest } = opts;
    const shard = sharded ? this.#shard : undefined;
    const c = new Controller({
      ...rest,
      ...(shard ? { shard } : {}),
      logger: this.logger,
      metrics: this.metrics,
      clock: this.#o.clock,
    });
    this.#controllers.push(c);
    if (shard) {
      this.#sharded.push(c);
      if (this.#started && !this.#stopping) void c.start();
    } else if (this.#leading && !this.#stopping) void c.start();
    return c;
  }

  /** An Event recorder whose pending writes are flushed on shutdown. */
  eventRecorder(component: string, instance?: string): EventRecorder {
    const r = new EventRecorder({
      client: this.client,
      component,
      instance: instance ?? this.identity,
      clock: this.#o.clock,
      logger: this.logger,
    });
    this.#recorders.push(r);
    return r;
  }

  addReadyCheck(check: HealthCheck): void {
    this.#readyChecks.push(check);
  }

  addHealthCheck(check: HealthCheck): void {
    this.#healthChecks.push(check);
  }

  /** True if every informer has synced (what /readyz checks, with the added checks). */
  hasSynced(): boolean {
    return [...this.#informers.values()].every(
      (i) => i.hasSynced() || (!this.#leading && this.#leaderOnly.has(i)),
    );
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** True once stop() (or a signal, or lost leadership) has begun the shutdown. */
  get stopping(): boolean {
    return this.#stopping !== undefined;
  }

  /** Base URL of the metrics server, once started. */
  get metricsUrl(): string | undefined {
    return this.#metricsUrl;
  }

  /** Base URL of the health server, once started. */
  get healthUrl(): string | undefined {
    return this.#healthUrl;
  }

  /**
   * Starts servers, informers and leader election (or the controllers directly without it).
   * Resolves once the servers listen; it does not wait for caches or leadership.
   */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#startServers();
    for (const i of this.#informers.values()) if (!this.#leaderOnly.has(i)) i.start();
    if (this.#shard) {
      void this.#shard.start();
      for (const c of this.#sharded) void c.start();
    }
    const le = this.#o.leaderElection;
    if (!le) {
      this.#lead();
      return;
    }
    this.#elector = new LeaderElector({
      client: this.client,
      namespace: le.namespace,
      name: le.name,
      identity: this.identity,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      clock: this.#o.clock,
      logger: this.logger,
      metrics: this.metrics,
      onStartedLeading: () => this.#lead(),
      onStoppedLeading: () => {
        this.#leading = false;
        if (!this.#stopping) {
          this.logger.error("leadership lost; stopping");
          void this.#shutdown(new LeadershipLostError(`${le.namespace}/${le.name}`));
        }
      },
    });
    void this.#elector.run();
  }

  /** Graceful stop (see the file comment). Idempotent; resolves when everything has stopped. */
  stop(): Promise<void> {
    return this.#shutdown(undefined);
  }

  /**
   * Stops gracefully on SIGTERM/SIGINT; a second signal exits at once. Returns a function that
   * removes the handlers.
   */
  handleSignals(signals: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT"]): () => void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.#stopping) {
        this.logger.warn({ signal }, "second signal; exiting now");
        process.exit(1);
      }
      this.logger.info({ signal }, "signal received; shutting down");
      void this.stop();
    };
    for (const s of signals) process.on(s, onSignal);
    return () => {
      for (const s of signals) process.off(s, onSignal);
    };
  }

  #lead(): void {
    this.#leading = true;
    for (const i of this.#leaderOnly) i.start();
    for (const c of this.#controllers) if (!this.#sharded.includes(c)) void c.start();
  }

  async #startServers(): Promise<void> {
    const metricsRoutes: Record<string, RouteHandler> = {
      "/metrics": metricsHandler(this.metrics.registry, this.metrics.textFamilies),
    };
    const healthRoutes: Record<string, RouteHandler> = {
      "/healthz": checksHandler(() => this.#healthChecks),
      "/readyz": checksHandler(() => this.#readyChecks, { failureStatus: 503 }),
    };
    const { metricsAddr, healthAddr } = this.#o;
    if (metricsAddr !== undefined && metricsAddr === healthAddr) {
      const s = await startProbeServer(metricsAddr, { ...metricsRoutes, ...healthRoutes });
      this.#servers.push(s);
      this.#metricsUrl = s.url;
      this.#healthUrl = s.url;
      return;
    }
    if (metricsAddr !== undefined) {
      const s = await startProbeServer(metricsAddr, metricsRoutes);
      this.#servers.push(s);
      this.#metricsUrl = s.url;
    }
    if (healthAddr !== undefined) {
      const s = await startProbeServer(healthAddr, healthRoutes);
      this.#servers.push(s);
      this.#healthUrl = s.url;
    }
    this.logger.info({ metrics: this.#metricsUrl, health: this.#healthUrl }, "probe servers listening");
  }

  #shutdown(reason: Error | undefined): Promise<void> {
    this.#stopping ??= (async () => {
      const deadline = this.#o.shutdownTimeoutMs ?? 30_000;
      this.logger.info({ deadlineMs: deadline }, "stopping: finishing in-flight reconciles");
      const results = await Promise.all(this.#controllers.map((c) => c.stop(deadline)));
      if (results.some((ok) => !ok)) this.logger.warn("some reconciles did not finish before the deadline");
      // Pending Events are best effort; do not let them hold the lease.
      const flushed = new AbortController();
      await Promise.race([
        Promise.all(this.#recorders.map((r) => r.flush())),
        sleep(this.#clock, 2_000, flushed.signal),
      ]);
      flushed.abort();
      this.#leading = false;
      await this.#elector?.stop();
      // After the controllers drained: the others may take this shard's namespaces at once.
      await this.#shard?.stop();
      await this.#shardCaches?.stop();
      await Promise.all([...this.#informers.values()].map((i) => i.stop()));
      await Promise.all(this.#servers.map((s) => s.close()));
      this.logger.info("stopped");
      if (reason) this.#rejectDone(reason);
      else this.#resolveDone();
    })();
    return this.#stopping;
  }
}
