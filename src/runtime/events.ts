// Kubernetes Events (core/v1, what `kubectl describe` shows) with client-go's recorder
// behaviour, so a reconcile loop that keeps failing does not flood the apiserver:
//   - de-duplication: the same event (object, type, reason, message) again only increments
//     `count` and `lastTimestamp` on the existing Event (a PATCH, not a new object);
//   - spam filter: a token bucket per involved object (25 burst, 1 more per 5 minutes); events
//     beyond it are dropped;
//   - writes never throw into the caller and are serialised per event.
import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { type Clock, systemClock } from "../toolkit/clock.ts";
import { isNotFound, type KubeClient, patchTypes } from "./kube-client.ts";
import type { KubeObject } from "./kube-object.ts";
import { type Logger, silentLogger } from "./logger.ts";

export type EventType = "Normal" | "Warning";

export interface EventRecorderOptions {
  readonly client: KubeClient;
  /** source.component / reportingComponent, e.g. "crossrole". */
  readonly component: string;
  /** reportingInstance / source.host, e.g. the pod name. */
  readonly instance?: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Events a single object may emit at once (25). */
  readonly burst?: number;
  /** One more event per object per this many ms, after the burst (5 min). */
  readonly refillMs?: number;
  /** Remembered distinct events / objects (4096). */
  readonly cacheSize?: number;
}

interface Series {
  readonly namespace: string;
  readonly name: string;
  count: number;
}

interface Bucket {
  tokens: number;
  last: number;
}

/** Event time fields are metav1.Time: RFC 3339, second precision. */
function eventTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
}

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #series: LRUCache<string, Series>;
  readonly #buckets: LRUCache<string, Bucket>;
  readonly #chains = new Map<string, Promise<void>>();

  constructor(opts: EventRecorderOptions) {
    this.#o = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#log = (opts.logger ?? silentLogger).child({ component: "events" });
    this.#series = new LRUCache({ max: opts.cacheSize ?? 4096 });
    this.#buckets = new LRUCache({ max: opts.cacheSize ?? 4096 });
  }

  /**
   * Records an event about `obj` (which needs apiVersion, kind and metadata; objects from an
   * informer have them). Resolves when written, dropped or failed — never rejects.
   */
  event(obj: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const m = obj.metadata;
    // Kept per object and per distinct event (up to cacheSize each): short keys, not the message.
    const objectId = m.uid || `${obj.apiVersion}|${obj.kind}|${m.namespace ?? ""}|${m.name}`;
    if (!this.#allow(objectId)) {
      this.#log.debug({ object: objectId, reason }, "event dropped by the spam filter");
      return Promise.resolve();
    }
    const key = hash("sha256", `${objectId}|${type}|${reason}|${message}`, "base64");
    const prev = this.#chains.get(key) ?? Promise.resolve();
    const next = prev
      .then(() => this.#write(key, obj, type, reason, message))
      .catch((err: unknown) => {
        this.#log.warn(
          { err: err instanceof Error ? err.message : String(err), reason },
          "could not record event",
        );
      })
      .finally(() => {
        if (this.#chains.get(key) === next) this.#chains.delete(key);
      });
    this.#chains.set(key, next);
    return next;
  }

  /** Waits for every pending event write. */
  async flush(): Promise<void> {
    await Promise.all([...this.#chains.values()]);
  }

  #allow(objectId: string): boolean {
    const burst = this.#o.burst ?? 25;
    const refillMs = this.#o.refillMs ?? 5 * 60 * 1000;
    const now = this.#clock.now();
    const b = this.#buckets.get(objectId) ?? { tokens: burst, last: now };
    b.tokens = Math.min(burst, b.tokens + (now - b.last) / refillMs);
    b.last = now;
    this.#buckets.set(objectId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  async #write(
    key: string,
    obj: KubeObject,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<void> {
    const now = eventTime(this.#clock.now());
    const series = this.#series.get(key);
    if (series) {
      try {
        await this.#o.client.request({
          method: "PATCH",
          path: `/api/v1/namespaces/${encodeURIComponent(series.namespace)}/events/${encodeURIComponent(series.name)}`,
          contentType: patchTypes.merge,
          body: { count: series.count + 1, lastTimestamp: now },
        });
        series.count++;
        return;
      } catch (err) {
        // The Event expired (events have a TTL); start a new one.
        if (!isNotFound(err)) throw err;
        this.#series.delete(key);
      }
    }
    const m = obj.metadata;
    const namespace = m.namespace || "default";
    const name = `${m.name}.${(this.#clock.now() * 1e6 + Math.floor(Math.random() * 1e6)).toString(16)}`;
    await this.#o.client.request({
      method: "POST",
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`,
      body: {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name, namespace },
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          namespace: m.namespace,
          name: m.name,
          uid: m.uid,
          resourceVersion: m.resourceVersion,
        },
        type,
        reason,
        message,
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: this.#o.component, host: this.#o.instance },
        reportingComponent: this.#o.component,
        reportingInstance: this.#o.instance ?? "",
      },
    });
    this.#series.set(key, { namespace, name, count: 1 });
  }
}
