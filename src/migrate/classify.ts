// Which CARM map entry each namespace × served kind uses today. Asked of the resolver itself
// (a plain stand-in resource per cell, CARM mode), so the migration follows exactly the rules
// the controller applies — gates, service-level keys, both maps, fail-closed lookups — instead
// of a second reading of them.
//
// Region and endpoint do not choose a role, but a missing or malformed one turns a decision
// into `wait` before its role is known. So the cells are decided on a copy of the namespaces
// without those two annotations and with a placeholder region: a namespace that lacks a region
// still gets its selector (and its resources wait in both modes, which the proof shows).

import { namespaceAnnotations } from "../api/annotations.ts";
import type { CarmEntry } from "../api/carm.ts";
import { apiVersionOf, type ResourceKind } from "../api/kinds.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import { isRecord } from "../resolver/snapshot-objects.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ConfigObjects, Decision, Settings } from "../resolver/types.ts";
import type { CarmGrant } from "./types.ts";

export interface Cell {
  readonly namespace: string;
  readonly kind: ResourceKind;
  readonly grant: CarmGrant;
  /** The team's endpoint from ack-carm-map, which no selector can carry; null when none. */
  readonly teamEndpoint: string | null;
}

/** The name of the stand-in resource of a namespace × kind cell. */
const syntheticName = "*";

/** Any valid region: it only has to let the decision get past placement. */
const placeholderRegion = "us-east-1";

/** A Namespace object without the annotations that only place (region, endpoint). */
function withoutPlacement(raw: unknown): unknown {
  if (!isRecord(raw) || !isRecord(raw["metadata"])) return raw;
  const metadata = raw["metadata"];
  if (!isRecord(metadata["annotations"])) return raw;
  const annotations = { ...metadata["annotations"] };
  delete annotations[namespaceAnnotations.defaultRegion];
  delete annotations[namespaceAnnotations.endpointUrl];
  return { ...raw, metadata: { ...metadata, annotations } };
}

/** A plain resource of `kind` in `namespace`: no identityRef, no annotations, no labels. */
export function syntheticResource(kind: ResourceKind, namespace: string) {
  return { apiVersion: apiVersionOf(kind), kind: kind.kind, metadata: { name: syntheticName, namespace } };
}

/** CARM role entries by `<subject>\0<data key>`, to find the entry a decision's hop names. */
function indexRoleEntries(snapshot: Snapshot): Map<string, CarmEntry[]> {
  const index = new Map<string, CarmEntry[]>();
  const { accountMap, teamMap, carmMap } = snapshot.carm;
  for (const state of [accountMap, teamMap, carmMap]) {
    for (const entries of state.entries.values()) {
      for (const entry of entries) {
        if (entry.field !== "role-arn") continue;
        const key = `${entry.subject}\u0000${entry.key}`;
        const list = index.get(key);
        if (list === undefined) index.set(key, [entry]);
        else list.push(entry);
      }
    }
  }
  return index;
}

function grantOf(
  decision: Decision,
  snapshot: Snapshot,
  index: ReadonlyMap<string, readonly CarmEntry[]>,
  namespace: string,
  service: string,
): CarmGrant | null {
  const hop = decision.chain.at(-1);
  if (hop?.kind !== "CARM" || hop.roleARN === undefined) return null;
  const subject = decision.source === "teamCARM" ? "team" : "account";
  const ns = snapshot.namespaces.get(namespace);
  const annotation = subject === "team" ? ns?.teamId : ns?.ownerAccountId;
  if (annotation?.ok !== true) return null;
  const base = annotation.value;
  // The hop names the data key; the entry behind it says whether it was the service-level id.
  const candidates = index.get(`${subject}\u0000${hop.name}`) ?? [];
  const serviceId = `${service}.${base}`;
  const entry =
    candidates.find((e) => e.id === serviceId) ?? candidates.find((e) => e.id === base) ?? candidates[0];
  if (entry === undefined) return null;
  const isServiceLevel = entry.id === serviceId;
  return {
    subject,
    id: isServiceLevel ? serviceId : base,
    service: isServiceLevel ? service : null,
    origin: `ConfigMap ${snapshot.systemNamespace}/${entry.map} key ${entry.key}`,
    roleARN: hop.roleARN,
    externalID: hop.parameters.externalID ?? null,
  };
}

/**
 * Every cell a CARM map entry decides, sorted by namespace then kind order, decided on the CARM
 * snapshot of namespaces without placement annotations.
 */
export function classify(objects: ConfigObjects, settings: Settings, kinds: readonly ResourceKind[]): Cell[] {
  const namespaces = Array.isArray(objects.namespaces) ? objects.namespaces.map(withoutPlacement) : [];
  const snapshot = buildSnapshot({ ...objects, namespaces }, settings);
  const placed: Settings = { ...settings, defaultRegion: placeholderRegion };
  const index = indexRoleEntries(snapshot);
  const cells: Cell[] = [];
  for (const namespace of [...snapshot.namespaces.keys()].sort()) {
    for (const kind of kinds) {
      const decision = resolve(syntheticResource(kind, namespace), namespace, snapshot, placed);
      if (decision.outcome !== "use") continue;
      if (decision.source !== "accountCARM" && decision.source !== "teamCARM") continue;
      const grant = grantOf(decision, snapshot, index, namespace, kind.service);
      if (grant === null) continue;
      // Without the namespace's endpoint-url, an endpoint other than the flag's is the team's.
      const teamEndpoint =
        grant.subject === "team" && decision.endpoint !== settings.defaultEndpoint ? decision.endpoint : null;
      cells.push({ namespace, kind, grant, teamEndpoint });
    }
  }
  return cells;
}
