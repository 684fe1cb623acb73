// Does an IAMRoleSelector apply to a resource? All present parts are ANDed (DESIGN §2.4):
// namespace names (OR) AND namespace labels, resource type (OR across entries, each entry's
// present parts ANDed), resource labels. `candidatesFor` uses the snapshot's index so that
// only selectors sharing a necessary condition with the resource are checked at all.

import type { Labels } from "../selector/label-selector.ts";
import { groupKindKey, valueSeparator } from "./selector-index.ts";
import type { LabelSetIndex, SelectorConfig, SelectorIndex, TypeBuckets } from "./snapshot-types.ts";

export interface MatchTarget {
  readonly namespace: string;
  readonly namespaceLabels: Labels;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resourceLabels: Labels;
}

/** The resource-type part of selectorMatches. */
export function selectorMatchesType(
  selector: SelectorConfig,
  t: Pick<MatchTarget, "group" | "version" | "kind">,
): boolean {
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
  if (!selectorMatchesType(selector, t)) {
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

/**
 * The namespace part of selectorMatches. With selectorMatchesType, everything it checks except
 * the resource's own labels: the audit uses the two to find the selectors a namespace can
 * reach by labelling its resources, testing each part once.
 */
export function selectorMatchesNamespace(
  selector: SelectorConfig,
  t: Pick<MatchTarget, "namespace" | "namespaceLabels">,
): boolean {
  return (
    (selector.namespaceNames === null || selector.namespaceNames.includes(t.namespace)) &&
    (selector.namespaceLabels === null || selector.namespaceLabels.matches(t.namespaceLabels))
  );
}

/** The hot path: the same test as selectorMismatch, without building any text. */
export function selectorMatches(selector: SelectorConfig, t: MatchTarget): boolean {
  return (
    selectorMatchesNamespace(selector, t) &&
    selectorMatchesType(selector, t) &&
    (selector.resourceLabels === null || selector.resourceLabels.matches(t.resourceLabels))
  );
}

function collect(
  buckets: TypeBuckets | undefined,
  t: MatchTarget,
  gk: string,
  several: ReadonlySet<SelectorConfig>,
  out: SelectorConfig[],
): void {
  if (buckets === undefined) return;
  scan(buckets.byGroupKind.get(gk), t, several, out);
  scan(buckets.byGroup.get(t.group), t, several, out);
  scan(buckets.byKind.get(t.kind), t, several, out);
  scan(buckets.any, t, several, out);
}

function scan(
  list: readonly SelectorConfig[] | undefined,
  t: MatchTarget,
  several: ReadonlySet<SelectorConfig>,
  out: SelectorConfig[],
): void {
  if (list === undefined) return;
  for (let i = 0; i < list.length; i++) {
    const selector = list[i]!;
    // Only a selector filed under several type keys can be reached twice (the index knows which).
    if (
      selectorMatches(selector, t) &&
      (several.size === 0 || !several.has(selector) || !out.includes(selector))
    ) {
      out.push(selector);
    }
  }
}

/** Looks up, for each indexed set of label keys, the bucket of the target's values for them. */
function collectByLabelSets(
  sets: readonly LabelSetIndex[],
  labels: Labels,
  t: MatchTarget,
  gk: string,
  several: ReadonlySet<SelectorConfig>,
  out: SelectorConfig[],
): void {
  if (labels === undefined) return;
  for (let s = 0; s < sets.length; s++) {
    const set = sets[s]!;
    const keys = set.keys;
    let composite = "";
    let complete = true;
    for (let i = 0; i < keys.length; i++) {
      // typeof: a key such as `constructor` must not find Object.prototype's members.
      const value = labels[keys[i]!];
      if (typeof value !== "string") {
        complete = false;
        break;
      }
      composite = i === 0 ? value : composite + valueSeparator + value;
    }
    if (complete) collect(set.buckets.get(composite), t, gk, several, out);
  }
}

/** Every selector that applies to the target, sorted by name. */
export function matchingSelectors(index: SelectorIndex, t: MatchTarget): SelectorConfig[] {
  const out: SelectorConfig[] = [];
  const gk = groupKindKey(t.group, t.kind);
  const several = index.inSeveralTypeBuckets;
  collect(index.byNamespaceName.get(t.namespace), t, gk, several, out);
  collectByLabelSets(index.byNamespaceLabels, t.namespaceLabels, t, gk, several, out);
  collectByLabelSets(index.byResourceLabels, t.resourceLabels, t, gk, several, out);
  collect(index.anyNamespace, t, gk, several, out);
  if (out.length > 1) out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}
