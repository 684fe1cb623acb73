// Which member owns a key (a namespace): rendezvous (highest-random-weight) hashing. Every member
// scores every key; the highest score owns it. When a member leaves, only its keys move (each to
// its own runner-up); when one joins, it takes about 1/N of the keys, from every member alike.
// Deterministic: every replica computes the same owner from the same member list.
import { hash } from "node:crypto";

/** The member's score for a key: the first 48 bits of SHA-256(member, key). */
function score(member: string, key: string): number {
  return Number.parseInt(hash("sha256", `${member}\u0000${key}`, "hex").slice(0, 12), 16);
}

/** The owner of `key` among `members` (undefined when there is none). Ties go to the smaller name. */
export function ownerOf(key: string, members: readonly string[]): string | undefined {
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

/** Owners of many keys under one member list, computed once per key. */
export class Assignment {
  readonly members: readonly string[];
  readonly #owners = new Map<string, string | undefined>();

  constructor(members: readonly string[]) {
    this.members = [...new Set(members)].sort();
  }

  ownerOf(key: string): string | undefined {
    if (this.#owners.has(key)) return this.#owners.get(key);
    const owner = ownerOf(key, this.members);
    this.#owners.set(key, owner);
    return owner;
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
