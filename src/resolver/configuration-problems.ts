// Everything wrong with the configuration as a controller with `settings` reads it: the
// snapshot's own problems (whatever the flags) and the CARM keys those flags leave unused.
// The one list the problem reporter, `explain` and `audit` show, so they never disagree.

import { type CarmSettings, unusedCarmKeys } from "./carm-unused.ts";
import { compareProblems } from "./snapshot-objects.ts";
import type { Snapshot } from "./snapshot-types.ts";
import type { SnapshotProblem } from "./types.ts";

/** `services`: the served kinds' services (see unusedCarmKeys). Sorted like snapshot.problems. */
export function configurationProblems(
  snapshot: Snapshot,
  settings: CarmSettings,
  services: readonly string[],
): readonly SnapshotProblem[] {
  const unused = unusedCarmKeys(snapshot, settings, services);
  return unused.length === 0 ? snapshot.problems : [...snapshot.problems, ...unused].sort(compareProblems);
}
