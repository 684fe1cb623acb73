// CARM keys the controller will never read with its settings, and why. A key that parses but
// is never looked up does nothing silently: the resource it was meant for goes to another key
// or waits. The snapshot's own problems say what is wrong with a key whatever the flags (a
// malformed account or ARN); these depend on the flags, so they are computed from snapshot +
// settings here and never kept in the snapshot, which the flags do not shape. A key is unused
// when:
//  - CARM is off (--enable-carm=false, IAMRoleSelector mode): one problem per map, not per key
//    (the map as a whole is what to remove or switch on);
//  - TeamLevelCARM is off: ack-role-team-map as a whole, and each team-id key of ack-carm-map
//    (its account keys are still read);
//  - it names a service no served kind has (`sqss.`, `dynamo.`): lookups compose
//    `<service>.<id>` from the resource's kind only;
//  - it is a service-level key and ServiceLevelCARM is off (lookups then read `<id>` only).
// A team ID may itself contain a dot, so in a team key `<a>.<team>` reads as a service prefix
// only while no namespace carries the whole key as its team-id: a namespace that does uses it.

import { namespaceAnnotations } from "../api/annotations.ts";
import {
  accountKeyPrefix,
  type CarmEntry,
  type CarmSubject,
  carmMapName,
  teamKeyPrefix,
  teamMapName,
} from "../api/carm.ts";
import { closestText } from "../toolkit/closest-text.ts";
import { compareText } from "../toolkit/compare-text.ts";
import { carmLookupKey } from "./snapshot-carm.ts";
import { describeRef, problemValue } from "./snapshot-objects.ts";
import type { CarmMapState, Snapshot } from "./snapshot-types.ts";
import type { ObjectRef, Settings, SnapshotProblem } from "./types.ts";

/** Event reasons: an unused key, and a map none of whose keys is used. */
export const unusedKeyReason = "UnusedCarmKey";
export const unusedMapReason = "UnusedCarmMap";

export type CarmSettings = Pick<Settings, "featureGates" | "enableCARM">;

interface Why {
  readonly message: string;
  readonly fix: string;
}

/** A key read as `<service>.<rest>`. */
interface ServiceKey {
  readonly service: string;
  readonly rest: string;
}

interface Context {
  readonly settings: CarmSettings;
  /** The services of the served kinds, sorted. */
  readonly services: readonly string[];
  /** Every team ID a namespace carries (valid annotations only). */
  readonly teams: ReadonlySet<string>;
}

/**
 * One problem per CARM key (or whole map) the controller will not read with `settings`.
 * `services` are the served kinds' services, the only prefixes a lookup ever composes.
 */
export function unusedCarmKeys(
  snapshot: Snapshot,
  settings: CarmSettings,
  services: readonly string[],
): SnapshotProblem[] {
  const maps = [snapshot.carm.accountMap, snapshot.carm.teamMap, snapshot.carm.carmMap];
  const carmOff = carmOffWhy(settings);
  if (carmOff !== null) return maps.flatMap((map) => wholeMap(snapshot, map, carmOff));
  const teams = new Set<string>();
  for (const ns of snapshot.namespaces.values()) if (ns.teamId?.ok) teams.add(ns.teamId.value);
  const ctx: Context = { settings, services: [...new Set(services)].sort(compareText), teams };
  const problems: SnapshotProblem[] = [];
  for (const map of maps) {
    if (map.name === teamMapName && !settings.featureGates.TeamLevelCARM) {
      problems.push(...wholeMap(snapshot, map, teamGateOffWhy("none of its keys is used")));
      continue;
    }
    for (const entry of entriesOf(map)) {
      const why = keyWhy(ctx, map, entry);
      if (why === null) continue;
      problems.push({
        ...problemAbout(snapshot, map, `data[${entry.key}]`, why, unusedKeyReason),
        value: problemValue(entry.value),
      });
    }
  }
  return problems;
}

function carmOffWhy(settings: CarmSettings): Why | null {
  if (settings.featureGates.IAMRoleSelector) {
    return {
      message: "none of its keys is used: the controller runs in IAMRoleSelector mode, which replaces CARM",
      fix: "remove the ConfigMap once IAMRoleSelectors grant what it granted (crossrole migrate writes them), or run in CARM mode: --feature-gates=IAMRoleSelector=false --enable-carm=true",
    };
  }
  if (!settings.enableCARM) {
    return {
      message: "none of its keys is used: CARM is off (--enable-carm=false)",
      fix: "start the controller with --enable-carm=true, or remove the ConfigMap",
    };
  }
  return null;
}

function teamGateOffWhy(what: string): Why {
  return {
    message: `${what}: feature gate TeamLevelCARM is off, so team keys are never read (namespaces' ${namespaceAnnotations.teamId} is ignored)`,
    fix: "turn on --feature-gates=TeamLevelCARM=true, or map the namespaces' accounts in ack-role-account-map instead and remove the team keys",
  };
}

/** Why one key is not read, or null when some lookup may read it. */
function keyWhy(ctx: Context, map: CarmMapState, entry: CarmEntry): Why | null {
  if (entry.subject === "team" && !ctx.settings.featureGates.TeamLevelCARM) {
    return teamGateOffWhy(`key "${entry.key}" is not used`);
  }
  const split = serviceKeyOf(ctx, entry);
  if (split === null) return null;
  if (!ctx.services.includes(split.service)) return unknownServiceWhy(ctx, map, entry, split);
  if (!ctx.settings.featureGates.ServiceLevelCARM) return serviceGateOffWhy(map, entry, split);
  return null;
}

function serviceKeyOf(ctx: Context, entry: CarmEntry): ServiceKey | null {
  if (entry.subject === "account") {
    return entry.service === null
      ? null
      : { service: entry.service, rest: entry.id.slice(entry.service.length + 1) };
  }
  const dot = entry.id.indexOf(".");
  if (dot < 0 || ctx.teams.has(entry.id)) return null;
  return { service: entry.id.slice(0, dot), rest: entry.id.slice(dot + 1) };
}

function unknownServiceWhy(ctx: Context, map: CarmMapState, entry: CarmEntry, key: ServiceKey): Why {
  const gateOff = !ctx.settings.featureGates.ServiceLevelCARM;
  const suggestion = closestText(key.service, ctx.services);
  const renamed =
    suggestion === null
      ? `rename the key to <service>.${key.rest} with a known service`
      : `rename the key to ${withId(entry, `${suggestion}.${key.rest}`)}`;
  const fix = [
    `${renamed}${gateOff ? " and turn on --feature-gates=ServiceLevelCARM=true" : ""}`,
    everyServiceFix(map, entry, key),
    ...(entry.subject === "team"
      ? [
          `or, if ${entry.id} is a team ID, annotate its namespaces ${namespaceAnnotations.teamId}=${entry.id}`,
        ]
      : []),
  ];
  return {
    message:
      `key "${entry.key}" is not used: unknown service ${key.service}: known services are ${ctx.services.join(", ")}` +
      noTeamNote(entry) +
      (gateOff ? "; feature gate ServiceLevelCARM is off as well" : ""),
    fix: fix.join(", "),
  };
}

function serviceGateOffWhy(map: CarmMapState, entry: CarmEntry, key: ServiceKey): Why {
  const owner = entry.subject === "account" ? `in account ${key.rest}` : `of team ${key.rest}`;
  return {
    message:
      `key "${entry.key}" is not used: feature gate ServiceLevelCARM is off, so service-level keys are never read ` +
      `(${key.service} resources ${owner} use key ${withId(entry, key.rest)})${noTeamNote(entry)}`,
    fix: `turn on --feature-gates=ServiceLevelCARM=true, ${everyServiceFix(map, entry, key)}`,
  };
}

/** The other way out: the plain key, which every service reads. */
function everyServiceFix(map: CarmMapState, entry: CarmEntry, key: ServiceKey): string {
  const plain = withId(entry, key.rest);
  return map.entries.has(carmLookupKey(entry.subject, key.rest, entry.field))
    ? `or remove the key (key ${plain} already maps every service)`
    : `or rename the key to ${plain} to map every service`;
}

/** Why a dotted team key was read as `<service>.<team>` at all. */
function noTeamNote(entry: CarmEntry): string {
  return entry.subject === "team" ? `, and no namespace has ${namespaceAnnotations.teamId}=${entry.id}` : "";
}

/** The entry's key with its id replaced, in the form (legacy, dot or slash) it was written. */
function withId(entry: CarmEntry, id: string): string {
  const at = entry.map !== carmMapName ? 0 : prefixLength[entry.subject];
  return `${entry.key.slice(0, at)}${id}${entry.key.slice(at + entry.id.length)}`;
}

// The dot and slash forms of each prefix have the same length.
const prefixLength: Readonly<Record<CarmSubject, number>> = {
  account: accountKeyPrefix.length,
  team: teamKeyPrefix.length,
};

function entriesOf(map: CarmMapState): CarmEntry[] {
  return [...map.entries.values()].flat().sort((a, b) => compareText(a.key, b.key));
}

function wholeMap(snapshot: Snapshot, map: CarmMapState, why: Why): SnapshotProblem[] {
  if (map.entries.size === 0) return [];
  return [problemAbout(snapshot, map, "data", why, unusedMapReason)];
}

function problemAbout(
  snapshot: Snapshot,
  map: CarmMapState,
  field: string,
  why: Why,
  reason: string,
): SnapshotProblem {
  const object: ObjectRef = { kind: "ConfigMap", name: map.name, namespace: snapshot.systemNamespace };
  return {
    object,
    field,
    severity: "warning",
    message: `${describeRef(object)}: ${why.message}`,
    fix: why.fix,
    reason,
  };
}
