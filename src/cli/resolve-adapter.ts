// The one place where the CLI calls the resolver, so that its entry points can change
// without touching the commands.

import { configurationProblems } from "../resolver/configuration-problems.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, ResourceObject, Settings, SnapshotProblem } from "../resolver/types.ts";
import { servedServices } from "../services/served.ts";
import type { ConfigurationObjects } from "./inputs.ts";

export interface Resolution {
  readonly decision: Decision;
  /** Everything wrong with the configuration objects, CARM keys these settings leave unused included. */
  readonly problems: readonly SnapshotProblem[];
  /** What it was resolved against. */
  readonly snapshot: Snapshot;
}

export function resolveResource(
  objects: ConfigurationObjects,
  resource: ResourceObject,
  settings: Settings,
): Resolution {
  const snapshot = buildSnapshot(objects, settings);
  const namespace = resource.metadata.namespace ?? "";
  return {
    decision: resolve(resource, namespace, snapshot, settings),
    problems: configurationProblems(snapshot, settings, servedServices),
    snapshot,
  };
}
