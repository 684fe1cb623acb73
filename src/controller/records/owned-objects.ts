// Whose is an AWS object AWS cannot tag (a KMS alias)? crossrole's rule is that nothing is touched
// unless it is the resource's own (DESIGN §3.5), and for a taggable object its ownership tags say
// so. An object that takes no tags has nothing to carry them, and the resource's status and
// annotations are its tenant's to write: so the controller records the owner itself, in its own
// records (record-store.ts), where no tenant can write. One record per AWS object (its kind,
// account, region and identifier, hashed into the record's name): at most one owner each.
//
// The record stands for the tags: the reconciler reads it as the object's ownership tags and judges
// them as it judges tags (ownership.ts), writes it where it would tag the object (right after its
// own create, when it finishes an interrupted create, when it adopts), and removes it when the
// object is deleted. A retained object keeps its record, marked retained, as it would keep its
// tags: an object of the same name may adopt it ("earlier"), no other ("other"); where the object
// is gone, a retained record is stale and a create takes the name. A controller killed between
// the create and the record finds the object again as its interrupted create, by the sealed
// intent and AWS's creation time (create-intent.ts).
import { createHash } from "node:crypto";
import { ownershipTagKeys } from "../../api/ownership-tags.ts";
import { type Owner, ownerName } from "../ownership.ts";
import type { RecordObject, RecordStore } from "./record-store.ts";

export const ownedPrefix = "crossrole-owned-";
export const ownedKey = "owner.json";
/** The annotation naming the object a record is about (for people reading the records). */
const ownedAnnotation = "crossrole.dev/owned";

/** An AWS object, as the record names it. */
export interface OwnedObject {
  /** The resource's API group and kind: `kms.services.k8s.aws/Alias`. */
  readonly kind: string;
  readonly account: string;
  readonly region: string;
  /** The AWS identifier (`alias/ledger`). */
  readonly identifier: string;
}

/** What a record holds. */
export interface OwnedEntry {
  readonly owner: Owner;
  readonly object: OwnedObject;
  /** When it was recorded (RFC 3339). */
  readonly at: string;
  /** When its owner was let go with the object retained in AWS (RFC 3339). */
  readonly retained?: string;
}

/** How a record names a resource kind: its API group and kind. */
export const ownedKindOf = (k: { readonly group: string; readonly kind: string }): string =>
  `${k.group}/${k.kind}`;

const sameObject = (a: OwnedObject, b: OwnedObject): boolean =>
  a.kind === b.kind && a.account === b.account && a.region === b.region && a.identifier === b.identifier;

/** The record's name: one per object, whatever its identifier holds (a DNS-1123 name). */
export function ownedRecordName(o: OwnedObject): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([o.kind, o.account, o.region, o.identifier]))
    .digest("hex");
  return `${ownedPrefix}${digest.slice(0, 40)}`;
}

/** A record's entry; undefined when it holds none, or one that does not parse. */
export function ownedEntryOf(record: RecordObject | undefined): OwnedEntry | undefined {
  const text = record?.data?.[ownedKey];
  if (text === undefined) return undefined;
  try {
    const e = JSON.parse(text) as { owner?: Partial<Owner>; object?: Partial<OwnedObject>; at?: unknown };
    const o = e.owner ?? {};
    const t = e.object ?? {};
    const strings = [o.kind, o.namespace, o.name, o.uid, t.kind, t.account, t.region, t.identifier, e.at];
    if (!strings.every((s) => typeof s === "string")) return undefined;
    if (!["string", "undefined"].includes(typeof (e as { retained?: unknown }).retained)) return undefined;
    return e as OwnedEntry;
  } catch {
    return undefined;
  }
}

/**
 * The ownership tags a record stands for, for the object `o`: the owner's name and uid, as the
 * tags of a taggable object would say them; none when no record names `o` (another object's under
 * a colliding name counts as none).
 */
export function ownedTags(entry: OwnedEntry | undefined, o: OwnedObject): Readonly<Record<string, string>> {
  if (entry === undefined || !sameObject(entry.object, o)) return {};
  return {
    [ownershipTagKeys.namespace]: entry.owner.namespace,
    [ownershipTagKeys.owner]: ownerName(entry.owner),
    [ownershipTagKeys.ownerUid]: entry.owner.uid,
  };
}

/** How long a record this process wrote answers for itself while the cache does not show it. */
const justWrittenMs = 5_000;

/** The record of an object owned by another resource: never overwritten. */
class OwnedByAnother extends Error {
  constructor(o: OwnedObject, entry: OwnedEntry) {
    super(
      `${o.identifier} in account ${o.account} (${o.region}) is recorded as ${ownerName(entry.owner)}'s (uid ${entry.owner.uid})`,
    );
    this.name = "OwnedByAnother";
  }
}

/** The controller's records of the untaggable objects it owns. */
export class OwnedObjects {
  readonly #store: RecordStore;
  readonly #now: () => Date;
  /** What this process wrote, by record name, until the cache shows it (entryOf). */
  readonly #justWritten = new Map<string, { readonly entry: OwnedEntry; readonly at: number }>();

  constructor(store: RecordStore, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  /**
   * The ownership tags recorded for `o` (entryOf): none only once the apiserver says so, since
   * "no one's" is the answer that lets an object be taken.
   */
  async tagsOf(o: OwnedObject, signal?: AbortSignal): Promise<Readonly<Record<string, string>>> {
    return ownedTags(await this.entryOf(o, signal), o);
  }

  /**
   * The record of `o`, if any: the cache's where it holds one; else the one this process wrote a
   * moment ago, until the cache shows it (at most `justWrittenMs`); else the apiserver's.
   */
  async entryOf(o: OwnedObject, signal?: AbortSignal): Promise<OwnedEntry | undefined> {
    const name = ownedRecordName(o);
    const record = this.#store.cached(name);
    const just = this.#justWritten.get(name);
    if (record !== undefined || (just !== undefined && this.#now().getTime() - just.at > justWrittenMs))
      this.#justWritten.delete(name);
    const cached = ownedEntryOf(record);
    if (cached !== undefined && sameObject(cached.object, o)) return cached;
    if (record === undefined && just !== undefined && this.#justWritten.has(name)) return just.entry;
    const live = ownedEntryOf(await this.#store.live(name, signal));
    return live !== undefined && sameObject(live.object, o) ? live : undefined;
  }

  /**
   * Records `owner` as the owner of `o` (one request where no record exists); refused
   * (OwnedByAnother) when another live resource is. A retained record, or an earlier namesake's,
   * is replaced: the reconciler took the object (an adoption of one its earlier namesake left),
   * or made it anew where that one was gone.
   */
  async claim(owner: Owner, o: OwnedObject, signal?: AbortSignal): Promise<void> {
    const name = ownedRecordName(o);
    const entry: OwnedEntry = { owner, object: o, at: this.#now().toISOString() };
    const data = { [ownedKey]: JSON.stringify(entry) };
    const annotations = { [ownedAnnotation]: `${o.kind} ${o.identifier} in ${o.account} ${o.region}` };
    if ((await this.#store.create(name, "owned", data, annotations, signal)) === "exists") {
      const held = ownedEntryOf(await this.#store.live(name, signal));
      if (held !== undefined && sameObject(held.object, o)) {
        if (held.owner.uid === owner.uid && held.retained === undefined) return;
        // Another live resource's: never taken.
        if (held.retained === undefined && ownerName(held.owner) !== ownerName(owner))
          throw new OwnedByAnother(o, held);
      }
      await this.#store.put(name, "owned", data, annotations, signal);
    }
    this.#justWritten.set(name, { entry, at: this.#now().getTime() });
  }

  /**
   * Removes every record naming `ownerUid` as the owner (the resource is let go): `o`'s, asked of
   * the apiserver where the object is known (a record written a moment ago may not be cached yet),
   * and any other the cache holds.
   */
  async forget(ownerUid: string, o?: OwnedObject, signal?: AbortSignal): Promise<void> {
    const names = new Set(
      this.#store
        .list("owned")
        .filter((r) => ownedEntryOf(r)?.owner.uid === ownerUid)
        .map((r) => r.metadata.name),
    );
    if (
      o !== undefined &&
      ownedEntryOf(await this.#store.live(ownedRecordName(o), signal))?.owner.uid === ownerUid
    )
      names.add(ownedRecordName(o));
    for (const name of names) {
      this.#justWritten.delete(name);
      await this.#store.delete(name, signal);
    }
  }

  /** Marks every record naming `ownerUid` retained: its owner is let go, the object kept in AWS. */
  async retain(ownerUid: string, signal?: AbortSignal): Promise<void> {
    const at = this.#now().toISOString();
    for (const record of this.#store.list("owned")) {
      const entry = ownedEntryOf(record);
      if (entry?.owner.uid !== ownerUid || entry.retained !== undefined) continue;
      this.#justWritten.delete(record.metadata.name);
      await this.#store.put(
        record.metadata.name,
        "owned",
        { [ownedKey]: JSON.stringify({ ...entry, retained: at }) },
        {},
        signal,
      );
    }
  }
}
