// Builds the SelectorIndex (see snapshot-types.ts): each selector is filed under one necessary
// condition — its namespace names, else the conjunction of its namespace label equalities,
// else of its resource label equalities, else "any" — and under its resource types.
//
// Why the conjunction of ALL equality requirements rather than the most selective one: a
// selector such as `team=a, env=dev` filed under `team=a` would be re-checked for every
// resource of team a; filed under (env, team) = (dev, a) it is only reached from namespaces
// that meet both, so decision cost follows the selectors that can match, not those that cannot.

import type { CompiledSelector } from "../selector/label-selector.ts";
import type {
  LabelSetIndex,
  ResourceTypeMatch,
  SelectorConfig,
  SelectorIndex,
  TypeBuckets,
} from "./snapshot-types.ts";

/** `In (a, b, c)` on several keys multiplies bucket keys; beyond this, keys are left to re-checking. */
const maxCombinations = 64;

/** Separates the values of a composite bucket key; label values cannot contain it. */
export const valueSeparator = "\u0000";

export function groupKindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

interface MutableBuckets {
  byGroupKind: Map<string, SelectorConfig[]>;
  byGroup: Map<string, SelectorConfig[]>;
  byKind: Map<string, SelectorConfig[]>;
  any: SelectorConfig[];
}

function newBuckets(): MutableBuckets {
  return { byGroupKind: new Map(), byGroup: new Map(), byKind: new Map(), any: [] };
}

function pushUnique(map: Map<string, SelectorConfig[]>, key: string, selector: SelectorConfig): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [selector]);
  else if (list[list.length - 1] !== selector) list.push(selector);
}

/**
 * Files a selector under every type key one of its entries needs (null = any). Returns whether
 * a single resource could reach it under two of those keys (e.g. `s3…/Bucket` and `s3…/*`).
 */
function addByType(buckets: MutableBuckets, selector: SelectorConfig): boolean {
  const types: readonly ResourceTypeMatch[] = selector.resourceTypes ?? [
    { group: null, version: null, kind: null },
  ];
  let onlyGroupKind = true;
  for (const t of types) {
    if (t.group !== null && t.kind !== null) {
      pushUnique(buckets.byGroupKind, groupKindKey(t.group, t.kind), selector);
      continue;
    }
    onlyGroupKind = false;
    if (t.group !== null) pushUnique(buckets.byGroup, t.group, selector);
    else if (t.kind !== null) pushUnique(buckets.byKind, t.kind, selector);
    else if (buckets.any[buckets.any.length - 1] !== selector) buckets.any.push(selector);
  }
  // Distinct group/kind keys never match the same resource; any other mix of keys can.
  return types.length > 1 && !onlyGroupKind;
}

interface Equalities {
  /** Sorted label keys. */
  readonly keys: string[];
  /** Every combination of allowed values, joined in key order. */
  readonly composites: string[];
}

/**
 * The equality part of a label selector: for each key with `In` requirements (matchLabels
 * included), the values allowed by all of them. Null when there is none to index by.
 */
function equalitiesOf(selector: CompiledSelector | null): Equalities | null {
  if (selector === null) return null;
  const allowed = new Map<string, Set<string>>();
  for (const r of selector.requirements) {
    if (r.operator !== "In") continue;
    const previous = allowed.get(r.key);
    allowed.set(
      r.key,
      previous === undefined ? new Set(r.values) : new Set([...previous].filter((v) => r.values.has(v))),
    );
  }
  // Keep the combination count bounded by leaving the widest `In` lists to re-checking.
  const keys = [...allowed.keys()].sort();
  const product = () => keys.reduce((n, k) => n * Math.max(1, allowed.get(k)!.size), 1);
  while (keys.length > 1 && product() > maxCombinations) {
    const widest = keys.reduce((a, b) => (allowed.get(b)!.size > allowed.get(a)!.size ? b : a));
    keys.splice(keys.indexOf(widest), 1);
  }
  if (keys.length === 0 || product() > maxCombinations) return null;
  let composites = [""];
  keys.forEach((key, i) => {
    const values = [...allowed.get(key)!].sort();
    composites = composites.flatMap((prefix) =>
      values.map((v) => (i === 0 ? v : prefix + valueSeparator + v)),
    );
  });
  // An empty intersection (`a=x` and `a in (y)`) can never match: no bucket at all is right.
  return { keys, composites };
}

type MutableLabelSets = Map<string, { keys: string[]; buckets: Map<string, MutableBuckets> }>;

function bucketsFor(map: Map<string, MutableBuckets>, key: string): MutableBuckets {
  let b = map.get(key);
  if (b === undefined) {
    b = newBuckets();
    map.set(key, b);
  }
  return b;
}

function labelSetBuckets(sets: MutableLabelSets, equalities: Equalities): MutableBuckets[] {
  const id = equalities.keys.join(valueSeparator);
  let set = sets.get(id);
  if (set === undefined) {
    set = { keys: equalities.keys, buckets: new Map() };
    sets.set(id, set);
  }
  const buckets = set.buckets;
  return equalities.composites.map((composite) => bucketsFor(buckets, composite));
}

function frozenLabelSets(sets: MutableLabelSets): LabelSetIndex[] {
  return [...sets.keys()].sort().map((id) => sets.get(id)! as LabelSetIndex);
}

/** `selectors` must be sorted by name; bucket lists keep that order. */
export function indexSelectors(
  selectors: readonly SelectorConfig[],
  invalid: ReadonlyMap<string, string>,
): SelectorIndex {
  const byNamespaceName = new Map<string, MutableBuckets>();
  const byNamespaceLabels: MutableLabelSets = new Map();
  const byResourceLabels: MutableLabelSets = new Map();
  const anyNamespace = newBuckets();
  const inSeveralTypeBuckets = new Set<SelectorConfig>();
  for (const selector of selectors) {
    let targets: MutableBuckets[];
    const nsEqualities = equalitiesOf(selector.namespaceLabels);
    const resourceEqualities = equalitiesOf(selector.resourceLabels);
    if (selector.namespaceNames !== null) {
      targets = selector.namespaceNames.map((name) => bucketsFor(byNamespaceName, name));
    } else if (nsEqualities !== null) {
      targets = labelSetBuckets(byNamespaceLabels, nsEqualities);
    } else if (resourceEqualities !== null) {
      targets = labelSetBuckets(byResourceLabels, resourceEqualities);
    } else {
      targets = [anyNamespace];
    }
    for (const buckets of targets) {
      if (addByType(buckets, selector)) inSeveralTypeBuckets.add(selector);
    }
  }
  return {
    all: selectors,
    byName: new Map(selectors.map((s) => [s.name, s])),
    byNamespaceName: byNamespaceName as ReadonlyMap<string, TypeBuckets>,
    byNamespaceLabels: frozenLabelSets(byNamespaceLabels),
    byResourceLabels: frozenLabelSets(byResourceLabels),
    anyNamespace,
    inSeveralTypeBuckets,
    invalid,
  };
}
