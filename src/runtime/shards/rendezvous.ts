// Which member owns a key (a namespace): rendezvous (highest-random-weight) hashing. Every member
// scores every key; the highest score owns it. When a member leaves, only its keys move (each to
// its own runner-up); when one joins, it takes about 1/N of the keys, from every member alike.
// Deterministic: every replica computes the same owner from the same member list.
// Members own buckets of namespaces (buckets.ts), so that a replica can select its objects by label.
import { hash } from "node:crypto";
import { allBuckets, bucketOf } from "./buckets.ts";

/** The member's score for a key: the first 48 bits of SHA-256(member, key). */
function score(member: string, key: string): number {
  return Number.parseInt(hash("sha256", `${member}\u0000${key}`, "hex").slice(0, 12), 16);
}

/** The owner of `key` among `members` (undefined when there is none). Ties go to the smaller name. */
function highestScore(key: string, members: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const m of members) {
    const s = score(m, key);
    if (s > bestScore || (s === bestScore && best !== undefined && m < best)) {
      best = m;
      bestScore = s;
    }
  }
  return best;
}

/** The owner of a namespace among `members`: the owner of its bucket. */
export function ownerOf(namespace: string, members: readonly string[]): string | undefined {
  return new Assignment(members).ownerOf(namespace);
}

/** Owners of namespaces under one member list: each namespace goes with its bucket (buckets.ts). */
export class Assignment {
  readonly members: readonly string[];
  /** bucket → owner, computed once per bucket */
  readonly #owners = new Map<string, string | undefined>();

  constructor(members: readonly string[]) {
    this.members = [...new Set(members)].sort();
  }

  /** The owner of a namespace: the owner of its bucket. */
  ownerOf(namespace: string): string | undefined {
    return this.ownerOfBucket(bucketOf(namespace));
  }

  ownerOfBucket(bucket: string): string | undefined {
    if (this.#owners.has(bucket)) return this.#owners.get(bucket);
    const owner = highestScore(`bucket-${bucket}`, this.members);
    this.#owners.set(bucket, owner);
    return owner;
  }

  /** The buckets `member` owns under this view. */
  bucketsOf(member: string): string[] {
    return allBuckets.filter((b) => this.ownerOfBucket(b) === member);
  }

  /** Same members (as a set). */
  equals(other: Assignment | readonly string[] | undefined): boolean {
    const them =
      other instanceof Assignment
        ? other.members
        : other === undefined
          ? undefined
          : [...new Set(other)].sort();
    return (
      them !== undefined && them.length === this.members.length && them.every((m, i) => m === this.members[i])
    );
  }
}
