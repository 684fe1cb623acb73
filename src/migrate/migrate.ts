// migrate(): CARM configuration → IAMRoleSelectors, with the proof that switching modes moves
// nothing. Pure and deterministic: the same objects always give the same selectors (same names,
// same order) and the same proof.

import type { ResourceKind } from "../api/kinds.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import { objectRefOf } from "../resolver/snapshot-objects.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ConfigObjects, ResourceObject } from "../resolver/types.ts";
import { compareText } from "../toolkit/compare-text.ts";
import { classify, syntheticResource } from "./classify.ts";
import { notCarmMode, selectorModeSettings } from "./modes.ts";
import { labelsToAdd, withNamespaceLabels } from "./namespace-labels.ts";
import { collectNotes } from "./notes.ts";
import { decide, differences, type Mode } from "./proof.ts";
import { buildSelectors } from "./selectors.ts";
import type {
  DecidedSubject,
  MigrationChange,
  MigrationInput,
  MigrationResult,
  ModeDecision,
} from "./types.ts";
import { explainChange } from "./why.ts";

interface Subject {
  readonly resource: ResourceObject;
  readonly synthetic: boolean;
}

/** The existing resources, or one plain stand-in per namespace × kind when there are none. */
function subjectsOf(
  resources: readonly ResourceObject[],
  snapshot: Snapshot,
  kinds: readonly ResourceKind[],
): Subject[] {
  if (resources.length > 0) return resources.map((resource) => ({ resource, synthetic: false }));
  const out: Subject[] = [];
  for (const namespace of [...snapshot.namespaces.keys()].sort()) {
    for (const kind of kinds) out.push({ resource: syntheticResource(kind, namespace), synthetic: true });
  }
  return out;
}

function order(kinds: readonly ResourceKind[]) {
  const rank = (kind: string) => {
    const i = kinds.findIndex((k) => k.kind === kind);
    return i < 0 ? kinds.length : i;
  };
  type Named = Pick<DecidedSubject, "kind" | "namespace" | "name">;
  return (a: Named, b: Named): number =>
    compareText(a.namespace, b.namespace) ||
    rank(a.kind) - rank(b.kind) ||
    compareText(a.kind, b.kind) ||
    compareText(a.name, b.name);
}

export function migrate(input: MigrationInput): MigrationResult {
  const { objects, settings, resources, kinds } = input;
  const selectBy = input.selectBy ?? "names";
  const wrongMode = notCarmMode(settings);
  if (wrongMode !== null) throw new Error(wrongMode);

  const cells = classify(objects, settings, kinds);
  const generated = buildSelectors(cells, kinds, selectBy);
  const namespaceLabels = labelsToAdd(generated, objects.namespaces ?? []);
  const generatedNames = new Set(generated.map((g) => g.selector.metadata.name));
  const existing = Array.isArray(objects.iamRoleSelectors) ? objects.iamRoleSelectors : [];
  // `kubectl apply` of the output replaces a selector of the same name, so it counts only once.
  const kept = existing.filter((raw) => !generatedNames.has(objectRefOf(raw, "IAMRoleSelector").name));
  // After the switch: the generated selectors applied and, with `labels`, the labels put on.
  const labelled = withNamespaceLabels(objects.namespaces ?? [], namespaceLabels);
  const withSelectors = (selectors: readonly unknown[]): ConfigObjects => ({
    ...objects,
    namespaces: labelled,
    iamRoleSelectors: selectors,
  });

  const selectorSettings = selectorModeSettings(settings);
  const carmMode: Mode = { snapshot: buildSnapshot(objects, settings), settings };
  const selectorMode: Mode = {
    snapshot: buildSnapshot(withSelectors([...kept, ...generated.map((g) => g.selector)]), selectorSettings),
    settings: selectorSettings,
  };
  let generatedOnly: Mode | undefined;
  const onlyGenerated = (): Mode => {
    generatedOnly ??= {
      snapshot: buildSnapshot(withSelectors(generated.map((g) => g.selector)), selectorSettings),
      settings: selectorSettings,
    };
    return generatedOnly;
  };

  const decided: DecidedSubject[] = [];
  const changes: MigrationChange[] = [];
  for (const { resource, synthetic } of subjectsOf(resources, carmMode.snapshot, kinds)) {
    const carm = decide(resource, carmMode);
    const iamRoleSelector = decide(resource, selectorMode);
    const changed = differences(carm, iamRoleSelector);
    const namespace = resource.metadata.namespace ?? "";
    const subject = { kind: resource.kind, namespace, name: resource.metadata.name, synthetic };
    decided.push({ ...subject, carm, iamRoleSelector, changed });
    if (changed.length === 0) continue;
    let only: ModeDecision | undefined;
    const { why, fix } = explainChange({
      resource,
      synthetic,
      namespace: carmMode.snapshot.namespaces.get(namespace),
      carmSettings: settings,
      carm,
      selectorMode: iamRoleSelector,
      generatedOnly: () => {
        only ??= decide(resource, onlyGenerated());
        return only;
      },
      generatedNames,
    });
    changes.push({ ...subject, fields: changed, from: carm, to: iamRoleSelector, why, fix });
  }
  const sort = order(kinds);
  decided.sort(sort);
  changes.sort(sort);

  return {
    selectors: generated,
    proofOver: resources.length > 0 ? "resources" : "namespaceKinds",
    decided,
    changes,
    notes: collectNotes({
      cells,
      generated,
      existing,
      carmSnapshot: carmMode.snapshot,
      changes,
      selectBy,
    }),
    selectBy,
    namespaceLabels,
  };
}
