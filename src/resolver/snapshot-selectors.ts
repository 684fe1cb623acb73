// IAMRoleSelectors: validated with the API schema, compiled, then indexed (selector-index.ts)
// so that a decision only re-checks selectors that can possibly match.
// Invalid selectors are ignored with a problem, as DESIGN §2.4 says; ACK's matcher semantics
// apply (an empty names list, empty label selector or empty type list constrains nothing).

import { groupVersionKindOf, type IAMRoleSelector, iamRoleSelectorSchema } from "../api/iam-role-selector.ts";
import { type CompiledSelector, compileLabelSelector } from "../selector/label-selector.ts";
import { indexSelectors } from "./selector-index.ts";
import {
  deduplicateReporting,
  describeRef,
  invalidReason,
  issueProblems,
  listedTwiceReason,
  objectRefOf,
  problemValue,
} from "./snapshot-objects.ts";
import type { SelectorConfig, SelectorIndex } from "./snapshot-types.ts";
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
        value: problemValue(selector),
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
    problems.push(...issueProblems(ref, parsed.error, ignored, raw));
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

export function buildSelectorIndex(objects: readonly unknown[], problems: SnapshotProblem[]): SelectorIndex {
  const nameOf = (raw: unknown) => objectRefOf(raw, "IAMRoleSelector").name;
  const { unique, conflicting } = deduplicateReporting(
    objects,
    nameOf,
    (raw) => objectRefOf(raw, "IAMRoleSelector"),
    "all copies are ignored",
    problems,
  );
  const invalid = new Map<string, string>();
  for (const ref of conflicting) invalid.set(ref.name, listedTwiceReason);
  const selectors: SelectorConfig[] = [];
  for (const raw of unique) {
    const before = problems.length;
    const selector = compileSelector(raw, problems);
    if (selector !== null) selectors.push(selector);
    else invalid.set(nameOf(raw), invalidReason(problems, before));
  }
  // `unique` is sorted by name already, so `selectors` is too.
  return indexSelectors(selectors, invalid);
}
