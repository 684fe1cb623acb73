// One replica's membership in the shard set, on Kubernetes Leases (no other coordinator): it
// holds its own member Lease (`crossrole-shard-<member>`, labelled crossrole.dev/shard-member),
// renews it, and publishes on it the view it has acknowledged (annotation crossrole.dev/shard-view).
// From every member Lease (an informer's cache) it works out the live members, by its own clock
// from when it saw each Lease renewed (client-go's rule: clock skew does not matter), and answers
// gate.ts's question for its controllers: may this replica act on a namespace now?
//
// A new view (a member came or went) is acknowledged only once nothing is in flight for the
// namespaces this member no longer owns under it (`inFlightNamespaces`); then it is written with
// the next renewal, at once.
//
// Fencing: the gate judges this member's own Lease on the clock at each question (every write of
// a reconcile asks: fence.ts), and a member that wakes after its renew deadline passed reads the
// Leases again before it renews, counting every peer live for a lease duration from then, so it
// never takes a namespace on the strength of a stale cache that shows its successor expired. `onChange` tells the controllers when what this member may act on
// may have grown, so they queue the namespaces it gained.
import { type Clock, sleep, systemClock } from "../../toolkit/clock.ts";
import { isNotFound, type KubeClient } from "../kube-client.ts";
import type { Lease } from "../leader-election.ts";
import { type Logger, silentLogger } from "../logger.ts";
import { type GateAnswer, type MemberState, mayAct, type PeerState } from "./gate.ts";
import { Assignment } from "./rendezvous.ts";

export const shardMemberLabel = "crossrole.dev/shard-member";
export const shardViewAnnotation = "crossrole.dev/shard-view";

/** The Lease name of a member (DNS-label safe). */
export function memberLeaseName(member: string): string {
  const safe = member
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-")
    .replace(/^-+|-+$/g, "");
  return `crossrole-shard-${safe}`.slice(0, 63).replace(/-+$/, "");
}

export interface ShardMemberOptions {
  readonly client: KubeClient;
  /** Where the member Leases live (the system namespace). */
  readonly namespace: string;
  /** This replica's name (its pod name): unique among the replicas. */
  readonly member: string;
  /** The member Leases as an informer has them (label selector `crossrole.dev/shard-member`). */
  readonly leases: () => readonly Lease[];
  /** The namespaces this replica has reconciles in flight for now. */
  readonly inFlightNamespaces: () => Iterable<string>;
  /** How long a Lease not renewed stays live for others (15 s). */
  readonly leaseDurationMs?: number;
  /** How often the Lease is renewed (2 s). */
  readonly renewPeriodMs?: number;
  /** This member stops acting once its last renewal is older than this (10 s < the duration). */
  readonly renewDeadlineMs?: number;
  /** How often the view is worked out again from the Leases (500 ms). */
  readonly tickMs?: number;
  /** Called when the view, the acknowledgements or the fence changed. */
  readonly onChange?: () => void;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

interface Seen {
  readonly renewTime: string;
  readonly holder: string;
  /** When (our clock) this renewal was first seen. */
  readonly at: number;
}

/** Lease times are metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Whether `a` is a later copy of a Lease than `b` (resourceVersions compared as numbers, as etcd's are). */
function newer(a: Lease, b: Lease): boolean {
  const ra = Number(a.metadata.resourceVersion);
  const rb = Number(b.metadata.resourceVersion);
  return Number.isFinite(ra) && Number.isFinite(rb) ? ra > rb : false;
}

const parseView = (text: string | undefined): Assignment | undefined =>
  text === undefined ? undefined : new Assignment(text.split(",").filter((m) => m !== ""));

export class ShardMember {
  readonly member: string;
  readonly leaseName: string;
  readonly #o: ShardMemberOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #deadlineMs: number;
  readonly #seen = new Map<string, Seen>();
  readonly #stop = new AbortController();
  #running: Promise<void> | undefined;
  #lease: Lease | undefined;
  /** When our last renewal succeeded (our clock); 0: never. */
  #renewedAt = 0;
  #acknowledged: Assignment | undefined;
  #state: MemberState;
  #stateKey = "";
  #wake: (() => void) | undefined;
  /**
   * Whether the Leases read include our own: only then do they hold every member that came
   * before us (the watch delivers in order), so that a view from them can be acknowledged.
   */
  #seesSelf = false;
  /** The member Leases as read after a late wake, and until when they stand beside the informer's. */
  #relisted: { readonly leases: readonly Lease[]; readonly until: number } | undefined;

  constructor(opts: ShardMemberOptions) {
    this.#o = opts;
    this.member = opts.member;
    this.leaseName = memberLeaseName(opts.member);
    this.#clock = opts.clock ?? systemClock;
    this.#log = (opts.logger ?? silentLogger).child({ shardMember: opts.member });
    this.#leaseMs = opts.leaseDurationMs ?? 15_000;
    this.#renewMs = opts.renewPeriodMs ?? 2_000;
    this.#deadlineMs = opts.renewDeadlineMs ?? 10_000;
    if (!(this.#deadlineMs < this.#leaseMs))
      throw new Error("renewDeadline must be shorter than leaseDuration");
    this.#state = {
      self: this.member,
      view: new Assignment([this.member]),
      acknowledged: undefined,
      peers: [],
      fenced: true,
    };
  }

  /** The state the gate judges (for explain, metrics and tests). */
  get state(): MemberState {
    return this.#state;
  }

  /**
   * Whether this replica may act on `namespace` now, and if not why. Its own Lease's freshness is
   * judged on the clock at the moment of asking, not at the last tick: a process that was paused
   * (or starved) wakes with an old state, and the first thing it does may be a write (fence.ts).
   */
  gate(namespace: string): GateAnswer {
    if (!this.#fresh(this.#clock.now())) {
      return { act: false, why: `member ${this.member} has not renewed its Lease in time` };
    }
    return mayAct(this.#state, namespace);
  }

  mayAct(namespace: string): boolean {
    return this.gate(namespace).act;
  }

  /** Whether our last renewal is recent enough to act (condition 1 of the gate). */
  #fresh(now: number): boolean {
    return this.#seesSelf && this.#renewedAt !== 0 && now - this.#renewedAt < this.#deadlineMs;
  }

  /** Renews the member Lease and works out the view until stop(). */
  start(): Promise<void> {
    this.#running ??= Promise.all([this.#renewLoop(), this.#tickLoop()]).then(() => undefined);
    return this.#running;
  }

  /** Stops, and deletes the member Lease: the others take its namespaces at once (not after expiry). */
  async stop(opts: { release?: boolean } = {}): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    await this.#running;
    this.#state = { ...this.#state, fenced: true };
    if (opts.release === false) return;
    try {
      await this.#o.client.request({
        method: "DELETE",
        path: `${this.#path()}/${this.leaseName}`,
        timeoutMs: 5_000,
      });
      this.#log.info({ event: "shard.released" }, "member Lease released");
    } catch (err) {
      if (!isNotFound(err)) this.#log.warn({ err: String(err) }, "could not release the member Lease");
    }
  }

  #path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.#o.namespace)}/leases`;
  }

  async #renewLoop(): Promise<void> {
    const stopped = this.#stop.signal;
    while (!stopped.aborted) {
      await this.#renew();
      if (stopped.aborted) break;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        void sleep(this.#clock, this.#renewMs, stopped).then(resolve);
      });
      this.#wake = undefined;
    }
  }

  async #tickLoop(): Promise<void> {
    const stopped = this.#stop.signal;
    while (!stopped.aborted) {
      this.#recompute();
      await sleep(this.#clock, this.#o.tickMs ?? 500, stopped);
    }
  }

  /** The view this member would acknowledge now: its current one, once drained of what it lost. */
  #toAcknowledge(): Assignment | undefined {
    if (!this.#seesSelf) return this.#acknowledged;
    const view = this.#state.view;
    for (const ns of this.#o.inFlightNamespaces()) {
      if (view.ownerOf(ns) !== this.member) return this.#acknowledged;
    }
    return view;
  }

  async #renew(): Promise<void> {
    // Woke late (paused, starved, or cut off from the apiserver for longer than the deadline):
    // what the Lease informer holds may be as old as our last renewal, and by our clock every
    // peer would look expired. The Leases are read again first, and each peer counts as live for
    // a whole lease duration from now; until then this member stays fenced.
    if (this.#renewedAt !== 0 && this.#clock.now() - this.#renewedAt >= this.#deadlineMs) {
      if (!(await this.#relist())) return;
    }
    const now = this.#clock.now();
    const ack = this.#toAcknowledge();
    const lease: Lease = {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: {
        name: this.leaseName,
        namespace: this.#o.namespace,
        labels: { [shardMemberLabel]: "true" },
        annotations: ack === undefined ? {} : { [shardViewAnnotation]: ack.members.join(",") },
        ...(this.#lease?.metadata.resourceVersion
          ? { resourceVersion: this.#lease.metadata.resourceVersion }
          : {}),
      },
      spec: {
        holderIdentity: this.member,
        leaseDurationSeconds: Math.ceil(this.#leaseMs / 1000),
        renewTime: microTime(now),
        acquireTime: this.#lease?.spec?.acquireTime ?? microTime(now),
      },
    };
    try {
      const written = await this.#o.client.request<Lease>(
        this.#lease === undefined
          ? { method: "POST", path: this.#path(), body: lease, timeoutMs: this.#deadlineMs }
          : {
              method: "PUT",
              path: `${this.#path()}/${this.leaseName}`,
              body: lease,
              timeoutMs: this.#deadlineMs,
            },
      );
      this.#lease = written;
      this.#renewedAt = now;
      if (!(ack?.equals(this.#acknowledged) ?? this.#acknowledged === undefined)) {
        this.#log.info(
          { event: "shard.acknowledged", view: ack?.members ?? [] },
          "acknowledged the member view",
        );
      }
      this.#acknowledged = ack;
    } catch (err) {
      // A stale copy (409) or a Lease deleted under us (404): read it again at the next renewal.
      this.#lease = undefined;
      try {
        this.#lease = await this.#o.client.request<Lease>({
          method: "GET",
          path: `${this.#path()}/${this.leaseName}`,
          timeoutMs: this.#deadlineMs,
        });
      } catch {
        // not there (it is created at the next renewal), or the apiserver is unreachable
      }
      this.#log.warn({ err: String(err) }, "could not renew the member Lease");
    }
    this.#recompute();
  }

  /**
   * Reads the member Leases from the apiserver, and sees every one as renewed now (see #renew).
   * The list stands beside the informer's cache for a lease duration, a Lease taken from whichever
   * is newer, so a watch still catching up cannot bring back an older copy. false: not read.
   */
  async #relist(): Promise<boolean> {
    try {
      const list = await this.#o.client.request<{ items?: Lease[] }>({
        method: "GET",
        path: this.#path(),
        query: { labelSelector: `${shardMemberLabel}=true` },
        timeoutMs: this.#deadlineMs,
      });
      const now = this.#clock.now();
      const items = list.items ?? [];
      this.#relisted = { leases: items, until: now + this.#leaseMs };
      for (const lease of items) {
        this.#seen.set(lease.metadata.name, {
          renewTime: lease.spec?.renewTime ?? "",
          holder: lease.spec?.holderIdentity ?? "",
          at: now,
        });
      }
      this.#log.info(
        { event: "shard.relisted", members: items.map((l) => l.spec?.holderIdentity ?? "") },
        "woke late: member Leases read again before acting",
      );
      this.#recompute();
      return true;
    } catch (err) {
      this.#log.warn({ err: String(err) }, "could not read the member Leases again; not acting yet");
      return false;
    }
  }

  /** The member Leases: the informer's, with a list read after a late wake (newer copy wins). */
  #leases(): readonly Lease[] {
    const relisted = this.#relisted;
    if (relisted === undefined) return this.#o.leases();
    if (this.#clock.now() >= relisted.until) {
      this.#relisted = undefined;
      return this.#o.leases();
    }
    const byName = new Map(relisted.leases.map((l) => [l.metadata.name, l]));
    for (const l of this.#o.leases()) {
      const other = byName.get(l.metadata.name);
      if (other === undefined || newer(l, other)) byName.set(l.metadata.name, l);
    }
    return [...byName.values()];
  }

  /** Works out the live members and the peers' acknowledgements from the Leases, by our clock. */
  #recompute(): void {
    const now = this.#clock.now();
    const live: string[] = [this.member];
    const peers: PeerState[] = [];
    const present = new Set<string>();
    for (const lease of this.#leases()) {
      const name = lease.metadata.name;
      present.add(name);
      const holder = lease.spec?.holderIdentity ?? "";
      const renewTime = lease.spec?.renewTime ?? "";
      const prev = this.#seen.get(name);
      const seen =
        prev?.renewTime === renewTime && prev.holder === holder ? prev : { renewTime, holder, at: now };
      this.#seen.set(name, seen);
      if (holder === this.member && name === this.leaseName) {
        this.#seesSelf = true;
        continue;
      }
      if (holder === "" || holder === this.member) continue;
      const durationMs = (lease.spec?.leaseDurationSeconds ?? this.#leaseMs / 1000) * 1000;
      if (seen.at + durationMs <= now) continue;
      live.push(holder);
      peers.push({
        name: holder,
        acknowledged: parseView(lease.metadata.annotations?.[shardViewAnnotation]),
      });
    }
    for (const name of this.#seen.keys()) if (!present.has(name)) this.#seen.delete(name);
    if (!present.has(this.leaseName)) this.#seesSelf = false;
    const fenced = !this.#fresh(now);
    const view = new Assignment(live);
    const state: MemberState = {
      self: this.member,
      view: view.equals(this.#state.view) ? this.#state.view : view,
      acknowledged: this.#acknowledged,
      peers,
      fenced,
    };
    const key = JSON.stringify([
      state.view.members,
      state.acknowledged?.members,
      peers.map((p) => [p.name, p.acknowledged?.members]).sort(),
      fenced,
    ]);
    const previousView = this.#state.view;
    this.#state = state;
    // A view not yet acknowledged and now drained: write it at once, not at the next renewal.
    if (!state.view.equals(this.#acknowledged) && this.#toAcknowledge() === state.view) this.#wake?.();
    if (key === this.#stateKey) return;
    const viewChanged = this.#stateKey === "" || state.view !== previousView;
    this.#stateKey = key;
    if (viewChanged)
      this.#log.info({ event: "shard.view", members: state.view.members }, "member view changed");
    this.#o.onChange?.();
  }
}
