// The one place where the CLI calls the resolver, so that its entry points can change
// without touching the commands.

import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Decision, ResourceObject, Settings, SnapshotProblem } from "../resolver/types.ts";
import type { ConfigurationObjects } from "./inputs.ts";

export interface Resolution {
  readonly decision: Decision;
  /** Everything wrong with the configuration objects, as buildSnapshot reported it. */
  readonly problems: readonly SnapshotProblem[];
}

export function resolveResource(
  objects: ConfigurationObjects,
  resource: ResourceObject,
  settings: Settings,
): Resolution {
  const snapshot = buildSnapshot(objects, settings);
  const namespace = resource.metadata.namespace ?? "";
  return { decision: resolve(resource, namespace, snapshot, settings), problems: snapshot.problems };
}
