// The audited namespaces, sorted, with an inverted index of their labels so that a label
// selector (an identity's allowedNamespaces, an IAMRoleSelector's namespaceSelector) is tested
// only against namespaces that carry one of the values it requires. The index only narrows:
// every candidate is still tested with the compiled matcher the resolver uses.

import type { NamespaceConfig } from "../resolver/snapshot-types.ts";
import type { CompiledSelector } from "../selector/label-selector.ts";
import { compareText } from "../toolkit/compare-text.ts";

const separator = "\u0000";

export class NamespaceIndex {
  /** Valid namespaces of the snapshot, sorted by name. */
  readonly all: readonly NamespaceConfig[];
  readonly byName: ReadonlyMap<string, NamespaceConfig>;
  readonly #byLabel = new Map<string, NamespaceConfig[]>();

  constructor(namespaces: Iterable<NamespaceConfig>) {
    this.all = [...namespaces].sort((a, b) => compareText(a.name, b.name));
    this.byName = new Map(this.all.map((ns) => [ns.name, ns]));
    for (const ns of this.all) {
      const labels = ns.labels;
      if (labels === undefined) continue;
      for (const key of Object.keys(labels)) {
        const posting = `${key}${separator}${labels[key]}`;
        const list = this.#byLabel.get(posting);
        if (list === undefined) this.#byLabel.set(posting, [ns]);
        else list.push(ns);
      }
    }
  }

  /**
   * A superset of the namespaces whose labels `selector` matches: those carrying a value of
   * its most selective `In` requirement (matchLabels included), else every namespace.
   */
  candidatesFor(selector: CompiledSelector): readonly NamespaceConfig[] {
    let best: NamespaceConfig[] | null = null;
    for (const requirement of selector.requirements) {
      if (requirement.operator !== "In") continue;
      const union: NamespaceConfig[] = [];
      // A namespace has one value per key, so the posting lists of one key never overlap.
      for (const value of requirement.values) {
        const list = this.#byLabel.get(`${requirement.key}${separator}${value}`);
        if (list !== undefined) union.push(...list);
      }
      if (best === null || union.length < best.length) best = union;
    }
    return best ?? this.all;
  }

  /** The namespaces named in `names` that exist. */
  named(names: readonly string[]): NamespaceConfig[] {
    const out: NamespaceConfig[] = [];
    for (const name of names) {
      const ns = this.byName.get(name);
      if (ns !== undefined) out.push(ns);
    }
    return out;
  }
}
