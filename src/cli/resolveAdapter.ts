// The one place where the CLI calls the resolver, so that its entry points can change
// without touching the commands.
import type { Decision, ResourceObject, Settings, SnapshotProblem } from "../resolver/types.ts";
import type { ConfigurationObjects } from "./inputs.ts";

export interface Resolution {
  readonly decision: Decision;
  /** Everything wrong with the configuration objects, as buildSnapshot reported it. */
  readonly problems: readonly SnapshotProblem[];
}

export function resolveResource(
  _objects: ConfigurationObjects,
  _resource: ResourceObject,
  _settings: Settings,
): Resolution {
  throw new Error("the resolver (src/resolver) has not landed yet");
}
