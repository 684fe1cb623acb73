// One CARM lookup across the legacy map and ack-carm-map (DESIGN §3.1 step 3).
// Fail closed throughout: the maps disagreeing is a conflict, a missing map, key or empty value
// is a wait naming what to create, and nothing here ever falls back to the controller account.

import {
  accountKeyDotPrefix,
  accountMapName,
  type CarmEntry,
  type CarmField,
  type CarmSubject,
  carmMapName,
  teamKeyDotPrefix,
  teamMapName,
} from "../api/carm.ts";
import { carmLookupKey } from "./snapshot-carm.ts";
import type { CarmMapState, Snapshot } from "./snapshot-types.ts";

export type Lookup =
  | { readonly kind: "found"; readonly entry: CarmEntry; readonly where: string }
  | { readonly kind: "missing"; readonly message: string }
  | { readonly kind: "empty"; readonly message: string }
  | { readonly kind: "invalid"; readonly message: string }
  | { readonly kind: "conflict"; readonly contenders: readonly string[] };

/** `ConfigMap ack-system/ack-carm-map key owner-account-id/111111111111`. */
export function describeEntry(systemNamespace: string, entry: Pick<CarmEntry, "map" | "key">): string {
  return `ConfigMap ${systemNamespace}/${entry.map} key ${entry.key}`;
}

/** The key an administrator would write for (subject, id, field) in each map. */
function keyIn(map: CarmMapState, subject: CarmSubject, id: string, field: CarmField): string {
  if (map.name === carmMapName) {
    // Suggest the form a cluster can store (ConfigMap keys cannot contain '/').
    const prefix = subject === "account" ? accountKeyDotPrefix : teamKeyDotPrefix;
    return field === "role-arn" ? `${prefix}${id}` : `${prefix}${id}.${field}`;
  }
  return id;
}

function legacyMap(snapshot: Snapshot, subject: CarmSubject): CarmMapState {
  return subject === "account" ? snapshot.carm.accountMap : snapshot.carm.teamMap;
}

/**
 * Looks up `id`'s role in the legacy map of its subject and in ack-carm-map. Both are read
 * whenever they exist; when they hold different values for the key it is a conflict.
 */
export function lookupRole(snapshot: Snapshot, subject: CarmSubject, id: string): Lookup {
  return lookup(snapshot, [legacyMap(snapshot, subject), snapshot.carm.carmMap], subject, id, "role-arn");
}

/** Looks up a team sub-key (`endpoint`, `external-id`), which only ack-carm-map can hold. */
export function lookupTeamSetting(
  snapshot: Snapshot,
  team: string,
  field: "endpoint" | "external-id",
): Lookup {
  return lookup(snapshot, [snapshot.carm.carmMap], "team", team, field);
}

function lookup(
  snapshot: Snapshot,
  maps: readonly CarmMapState[],
  subject: CarmSubject,
  id: string,
  field: CarmField,
): Lookup {
  const ns = snapshot.systemNamespace;
  const present = maps.filter((m) => m.present);
  for (const map of present) {
    if (map.unusable !== null) return { kind: "invalid", message: `${map.unusable}; keep exactly one` };
  }
  const wanted = maps.map((m) => `${m.name} key ${keyIn(m, subject, id, field)}`).join(" or ");
  if (present.length === 0) {
    return {
      kind: "missing",
      message: `no CARM ConfigMap ${maps.map((m) => m.name).join(" or ")} exists in namespace ${ns}; create ${wanted}`,
    };
  }
  const key = carmLookupKey(subject, id, field);
  const entries: CarmEntry[] = [];
  for (const map of present) entries.push(...(map.entries.get(key) ?? []));
  if (entries.length === 0) {
    const absent = maps.filter((m) => !m.present).map((m) => m.name);
    return {
      kind: "missing",
      message: `${present.map((m) => `ConfigMap ${ns}/${m.name} has no key ${keyIn(m, subject, id, field)}`).join(" and ")}${absent.length > 0 ? ` (${absent.join(", ")} does not exist)` : ""}; add ${wanted}`,
    };
  }
  const values = new Set(entries.map((e) => e.value.trim()));
  if (values.size > 1) {
    return {
      kind: "conflict",
      contenders: entries.map((e) => `${describeEntry(ns, e)} = "${e.value}"`).sort(),
    };
  }
  const entry = entries[0]!;
  if (entry.error !== null) {
    const where = describeEntry(ns, entry);
    return entry.value.trim() === ""
      ? {
          kind: "empty",
          message: `${where} is empty; set it to a ${field === "role-arn" ? "role ARN" : field}`,
        }
      : { kind: "invalid", message: `${where}: ${entry.error}; fix the value` };
  }
  return { kind: "found", entry, where: describeEntry(ns, entry) };
}

export const carmMapNamesFor = {
  account: `${accountMapName} / ${carmMapName}`,
  team: `${teamMapName} / ${carmMapName}`,
} as const;
