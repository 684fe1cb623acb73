// CARM grants in use → IAMRoleSelectors, built so that exactly one generated selector matches
// each namespace × kind a CARM entry decides today (IAMRoleSelector mode turns two matching
// selectors into a conflict, DESIGN §3.1 step 2):
//  - one selector per map entry in use, `namespaceSelector.names` = exactly the namespaces whose
//    annotations chose it (names, not labels: CARM reads annotations, which selectors cannot);
//  - a service-level entry (`s3.team-a`) matches its service's API group only, and the plain
//    entry of the same team then lists the other services' groups instead of matching all types.
// Services are matched by API group with any version and kind (ACK's `{group, version: "",
// kind: ""}` form), because a service-level CARM key applies to every kind of the service.

import {
  type IAMRoleSelector,
  iamRoleSelectorApiVersion,
  iamRoleSelectorSchema,
  type NamespaceSelector,
  type ResourceTypeSelectorEntry,
} from "../api/iam-role-selector.ts";
import { apiVersionOf, type ResourceKind } from "../api/kinds.ts";
import { describeIssues } from "../api/rules.ts";
import { labelValueErrors } from "../selector/label-syntax.ts";
import { compareText } from "../toolkit/compare-text.ts";
import type { Cell } from "./classify.ts";
import { numbered, selectorName } from "./naming.ts";
import type { CarmGrant, GeneratedSelector, SelectBy } from "./types.ts";

/** Label on every generated selector: `kubectl delete iamroleselectors -l` undoes the migration. */
export const migratedLabel = "crossrole.dev/migrated-from";
/** Annotation naming the CARM map entry a selector replaces. */
export const carmEntryAnnotation = "crossrole.dev/carm-entry";

/** The namespace label a `labels` selector matches, per CARM subject: the annotation's twin. */
export const namespaceLabelKeys = {
  account: "crossrole.dev/owner-account-id",
  team: "crossrole.dev/team-id",
} as const;

/** The IAMRoleSelector schema's limit on `namespaceSelector.names`. */
const maxNamesPerSelector = 1000;

interface Group {
  readonly grant: CarmGrant;
  /** Namespace → the kinds of it this grant decides. */
  readonly kindsByNamespace: Map<string, Set<string>>;
}

function groupCells(cells: readonly Cell[]): Group[] {
  const groups = new Map<string, Group>();
  for (const cell of cells) {
    const key = `${cell.grant.subject}\u0000${cell.grant.id}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { grant: cell.grant, kindsByNamespace: new Map() };
      groups.set(key, group);
    }
    let kinds = group.kindsByNamespace.get(cell.namespace);
    if (kinds === undefined) {
      kinds = new Set();
      group.kindsByNamespace.set(cell.namespace, kinds);
    }
    kinds.add(cell.kind.kind);
  }
  return [...groups.values()];
}

/** The type entries matching exactly `wanted` among the served kinds; null = every type. */
function typeSelectorFor(
  wanted: ReadonlySet<string>,
  kinds: readonly ResourceKind[],
): ResourceTypeSelectorEntry[] | null {
  if (kinds.every((k) => wanted.has(k.kind))) return null;
  const entries: ResourceTypeSelectorEntry[] = [];
  const groups = [...new Set(kinds.map((k) => k.group))].sort();
  for (const group of groups) {
    const inGroup = kinds.filter((k) => k.group === group);
    const chosen = inGroup.filter((k) => wanted.has(k.kind));
    if (chosen.length === 0) continue;
    if (chosen.length === inGroup.length) entries.push({ group, version: "", kind: "" });
    else for (const k of chosen) entries.push({ apiVersion: apiVersionOf(k), kind: k.kind });
  }
  return entries;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function selectorObject(
  name: string,
  grant: CarmGrant,
  namespaces: NamespaceSelector,
  types: ResourceTypeSelectorEntry[] | null,
): IAMRoleSelector {
  const selector: IAMRoleSelector = {
    apiVersion: iamRoleSelectorApiVersion,
    kind: "IAMRoleSelector",
    metadata: {
      name,
      labels: { [migratedLabel]: "carm" },
      annotations: { [carmEntryAnnotation]: grant.origin },
    },
    spec: {
      arn: grant.roleARN,
      namespaceSelector: namespaces,
      ...(types === null ? {} : { resourceTypeSelector: types }),
      ...(grant.externalID === null ? {} : { externalID: grant.externalID }),
    },
  };
  const parsed = iamRoleSelectorSchema.safeParse(selector);
  if (!parsed.success) {
    // The inputs were validated by the resolver, so this is a bug here, not the user's mistake.
    throw new Error(
      `generated IAMRoleSelector ${name} is invalid: ${describeIssues(parsed.error).join("; ")}`,
    );
  }
  return selector;
}

/** The label a grant's `labels` selector matches: the CARM id, when it is a valid label value. */
function labelFor(grant: CarmGrant): { key: string; value: string } | null {
  const value = grant.service === null ? grant.id : grant.id.slice(grant.service.length + 1);
  return labelValueErrors(value).length === 0 ? { key: namespaceLabelKeys[grant.subject], value } : null;
}

/**
 * The selectors replacing the CARM grants `cells` use, sorted by name. With `labels`, a grant
 * whose namespaces all use it for the same kinds gets one selector by label; otherwise (kinds
 * differ between its namespaces, or its id is no label value) it keeps listing names, which is
 * exact whatever the labels.
 */
export function buildSelectors(
  cells: readonly Cell[],
  kinds: readonly ResourceKind[],
  selectBy: SelectBy = "names",
): GeneratedSelector[] {
  const out: GeneratedSelector[] = [];
  for (const { grant, kindsByNamespace } of groupCells(cells)) {
    // Namespaces of one grant normally share one kind set; split by set in case they do not.
    const bySet = new Map<string, { kinds: Set<string>; namespaces: string[] }>();
    for (const namespace of [...kindsByNamespace.keys()].sort()) {
      const set = kindsByNamespace.get(namespace)!;
      const signature = kinds
        .filter((k) => set.has(k.kind))
        .map((k) => k.kind)
        .join(",");
      const entry = bySet.get(signature) ?? { kinds: set, namespaces: [] };
      entry.namespaces.push(namespace);
      bySet.set(signature, entry);
    }
    const base = selectorName(grant);
    const label = selectBy === "labels" && bySet.size === 1 ? labelFor(grant) : null;
    let index = 0;
    for (const { kinds: wanted, namespaces } of bySet.values()) {
      const types = typeSelectorFor(wanted, kinds);
      const matched = kinds.filter((k) => wanted.has(k.kind)).map((k) => k.kind);
      if (label !== null) {
        const byLabel = { labelSelector: { matchLabels: { [label.key]: label.value } } };
        out.push({
          selector: selectorObject(base, grant, byLabel, types),
          grant,
          kinds: matched,
          namespaces,
          label,
        });
        continue;
      }
      for (const part of chunks(namespaces, maxNamesPerSelector)) {
        out.push({
          selector: selectorObject(numbered(base, index++), grant, { names: part }, types),
          grant,
          kinds: matched,
          namespaces: part,
        });
      }
    }
  }
  return out.sort((a, b) => compareText(a.selector.metadata.name, b.selector.metadata.name));
}
