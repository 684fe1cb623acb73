// Does an IAMRoleSelector apply to a resource? All present parts are ANDed (DESIGN §2.4):
// namespace names (OR) AND namespace labels, resource type (OR across entries, each entry's
// present parts ANDed), resource labels. `candidatesFor` uses the snapshot's index so that
// only selectors sharing a necessary condition with the resource are checked at all.

import type { Labels } from "../selector/index.ts";
import { groupKindKey } from "./snapshot-selectors.ts";
import type { SelectorConfig, SelectorIndex, TypeBuckets } from "./snapshot-types.ts";

export interface MatchTarget {
  readonly namespace: string;
  readonly namespaceLabels: Labels;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resourceLabels: Labels;
}

function typeMatches(selector: SelectorConfig, t: MatchTarget): boolean {
  const types = selector.resourceTypes;
  if (types === null) return true;
  for (const entry of types) {
    if (
      (entry.group === null || entry.group === t.group) &&
      (entry.version === null || entry.version === t.version) &&
      (entry.kind === null || entry.kind === t.kind)
    ) {
      return true;
    }
  }
  return false;
}

/** Why `selector` does not apply to the target, or null when it does. For traces and messages. */
export function selectorMismatch(selector: SelectorConfig, t: MatchTarget): string | null {
  if (selector.namespaceNames !== null && !selector.namespaceNames.includes(t.namespace)) {
    return `namespace ${t.namespace} is not in its namespaceSelector.names [${selector.namespaceNames.join(", ")}]`;
  }
  if (selector.namespaceLabels !== null && !selector.namespaceLabels.matches(t.namespaceLabels)) {
    const unmet = selector.namespaceLabels.firstUnmet(t.namespaceLabels);
    return `namespace ${t.namespace}'s labels do not meet its namespaceSelector.labelSelector (${unmet?.text ?? selector.namespaceLabels.toString()})`;
  }
  if (!typeMatches(selector, t)) {
    const wanted = (selector.resourceTypes ?? [])
      .map((e) => `${e.group ?? "*"}/${e.version ?? "*"}/${e.kind ?? "*"}`)
      .join(", ");
    return `${t.group}/${t.version}/${t.kind} is not one of its resourceTypeSelector entries [${wanted}]`;
  }
  if (selector.resourceLabels !== null && !selector.resourceLabels.matches(t.resourceLabels)) {
    const unmet = selector.resourceLabels.firstUnmet(t.resourceLabels);
    return `the resource's labels do not meet its resourceLabelSelector (${unmet?.text ?? selector.resourceLabels.toString()})`;
  }
  return null;
}

/** The hot path: the same test as selectorMismatch, without building any text. */
export function selectorMatches(selector: SelectorConfig, t: MatchTarget): boolean {
  return (
    (selector.namespaceNames === null || selector.namespaceNames.includes(t.namespace)) &&
    (selector.namespaceLabels === null || selector.namespaceLabels.matches(t.namespaceLabels)) &&
    typeMatches(selector, t) &&
    (selector.resourceLabels === null || selector.resourceLabels.matches(t.resourceLabels))
  );
}

function collect(buckets: TypeBuckets | undefined, t: MatchTarget, gk: string, out: SelectorConfig[]): void {
  if (buckets === undefined) return;
  scan(buckets.byGroupKind.get(gk), t, out);
  scan(buckets.byGroup.get(t.group), t, out);
  scan(buckets.byKind.get(t.kind), t, out);
  scan(buckets.any, t, out);
}

function scan(list: readonly SelectorConfig[] | undefined, t: MatchTarget, out: SelectorConfig[]): void {
  if (list === undefined) return;
  for (let i = 0; i < list.length; i++) {
    const selector = list[i]!;
    // A selector can sit in two type buckets a target reaches (e.g. group/kind and group/*).
    if (selectorMatches(selector, t) && !out.includes(selector)) out.push(selector);
  }
}

/** Every selector that applies to the target, sorted by name. */
export function matchingSelectors(index: SelectorIndex, t: MatchTarget): SelectorConfig[] {
  const out: SelectorConfig[] = [];
  const gk = groupKindKey(t.group, t.kind);
  collect(index.byNamespaceName.get(t.namespace), t, gk, out);
  const labels = t.namespaceLabels;
  if (labels !== undefined && index.byNamespaceLabel.size > 0) {
    for (const key of Object.keys(labels)) {
      const byValue = index.byNamespaceLabel.get(key);
      if (byValue !== undefined) collect(byValue.get(labels[key]!), t, gk, out);
    }
  }
  collect(index.anyNamespace, t, gk, out);
  if (out.length > 1) out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}
