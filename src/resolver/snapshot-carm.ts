// The CARM ConfigMaps as the resolver sees them. Only maps in the system namespace count
// (DESIGN §3.4: whoever can write a ConfigMap of that name elsewhere must not choose roles).

import {
  accountMapName,
  type CarmEntry,
  type CarmField,
  type CarmMapName,
  type CarmSubject,
  carmMapName,
  isCarmMapName,
  parseCarmMap,
  teamMapName,
} from "../api/carm.ts";
import {
  deduplicateReporting,
  describeRef,
  isRecord,
  objectRefOf,
  problemValue,
} from "./snapshot-objects.ts";
import type { CarmMapState, CarmSnapshot } from "./snapshot-types.ts";
import type { SnapshotProblem } from "./types.ts";

/** The key entries are indexed under. */
export function carmLookupKey(subject: CarmSubject, id: string, field: CarmField): string {
  return `${subject}\u0000${id}\u0000${field}`;
}

function absent(name: CarmMapName): CarmMapState {
  return { name, present: false, unusable: null, entries: new Map() };
}

function indexEntries(entries: readonly CarmEntry[]): Map<string, CarmEntry[]> {
  const index = new Map<string, CarmEntry[]>();
  for (const entry of entries) {
    const key = carmLookupKey(entry.subject, entry.id, entry.field);
    const list = index.get(key);
    if (list === undefined) index.set(key, [entry]);
    else list.push(entry);
  }
  return index;
}

export function buildCarm(
  configMaps: readonly unknown[],
  systemNamespace: string,
  problems: SnapshotProblem[],
): CarmSnapshot {
  const candidates: unknown[] = [];
  for (const raw of configMaps) {
    const ref = objectRefOf(raw, "ConfigMap");
    if (!isCarmMapName(ref.name)) continue;
    if (ref.namespace !== systemNamespace) {
      problems.push({
        object: ref,
        field: "metadata.namespace",
        severity: "warning",
        message: `${describeRef(ref)} is ignored: CARM ConfigMaps are read only from the system namespace ${systemNamespace}`,
        fix: `create it in namespace ${systemNamespace} (or start the controller with --system-namespace ${ref.namespace ?? "<namespace>"})`,
      });
      continue;
    }
    candidates.push(raw);
  }
  const { unique, conflicting } = deduplicateReporting(
    candidates,
    (raw) => objectRefOf(raw, "ConfigMap").name,
    (raw) => objectRefOf(raw, "ConfigMap"),
    "no lookup trusts it until only one remains",
    problems,
  );
  const states = new Map<CarmMapName, CarmMapState>();
  for (const ref of conflicting) {
    states.set(ref.name as CarmMapName, {
      name: ref.name as CarmMapName,
      present: true,
      unusable: `ConfigMap ${systemNamespace}/${ref.name} is listed more than once with different data`,
      entries: new Map(),
    });
  }
  for (const raw of unique) {
    const ref = objectRefOf(raw, "ConfigMap");
    const name = ref.name as CarmMapName;
    const data = isRecord(raw) ? raw["data"] : undefined;
    const parsed = parseCarmMap(name, data);
    for (const p of parsed.problems) {
      // The value is quoted for a bad key too: it tells the administrator which entry is meant.
      const value = p.key === "" ? data : isRecord(data) ? data[p.key] : undefined;
      problems.push({
        object: ref,
        field: p.key === "" ? "data" : `data[${p.key}]`,
        severity: p.severity,
        message: `${describeRef(ref)}: ${p.message}`,
        fix: p.fix,
        ...(value === undefined ? {} : { value: problemValue(value) }),
      });
    }
    states.set(name, { name, present: true, unusable: null, entries: indexEntries(parsed.entries) });
  }
  return {
    accountMap: states.get(accountMapName) ?? absent(accountMapName),
    teamMap: states.get(teamMapName) ?? absent(teamMapName),
    carmMap: states.get(carmMapName) ?? absent(carmMapName),
  };
}
