// Makes the configuration's problems loud (DESIGN §2.3: "reported as a Warning Event on that
// ConfigMap and one log line per change"; §2.4: invalid selectors "ignored with a warning Event"):
// the snapshot's, and the CARM keys this controller's flags leave unused (configurationProblems,
// the same list `crossrole explain` shows). Without it a malformed or unused CARM key or an
// invalid selector shows only in `crossrole explain`.
//
// It is a controller with a single key, for two reasons:
//  - it runs only on the leader: every replica builds the same snapshot, and Events from each
//    would multiply the noise by the replica count (and a standby's "resolved" could race the
//    leader's "new"); a new leader reports the problems it finds once, like a restart;
//  - it starts only once the configuration caches have synced, so a half-listed configuration
//    (an identity whose source is not listed yet) is never reported as a problem.
// Configuration changes are coalesced by the work queue; a reconcile that finds the same
// problems as last time emits nothing, whatever triggered it.
import type { Logger } from "pino";
import type { CarmSettings } from "../resolver/carm-unused.ts";
import { configurationProblems } from "../resolver/configuration-problems.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ObjectRef, SnapshotProblem } from "../resolver/types.ts";
import type { Controller } from "../runtime/controller.ts";
import type { EventRecorder } from "../runtime/events.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import type { Manager } from "../runtime/manager.ts";
import type { SyncGate } from "../runtime/sync-gate.ts";
import {
  diffProblems,
  problemLogFields,
  problemMessage,
  problemReason,
  resolvedMessage,
  resolvedReason,
} from "./config-problems.ts";

export interface ConfigProblemReporterOptions {
  readonly manager: Manager;
  readonly config: SyncGate & {
    snapshot(): Snapshot;
    onChange(listener: () => void): () => void;
    object(ref: ObjectRef): KubeObject | undefined;
  };
  readonly events: EventRecorder;
  readonly logger: Logger;
  /** The controller's flags: which CARM keys it reads (the others are problems too). */
  readonly settings: CarmSettings;
  /** The served kinds' services, the prefixes a service-level CARM key may carry. */
  readonly services: readonly string[];
}

const key = "configuration";

export function addConfigProblemReporter(o: ConfigProblemReporterOptions): Controller {
  const log = o.logger.child({ controller: "config-problems" });
  let reported: ReadonlyMap<string, SnapshotProblem> = new Map();

  const reconcile = async () => {
    const diff = diffProblems(reported, configurationProblems(o.config.snapshot(), o.settings, o.services));
    reported = diff.reported;
    for (const p of diff.added) {
      const message = problemMessage(p);
      log.warn({ event: "config.problem", ...problemLogFields(p) }, message);
      const obj = o.config.object(p.object);
      if (obj) void o.events.event(obj, "Warning", problemReason(p), message);
    }
    for (const p of diff.resolved) {
      log.info({ event: "config.problem.resolved", ...problemLogFields(p) }, resolvedMessage(p));
      // A deleted object needs no "resolved" Event; its Events go with it.
      const obj = o.config.object(p.object);
      if (obj) void o.events.event(obj, "Normal", resolvedReason, resolvedMessage(p));
    }
    return {};
  };

  const controller = o.manager.controller({
    name: "config-problems",
    reconcile,
    // Nothing to do without a change: the same problems are never reported twice.
    resyncPeriodMs: 0,
    waitFor: [o.config],
  });
  o.config.onChange(() => controller.enqueue(key));
  controller.enqueue(key);
  return controller;
}
