// Which referrers used a reference in AWS, as the controller itself recorded it (never as a
// referrer's status says: status is its tenant's to write). Before a referrer's AWS call that
// may use a referenced object (a DBInstance placed in a DBSubnetGroup), its reconcile records the
// use here: referrer uid → kind, namespace, name, the reference's path, and the account and region
// it acted in. A referenced object's deletion then waits only for referrers recorded as using it
// in its own account and region (references.ts, deletionInUse): a tenant that names another
// team's object but never reached AWS through it, or cannot now, holds nothing.
//
// One record per referenced object (crossrole-referrers-<its uid>), one data key per referrer.
// A referrer's keys go when it is released or its reference moved; a referenced object's record
// goes when it is released. A record left behind (a finalizer removed by hand) names a uid that
// no object has: it holds nothing, and the records controller deletes it.
import type { Owner } from "../ownership.ts";
import type { RecordObject, RecordStore } from "./record-store.ts";

export const referrersRecordPrefix = "crossrole-referrers-";
/** The annotation naming the referenced object a record is about (for people and the GC). */
export const referencedAnnotation = "crossrole.dev/referenced";

export const referrersRecordName = (referencedUid: string): string =>
  `${referrersRecordPrefix}${referencedUid}`;

/** One referrer's recorded use of a reference. */
export interface ReferenceUse {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The reference's spec path (spec.dbSubnetGroupRef). */
  readonly path: string;
  /** Where the referrer acted in AWS with it. */
  readonly account: string;
  readonly region: string;
  /** When it was first recorded (RFC 3339). */
  readonly at: string;
}

function parseUse(text: string): ReferenceUse | undefined {
  try {
    const u = JSON.parse(text) as Partial<Record<keyof ReferenceUse, unknown>>;
    const fields = [u.kind, u.namespace, u.name, u.path, u.account, u.region, u.at];
    if (!fields.every((f) => typeof f === "string")) return undefined;
    return u as ReferenceUse;
  } catch {
    return undefined;
  }
}

/** A record's uses, by referrer uid (entries that do not parse count as none). */
export function usesIn(record: RecordObject | undefined): ReadonlyMap<string, ReferenceUse> {
  const out = new Map<string, ReferenceUse>();
  for (const [uid, text] of Object.entries(record?.data ?? {})) {
    const use = parseUse(text);
    if (use) out.set(uid, use);
  }
  return out;
}

const sameUse = (a: ReferenceUse | undefined, b: Omit<ReferenceUse, "at">): boolean =>
  a !== undefined &&
  a.kind === b.kind &&
  a.namespace === b.namespace &&
  a.name === b.name &&
  a.path === b.path &&
  a.account === b.account &&
  a.region === b.region;

/** The referencing side of the records: written by referrers' reconciles, read by deletions. */
export class ReferenceUses {
  readonly #store: RecordStore;
  readonly #now: () => Date;

  constructor(store: RecordStore, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  /**
   * Records that `referrer` is about to act in AWS with `referenced` (in `account`/`region`):
   * one write the first time, none while the cache already holds the same use.
   */
  async record(
    referenced: Owner,
    referrer: Owner,
    path: string,
    where: { readonly account: string; readonly region: string },
    signal?: AbortSignal,
  ): Promise<void> {
    const name = referrersRecordName(referenced.uid);
    const use = { kind: referrer.kind, namespace: referrer.namespace, name: referrer.name, path, ...where };
    if (sameUse(usesIn(this.#store.cached(name)).get(referrer.uid), use)) return;
    await this.#store.put(
      name,
      "referrers",
      { [referrer.uid]: JSON.stringify({ ...use, at: this.#now().toISOString() }) },
      { [referencedAnnotation]: `${referenced.kind} ${referenced.namespace}/${referenced.name}` },
      signal,
    );
  }

  /** The uses recorded for a referenced object now (from the apiserver, not the cache). */
  async of(referencedUid: string, signal?: AbortSignal): Promise<ReadonlyMap<string, ReferenceUse>> {
    return usesIn(await this.#store.live(referrersRecordName(referencedUid), signal));
  }

  /**
   * Drops a referrer's uses, except of the referenced objects in `keep` (uids): what it no longer
   * references once its AWS object was brought to its spec, or everything once it is released.
   */
  async forgetReferrer(referrerUid: string, keep: ReadonlySet<string> = new Set(), signal?: AbortSignal) {
    for (const record of this.#store.list("referrers")) {
      if (record.data?.[referrerUid] === undefined) continue;
      const referencedUid = record.metadata.name.slice(referrersRecordPrefix.length);
      if (keep.has(referencedUid)) continue;
      await this.#store.put(record.metadata.name, "referrers", { [referrerUid]: null }, {}, signal);
    }
  }

  /** Drops a referenced object's record once it is released. */
  async forgetReferenced(referencedUid: string, signal?: AbortSignal): Promise<void> {
    const name = referrersRecordName(referencedUid);
    if (this.#store.cached(name) !== undefined) await this.#store.delete(name, signal);
  }
}
