// Each replica caches only its shard: a sharded resource's informer selects
// `crossrole.dev/shard-bucket in (<buckets this member owns>)` (buckets.ts), and follows the
// member's view: the buckets it owns under its current view and under the view it acknowledged
// (what it may still have in flight). Before the member has seen its own Lease (so every member
// that came before it) it selects nothing, rather than list everything and drop most of it.
//
// Labels are put right here too, by patching metadata.labels (no AWS action, so no gate):
//   - an object with no bucket label, or one that is not a bucket (a companion informer selects
//     exactly those), by the member that owns its namespace under its current view;
//   - an object whose label names another namespace's bucket (a tenant may write any label), by
//     whichever member sees it: it is in that member's cache by its wrong label.
// A label never decides who acts: the gate judges the namespace. A wrong one only hides the
// object from its owner until it is put right. A failed patch is tried again with backoff.
import { Backoff } from "../../toolkit/backoff.ts";
import { type Clock, sleep, systemClock } from "../../toolkit/clock.ts";
import type { Informer } from "../informer.ts";
import { isNotFound, type KubeClient, patchTypes } from "../kube-client.ts";
import { type KubeObject, keyOf, objectPath, type ResourceType } from "../kube-object.ts";
import { type Logger, silentLogger } from "../logger.ts";
import { bucketOf, bucketSelector, shardBucketLabel } from "./buckets.ts";
import type { ShardMember } from "./member.ts";

export interface ShardCachesOptions {
  readonly client: KubeClient;
  readonly member: ShardMember;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

interface Tracked {
  readonly resource: ResourceType;
  readonly informer: Informer;
  /** The selector it has besides the buckets (--watch-selectors), if any. */
  readonly base: string | undefined;
  /** The same resource's objects without a bucket label (metadata only). */
  readonly unbucketed: Informer;
}

interface Relabel {
  readonly resource: ResourceType;
  readonly namespace: string;
  readonly name: string;
}

/** Label patches in flight at once (switching sharding on labels every object once). */
const labelsInFlight = 8;

const joinSelectors = (...parts: (string | undefined)[]): string =>
  parts.filter((p) => p !== undefined && p !== "").join(",");

export class ShardCaches {
  readonly #o: ShardCachesOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #tracked: Tracked[] = [];
  /** The buckets the informers select now; undefined until the member has seen its own Lease. */
  #buckets: readonly string[] | undefined;
  readonly #pending = new Map<string, Relabel>();
  readonly #backoff = new Backoff({ baseMs: 500, maxMs: 30_000, jitter: 0.2 });
  readonly #stop = new AbortController();
  #flushing: Promise<void> | undefined;

  constructor(opts: ShardCachesOptions) {
    this.#o = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#log = (opts.logger ?? silentLogger).child({ shardMember: opts.member.member });
  }

  /** The selector a sharded informer starts with (its base selector and no bucket yet). */
  selectorFor(base: string | undefined): string {
    return joinSelectors(base, bucketSelector(this.#buckets ?? []));
  }

  /** Follows the shard with `informer`, and labels the resource's objects that lack a right bucket label. */
  track(resource: ResourceType, informer: Informer, base: string | undefined, unbucketed: Informer): void {
    this.#tracked.push({ resource, informer, base, unbucketed });
    informer.addHandler({
      onAdd: (obj) => this.#checkLabel(resource, obj),
      onUpdate: (_, obj) => this.#checkLabel(resource, obj),
    });
    unbucketed.addHandler({
      onAdd: (obj) => this.#labelIfOwned(resource, obj),
      onUpdate: (_, obj) => this.#labelIfOwned(resource, obj),
    });
  }

  /** The member's view or acknowledgement changed: select the buckets it owns now, label what it gained. */
  update(): void {
    const state = this.#o.member.state;
    if (this.#buckets === undefined && state.fenced) return;
    const self = this.#o.member.member;
    const owned = new Set(state.view.bucketsOf(self));
    for (const b of state.acknowledged?.bucketsOf(self) ?? []) owned.add(b);
    const buckets = [...owned].sort((a, b) => Number(a) - Number(b));
    if (this.#buckets !== undefined && buckets.join(",") === this.#buckets.join(",")) return;
    const before = this.#buckets?.length ?? 0;
    this.#buckets = buckets;
    this.#log.info(
      { event: "shard.buckets", buckets: buckets.length, before },
      "caching the objects of the buckets this replica owns",
    );
    for (const t of this.#tracked) {
      t.informer.setLabelSelector(joinSelectors(t.base, bucketSelector(buckets)));
      for (const obj of t.unbucketed.list()) this.#labelIfOwned(t.resource, obj);
    }
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#flushing;
  }

  #checkLabel(resource: ResourceType, obj: KubeObject): void {
    const ns = obj.metadata.namespace ?? "";
    if (obj.metadata.labels?.[shardBucketLabel] !== bucketOf(ns)) this.#relabel(resource, obj);
  }

  #labelIfOwned(resource: ResourceType, obj: KubeObject): void {
    const state = this.#o.member.state;
    if (this.#buckets === undefined) return;
    if (state.view.ownerOf(obj.metadata.namespace ?? "") === this.#o.member.member)
      this.#relabel(resource, obj);
  }

  #relabel(resource: ResourceType, obj: KubeObject): void {
    const key = `${resource.plural}.${resource.group}/${keyOf(obj)}`;
    this.#pending.set(key, {
      resource,
      namespace: obj.metadata.namespace ?? "",
      name: obj.metadata.name,
    });
    this.#flushing ??= this.#flush().finally(() => {
      this.#flushing = undefined;
    });
  }

  async #flush(): Promise<void> {
    const stopped = this.#stop.signal;
    while (this.#pending.size > 0 && !stopped.aborted) {
      const batch = [...this.#pending].slice(0, labelsInFlight);
      for (const [key] of batch) this.#pending.delete(key);
      const failed = (await Promise.all(batch.map(([key, r]) => this.#label(key, r, stopped)))).filter(
        (ok) => !ok,
      );
      if (failed.length === 0) this.#backoff.reset();
      else await sleep(this.#clock, this.#backoff.next(), stopped);
    }
  }

  /** Writes the object's bucket label; false (and queued again) when that failed. */
  async #label(key: string, r: Relabel, stopped: AbortSignal): Promise<boolean> {
    try {
      await this.#o.client.request({
        method: "PATCH",
        path: objectPath(r.resource, r.namespace, r.name),
        contentType: patchTypes.merge,
        body: { metadata: { labels: { [shardBucketLabel]: bucketOf(r.namespace) } } },
        signal: stopped,
        timeoutMs: 10_000,
      });
      return true;
    } catch (err) {
      if (stopped.aborted || isNotFound(err)) return true;
      if (!this.#pending.has(key)) this.#pending.set(key, r);
      this.#log.warn(
        { event: "shard.label-failed", object: key, err: err instanceof Error ? err.message : String(err) },
        "could not set the object's shard bucket label; trying again",
      );
      return false;
    }
  }
}
