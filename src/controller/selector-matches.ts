// Which managed resources each IAMRoleSelector currently decides for (its status.matchedResources).
// Pure bookkeeping: the caller says which selector each resource's decision came from; the index
// counts per selector and says which selectors' counts changed, so only those are re-written.
import type { Decision } from "../resolver/types.ts";

/**
 * The selector a decision acts through: a `use` decision whose source is an IAMRoleSelector.
 * A conflict between selectors, or a refusal, matches no selector in this sense: nothing is
 * done under any of them.
 */
export function selectorOf(decision: Decision): string | null {
  if (decision.outcome !== "use" || decision.source !== "iamRoleSelector") return null;
  return decision.selector?.name ?? null;
}

export class MatchIndex {
  /** resource key → selector name. */
  readonly #byResource = new Map<string, string>();
  /** selector name → how many resources. */
  readonly #counts = new Map<string, number>();

  /** Records which selector `resource` goes through now (null: none); returns the selectors whose count changed. */
  set(resource: string, selector: string | null): string[] {
    const before = this.#byResource.get(resource) ?? null;
    if (before === selector) return [];
    if (before !== null) this.#add(before, -1);
    if (selector === null) this.#byResource.delete(resource);
    else {
      this.#byResource.set(resource, selector);
      this.#add(selector, 1);
    }
    return [before, selector].filter((s): s is string => s !== null).sort();
  }

  /** Replaces everything (a full recomputation); returns the selectors whose count changed. */
  replaceAll(entries: Iterable<{ readonly resource: string; readonly selector: string | null }>): string[] {
    const before = new Map(this.#counts);
    const seen = new Set<string>();
    for (const { resource, selector } of entries) {
      seen.add(resource);
      this.set(resource, selector);
    }
    for (const resource of [...this.#byResource.keys()]) if (!seen.has(resource)) this.set(resource, null);
    const names = new Set([...before.keys(), ...this.#counts.keys()]);
    return [...names].filter((n) => (before.get(n) ?? 0) !== this.count(n)).sort();
  }

  count(selector: string): number {
    return this.#counts.get(selector) ?? 0;
  }

  #add(selector: string, delta: number): void {
    const n = (this.#counts.get(selector) ?? 0) + delta;
    if (n === 0) this.#counts.delete(selector);
    else this.#counts.set(selector, n);
  }
}
