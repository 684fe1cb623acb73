// Collects reaches while the audit runs: one per namespace × grant × actual/potential × route.
// Each is built as the report's own AuditReach object and completed in place (more kinds, the
// existing resources using it), so a cluster's worth of reaches is allocated once, not twice.

import { compareText } from "../toolkit/compare-text.ts";
import type { Grant } from "./grants.ts";
import type { AuditReach } from "./model.ts";

export type MutableReach = { -readonly [K in keyof AuditReach]: AuditReach[K] };

/** Sorted kind-name lists, one shared array per set of kinds, and back to bit masks. */
export class KindSets {
  readonly names: readonly string[];
  readonly all: number;
  readonly #lists: (readonly string[] | undefined)[] = [];
  readonly #masks = new Map<readonly string[], number>();

  /** `names` sorted: bit i is names[i]. */
  constructor(names: readonly string[]) {
    this.names = names;
    this.all = (1 << names.length) - 1;
  }

  bit(index: number): number {
    return 1 << index;
  }

  list(mask: number): readonly string[] {
    let list = this.#lists[mask];
    if (list === undefined) {
      list = this.names.filter((_, i) => (mask & (1 << i)) !== 0);
      this.#lists[mask] = list;
      this.#masks.set(list, mask);
    }
    return list;
  }

  /** The mask of a list this returned. */
  maskOf(list: readonly string[]): number {
    return this.#masks.get(list) ?? 0;
  }
}

/** One namespace's reaches, with the grant of each (same index) for quick comparison. */
interface NamespaceReaches {
  readonly reaches: MutableReach[];
  readonly grants: Grant[];
}

export class ReachBook {
  readonly #kinds: KindSets;
  /** namespace → its reaches: lists, since a namespace has tens of reaches, not thousands. */
  readonly #byNamespace = new Map<string, NamespaceReaches>();

  constructor(kinds: KindSets) {
    this.#kinds = kinds;
  }

  add(namespace: string, grant: Grant, actual: boolean, kindBits: number, how: string): MutableReach {
    let entry = this.#byNamespace.get(namespace);
    if (entry === undefined) {
      entry = { reaches: [], grants: [] };
      this.#byNamespace.set(namespace, entry);
    }
    const { reaches, grants } = entry;
    const kinds = this.#kinds;
    for (let i = 0; i < reaches.length; i++) {
      const reach = reaches[i]!;
      if (grants[i] === grant && reach.actual === actual && reach.how === how) {
        reach.kinds = kinds.list(kinds.maskOf(reach.kinds) | kindBits);
        return reach;
      }
    }
    const reach: MutableReach = {
      namespace,
      kinds: kinds.list(kindBits),
      grant: grant.id,
      roleARN: grant.roleARN,
      account: grant.account,
      actual,
      how,
    };
    reaches.push(reach);
    grants.push(grant);
    return reach;
  }

  /** The reaches of `namespace` through `grant`. */
  through(namespace: string, grant: Grant): MutableReach[] {
    const entry = this.#byNamespace.get(namespace);
    if (entry === undefined) return [];
    return entry.reaches.filter((_, i) => entry.grants[i] === grant);
  }

  /**
   * The reaches of one namespace, sorted by grant id, actual first, then route — handed over:
   * the book forgets them.
   */
  take(namespace: string): MutableReach[] {
    const entry = this.#byNamespace.get(namespace);
    if (entry === undefined) return [];
    this.#byNamespace.delete(namespace);
    return entry.reaches.sort(compareReaches);
  }
}

function compareReaches(a: AuditReach, b: AuditReach): number {
  if (a.grant !== b.grant) return a.grant < b.grant ? -1 : 1;
  if (a.actual !== b.actual) return a.actual ? -1 : 1;
  return compareText(a.how, b.how);
}
