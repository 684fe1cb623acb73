// IAMRoleSelectors: validated with the API schema, compiled, and indexed so that a decision
// only re-checks selectors that can possibly match (see SelectorIndex in snapshot-types.ts).
// Invalid selectors are ignored with a problem, as DESIGN §2.4 says; ACK's matcher semantics
// apply (an empty names list, empty label selector or empty type list constrains nothing).

import { groupVersionKindOf, type IAMRoleSelector, iamRoleSelectorSchema } from "../api/iam-role-selector.ts";
import { type CompiledSelector, compileLabelSelector, type Requirement } from "../selector/index.ts";
import {
  deduplicate,
  describeRef,
  duplicateProblem,
  issueProblems,
  objectRefOf,
} from "./snapshot-objects.ts";
import type { ResourceTypeMatch, SelectorConfig, SelectorIndex, TypeBuckets } from "./snapshot-types.ts";
import type { HopParameters, SnapshotProblem } from "./types.ts";

const ignored = "until then the selector is ignored";

function compileOptional(
  selector: IAMRoleSelector["spec"]["resourceLabelSelector"],
  path: string,
  ref: ReturnType<typeof objectRefOf>,
  problems: SnapshotProblem[],
): { ok: true; value: CompiledSelector | null } | { ok: false } {
  if (selector === undefined) return { ok: true, value: null };
  const compiled = compileLabelSelector(selector, path);
  if (!compiled.ok) {
    for (const error of compiled.errors) {
      problems.push({
        object: ref,
        field: path,
        severity: "error",
        message: `${describeRef(ref)}: ${error}`,
        fix: `correct ${path}; ${ignored}`,
      });
    }
    return { ok: false };
  }
  // ACK: an empty label selector constrains nothing.
  return { ok: true, value: compiled.selector.empty ? null : compiled.selector };
}

function parametersOf(spec: IAMRoleSelector["spec"]): HopParameters {
  const p: {
    -readonly [K in keyof HopParameters]: HopParameters[K];
  } = {};
  if (spec.sessionName !== undefined) p.sessionName = spec.sessionName;
  if (spec.durationSeconds !== undefined) p.durationSeconds = spec.durationSeconds;
  if (spec.externalID !== undefined) p.externalID = spec.externalID;
  if (spec.sessionTags !== undefined)
    p.sessionTags = spec.sessionTags.map((t) => ({ key: t.key, value: t.value }));
  if (spec.transitiveTagKeys !== undefined) p.transitiveTagKeys = [...spec.transitiveTagKeys];
  if (spec.tenantSessionTags !== undefined) p.tenantSessionTags = spec.tenantSessionTags;
  return p;
}

function compileSelector(raw: unknown, problems: SnapshotProblem[]): SelectorConfig | null {
  const ref = objectRefOf(raw, "IAMRoleSelector");
  const parsed = iamRoleSelectorSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(...issueProblems(ref, parsed.error, ignored));
    return null;
  }
  const spec = parsed.data.spec;
  const nsLabels = compileOptional(
    spec.namespaceSelector?.labelSelector,
    "spec.namespaceSelector.labelSelector",
    ref,
    problems,
  );
  const resLabels = compileOptional(spec.resourceLabelSelector, "spec.resourceLabelSelector", ref, problems);
  if (!nsLabels.ok || !resLabels.ok) return null;
  const names = spec.namespaceSelector?.names;
  const types = spec.resourceTypeSelector;
  return {
    name: parsed.data.metadata.name,
    resourceVersion: parsed.data.metadata.resourceVersion ?? "",
    arn: spec.arn,
    namespaceNames: names === undefined || names.length === 0 ? null : [...new Set(names)].sort(),
    namespaceLabels: nsLabels.value,
    resourceTypes: types === undefined || types.length === 0 ? null : types.map(groupVersionKindOf),
    resourceLabels: resLabels.value,
    parameters: parametersOf(spec),
    explicitSessionName: spec.sessionName !== undefined,
  };
}

// ---- index ----

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

export function groupKindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/** Files a selector under every type key one of its entries needs (null = any). */
function addByType(buckets: MutableBuckets, selector: SelectorConfig): void {
  const types: readonly ResourceTypeMatch[] = selector.resourceTypes ?? [
    { group: null, version: null, kind: null },
  ];
  for (const t of types) {
    if (t.group !== null && t.kind !== null)
      pushUnique(buckets.byGroupKind, groupKindKey(t.group, t.kind), selector);
    else if (t.group !== null) pushUnique(buckets.byGroup, t.group, selector);
    else if (t.kind !== null) pushUnique(buckets.byKind, t.kind, selector);
    else if (buckets.any[buckets.any.length - 1] !== selector) buckets.any.push(selector);
  }
}

/**
 * The equality requirement to index a label selector by: an `In` (or matchLabels) requirement
 * with the fewest values, ties broken by key. Null when it has none (only NotIn/Exists/...).
 */
function indexRequirement(selector: CompiledSelector | null): Requirement | null {
  if (selector === null) return null;
  let best: Requirement | null = null;
  for (const r of selector.requirements) {
    if (r.operator !== "In") continue;
    if (best === null || r.values.size < best.values.size) best = r;
  }
  return best;
}

function bucketsFor(map: Map<string, MutableBuckets>, key: string): MutableBuckets {
  let b = map.get(key);
  if (b === undefined) {
    b = newBuckets();
    map.set(key, b);
  }
  return b;
}

function buildIndex(
  selectors: readonly SelectorConfig[],
  invalid: ReadonlyMap<string, string>,
): SelectorIndex {
  const byNamespaceName = new Map<string, MutableBuckets>();
  const byNamespaceLabel = new Map<string, Map<string, MutableBuckets>>();
  const anyNamespace = newBuckets();
  for (const selector of selectors) {
    if (selector.namespaceNames !== null) {
      for (const name of selector.namespaceNames) addByType(bucketsFor(byNamespaceName, name), selector);
      continue;
    }
    const requirement = indexRequirement(selector.namespaceLabels);
    if (requirement === null) {
      addByType(anyNamespace, selector);
      continue;
    }
    let byValue = byNamespaceLabel.get(requirement.key);
    if (byValue === undefined) {
      byValue = new Map();
      byNamespaceLabel.set(requirement.key, byValue);
    }
    for (const value of requirement.values) addByType(bucketsFor(byValue, value), selector);
  }
  const byName = new Map(selectors.map((s) => [s.name, s]));
  return {
    all: selectors,
    byName,
    byNamespaceName: byNamespaceName as ReadonlyMap<string, TypeBuckets>,
    byNamespaceLabel: byNamespaceLabel as ReadonlyMap<string, ReadonlyMap<string, TypeBuckets>>,
    anyNamespace,
    invalid,
  };
}

export function buildSelectorIndex(objects: readonly unknown[], problems: SnapshotProblem[]): SelectorIndex {
  const nameOf = (raw: unknown) => objectRefOf(raw, "IAMRoleSelector").name;
  const { unique, conflicting } = deduplicate(objects, nameOf, (raw) => objectRefOf(raw, "IAMRoleSelector"));
  const invalid = new Map<string, string>();
  for (const ref of conflicting) {
    problems.push(duplicateProblem(ref, "all copies are ignored"));
    invalid.set(ref.name, "it is listed more than once with different content");
  }
  const selectors: SelectorConfig[] = [];
  for (const raw of unique) {
    const before = problems.length;
    const selector = compileSelector(raw, problems);
    if (selector !== null) selectors.push(selector);
    else {
      const first = problems[before];
      invalid.set(nameOf(raw), first === undefined ? "it is invalid" : `it is invalid (${first.message})`);
    }
  }
  // `unique` is sorted by name already, so `selectors` is too.
  return buildIndex(selectors, invalid);
}
