// Leader election on a coordination.k8s.io/v1 Lease, with client-go's algorithm:
//   - a candidate takes the lease when it is free (no holder) or when the holder has not
//     renewed it for leaseDuration, measured on the candidate's own clock from when it first
//     saw the current record (so clock skew between replicas does not matter);
//   - every write is a compare-and-swap on resourceVersion: of two candidates, one wins, the
//     other gets 409 Conflict;
//   - the leader renews every retryPeriod; if it cannot renew for renewDeadline it stops
//     leading (before anyone else may take over: renewDeadline < leaseDuration);
//   - on stop() the leader releases the lease (empty holder), so a successor takes over at its
//     next retry instead of after leaseDuration.

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { type Clock, sleep, systemClock } from "../toolkit/clock.ts";
import { isNotFound, type KubeClient } from "./kube-client.ts";
import type { KubeObject } from "./kube-object.ts";
import { type Logger, silentLogger } from "./logger.ts";
import type { RuntimeMetrics } from "./metrics.ts";

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** Which Lease to hold, as whom, and its timing: what a Manager's caller chooses. */
export interface LeaseOptions {
  /** Namespace and name of the Lease. */
  readonly namespace: string;
  readonly name: string;
  /** Unique per process; default "<hostname>_<uuid>" like client-go. */
  readonly identity?: string;
  /** How long a non-renewed lease stays valid for others (15 s). */
  readonly leaseDurationMs?: number;
  /** How long the leader keeps retrying a renewal before it gives up leading (10 s). */
  readonly renewDeadlineMs?: number;
  /** Interval between attempts (2 s). */
  readonly retryPeriodMs?: number;
}

export interface LeaderElectionOptions extends LeaseOptions {
  readonly client: KubeClient;
  readonly onStartedLeading?: () => void;
  /** Called once leadership ends, whether lost or given up by stop(). */
  readonly onStoppedLeading?: () => void;
  readonly onNewLeader?: (identity: string) => void;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly logger?: Logger;
  readonly metrics?: RuntimeMetrics;
}

/** client-go's JitterFactor for acquire retries. */
const jitterFactor = 1.2;

/** Lease times are metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

export class LeaderElector {
  readonly identity: string;
  readonly #o: LeaderElectionOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #retryMs: number;
  readonly #stop = new AbortController();
  #running: Promise<void> | undefined;
  #leading = false;
  /** The last lease we saw, and when (our clock) its current version was first seen. */
  #observed: Lease | undefined;
  #observedAt = 0;
  #reportedLeader = "";
  #release = true;

  constructor(opts: LeaderElectionOptions) {
    this.#o = opts;
    this.identity = opts.identity ?? defaultIdentity();
    this.#clock = opts.clock ?? systemClock;
    this.#leaseMs = opts.leaseDurationMs ?? 15_000;
    this.#renewMs = opts.renewDeadlineMs ?? 10_000;
    this.#retryMs = opts.retryPeriodMs ?? 2_000;
    if (!(this.#leaseMs > this.#renewMs)) throw new Error("leaseDuration must be greater than renewDeadline");
    if (!(this.#renewMs > jitterFactor * this.#retryMs)) {
      throw new Error(`renewDeadline must be greater than retryPeriod*${jitterFactor}`);
    }
    if (!(this.#retryMs > 0)) throw new Error("retryPeriod must be positive");
    this.#log = (opts.logger ?? silentLogger).child({
      lease: `${opts.namespace}/${opts.name}`,
      identity: this.identity,
    });
    opts.metrics?.leaderElectionMasterStatus.set({ name: opts.name }, 0);
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** The holder of the lease as last seen ("" if none). */
  leader(): string {
    return this.#observed?.spec?.holderIdentity ?? "";
  }

  /** Campaigns, then leads until the lease is lost or stop() is called. Resolves when it is over. */
  run(): Promise<void> {
    this.#running ??= this.#run();
    return this.#running;
  }

  /**
   * Stops campaigning or leading; a leader releases the lease unless `release` is false
   * (which simulates a crash in tests). Resolves when run() has returned.
   */
  async stop(opts: { release?: boolean } = {}): Promise<void> {
    this.#release = opts.release ?? true;
    this.#stop.abort();
    await this.#running;
  }

  async #run(): Promise<void> {
    const stopped = this.#stop.signal;
    this.#log.info("attempting to acquire the leader lease");
    while (!stopped.aborted) {
      if (await this.#tryAcquireOrRenew(this.#renewMs)) break;
      if (stopped.aborted) break;
      const random = (this.#o.random ?? Math.random)();
      await sleep(this.#clock, this.#retryMs * (1 + jitterFactor * random), stopped);
    }
    if (!this.#isHolder()) return;
    if (stopped.aborted) {
      if (this.#release) await this.#releaseLease();
      return;
    }
    this.#setLeading(true);
    this.#log.info("acquired the leader lease");
    this.#o.onStartedLeading?.();

    let lost = false;
    while (!stopped.aborted) {
      await sleep(this.#clock, this.#retryMs, stopped);
      if (stopped.aborted) break;
      const deadline = this.#clock.now() + this.#renewMs;
      let renewed = false;
      while (!stopped.aborted) {
        const left = deadline - this.#clock.now();
        if (left <= 0) break;
        renewed = await this.#tryAcquireOrRenew(left);
        if (renewed || stopped.aborted) break;
        await sleep(this.#clock, Math.min(this.#retryMs, Math.max(0, deadline - this.#clock.now())), stopped);
      }
      if (stopped.aborted) break;
      if (!renewed) {
        lost = true;
        break;
      }
    }
    this.#setLeading(false);
    if (lost) this.#log.error("could not renew the leader lease in time; stopped leading");
    else if (this.#release) await this.#releaseLease();
    this.#o.onStoppedLeading?.();
  }

  #setLeading(on: boolean): void {
    this.#leading = on;
    this.#o.metrics?.leaderElectionMasterStatus.set({ name: this.#o.name }, on ? 1 : 0);
  }

  #isHolder(): boolean {
    return this.leader() === this.identity;
  }

  #path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.#o.namespace)}/leases`;
  }

  #observe(lease: Lease, now: number): void {
    if (this.#observed?.metadata.resourceVersion !== lease.metadata.resourceVersion) {
      this.#observed = lease;
      this.#observedAt = now;
    }
    const holder = lease.spec?.holderIdentity ?? "";
    if (holder !== this.#reportedLeader) {
      this.#reportedLeader = holder;
      if (holder !== "") {
        this.#log.info({ leader: holder }, "new leader observed");
        this.#o.onNewLeader?.(holder);
      }
    }
  }

  async #tryAcquireOrRenew(timeoutMs: number): Promise<boolean> {
    const client = this.#o.client;
    const signal = this.#stop.signal;
    const requestTimeoutMs = Math.max(1, timeoutMs);
    const now = this.#clock.now();
    const leaseSeconds = Math.max(1, Math.ceil(this.#leaseMs / 1000));
    let current: Lease;
    try {
      current = await client.request<Lease>({
        method: "GET",
        path: `${this.#path()}/${this.#o.name}`,
        signal,
        timeoutMs: requestTimeoutMs,
      });
    } catch (err) {
      if (!isNotFound(err)) {
        this.#log.warn({ err: String(err) }, "could not read the leader lease");
        return false;
      }
      try {
        const created = await client.request<Lease>({
          method: "POST",
          path: this.#path(),
          signal,
          timeoutMs: requestTimeoutMs,
          body: {
            apiVersion: "coordination.k8s.io/v1",
            kind: "Lease",
            metadata: { name: this.#o.name, namespace: this.#o.namespace },
            spec: {
              holderIdentity: this.identity,
              leaseDurationSeconds: leaseSeconds,
              acquireTime: microTime(now),
              renewTime: microTime(now),
              leaseTransitions: 0,
            },
          },
        });
        this.#observe(created, this.#clock.now());
        return true;
      } catch (createErr) {
        this.#log.debug({ err: String(createErr) }, "could not create the leader lease");
        return false;
      }
    }
    this.#observe(current, now);
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? "";
    const mine = holder === this.identity;
    if (holder !== "" && !mine && this.#observedAt + this.#leaseMs > now) return false;
    const next: Lease = {
      ...current,
      spec: {
        holderIdentity: this.identity,
        leaseDurationSeconds: leaseSeconds,
        acquireTime: mine && spec.acquireTime ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: mine ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
      },
    };
    try {
      const updated = await client.request<Lease>({
        method: "PUT",
        path: `${this.#path()}/${this.#o.name}`,
        body: next,
        signal,
        timeoutMs: requestTimeoutMs,
      });
      this.#observe(updated, this.#clock.now());
      return true;
    } catch (err) {
      this.#log.debug({ err: String(err) }, "could not update the leader lease");
      return false;
    }
  }

  /** Hands the lease back (empty holder) if we still hold it. Best effort. */
  async #releaseLease(): Promise<void> {
    const lease = this.#observed;
    if (!lease || lease.spec?.holderIdentity !== this.identity) return;
    try {
      const released = await this.#o.client.request<Lease>({
        method: "PUT",
        path: `${this.#path()}/${this.#o.name}`,
        timeoutMs: this.#renewMs,
        body: {
          ...lease,
          spec: {
            holderIdentity: "",
            leaseDurationSeconds: lease.spec?.leaseDurationSeconds,
            leaseTransitions: lease.spec?.leaseTransitions ?? 0,
            renewTime: microTime(this.#clock.now()),
          },
        },
      });
      this.#observe(released, this.#clock.now());
      this.#log.info("released the leader lease");
    } catch (err) {
      this.#log.warn({ err: String(err) }, "could not release the leader lease");
    }
  }
}
