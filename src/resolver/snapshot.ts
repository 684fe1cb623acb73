// buildSnapshot: every administrator object, validated, compiled and indexed once.
// Pure and total: whatever the input holds, it returns a snapshot whose `problems` say what was
// excluded or suspicious, each naming the object, the field and the fix.

import { buildCarm } from "./snapshot-carm.ts";
import { buildIdentityIndex } from "./snapshot-identities.ts";
import { buildNamespaces } from "./snapshot-namespaces.ts";
import { compareProblems } from "./snapshot-objects.ts";
import { buildSelectorIndex } from "./snapshot-selectors.ts";
import type { Snapshot } from "./snapshot-types.ts";
import type { ConfigObjects, Settings, SnapshotProblem } from "./types.ts";

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function buildSnapshot(objects: ConfigObjects, settings: Pick<Settings, "systemNamespace">): Snapshot {
  const problems: SnapshotProblem[] = [];
  const { namespaces, invalid: invalidNamespaces } = buildNamespaces(listOf(objects.namespaces), problems);
  const carm = buildCarm(listOf(objects.configMaps), settings.systemNamespace, problems);
  const selectors = buildSelectorIndex(listOf(objects.iamRoleSelectors), problems);
  const identities = buildIdentityIndex(listOf(objects.identities), problems);
  problems.sort(compareProblems);
  return {
    systemNamespace: settings.systemNamespace,
    namespaces,
    invalidNamespaces,
    selectors,
    identities,
    carm,
    problems,
  };
}
