// IAMRoleSelector status (DESIGN §2.4): `status.matchedResources` — how many managed resources
// each selector decides the role for — and `Ready`, False with the reason when the selector is
// invalid (and so ignored) or unused (CARM mode). An administrator sees at a glance which
// selectors do something; the Events about an invalid selector come from configProblemReporter.
// Leader-only like every controller; status is patched only when it changes.
import type { Logger } from "pino";
import type { IAMRoleSelectorStatus } from "../api/iam-role-selector.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Controller } from "../runtime/controller.ts";
import { isNotFound, patchTypes } from "../runtime/kube-client.ts";
import { type KubeObject, objectPath } from "../runtime/kube-object.ts";
import type { Manager } from "../runtime/manager.ts";
import type { ReconcileContext, ReconcileRequest, Result } from "../runtime/reconcile.ts";
import type { SyncGate } from "../runtime/sync-gate.ts";
import { iamRoleSelectorType } from "./config-types.ts";
import type { SelectorMatchTracker } from "./selector-match-tracker.ts";
import { planSelectorStatus } from "./selector-status.ts";

type SelectorObject = KubeObject & { status?: IAMRoleSelectorStatus };

const countSettleMs = 1_000;

export interface SelectorControllerOptions {
  readonly manager: Manager;
  readonly config: SyncGate & { snapshot(): Snapshot; onChange(listener: () => void): () => void };
  readonly matches: SelectorMatchTracker;
  readonly resyncPeriodMs: number;
  readonly logger: Logger;
  readonly now?: () => Date;
}

export function addSelectorController(o: SelectorControllerOptions): Controller {
  const log = o.logger.child({ controller: "iamroleselector" });
  const now = o.now ?? (() => new Date());
  // The configuration cache's own selector informer (same options → same instance).
  const informer = o.manager.informer<SelectorObject>({ resource: iamRoleSelectorType });

  const reconcile = async (req: ReconcileRequest, ctx?: ReconcileContext): Promise<Result> => {
    const cached = informer.get("", req.name);
    if (!cached) return {};
    const matched = o.matches.count(req.name);
    if (matched === undefined) return { requeueAfter: 1_000 };
    const problems = o.config
      .snapshot()
      .problems.filter((p) => p.object.kind === "IAMRoleSelector" && p.object.name === req.name);
    const status = planSelectorStatus(
      {
        ...(cached.metadata.generation === undefined ? {} : { generation: cached.metadata.generation }),
        status: cached.status,
        problems,
        enabled: o.matches.enabled,
        matched,
      },
      now(),
    );
    if (!status) return {};
    try {
      await o.manager.client.request({
        method: "PATCH",
        path: objectPath(iamRoleSelectorType, "", req.name, "status"),
        contentType: patchTypes.merge,
        body: { status },
        ...(ctx?.signal ? { signal: ctx.signal } : {}),
      });
    } catch (err) {
      if (isNotFound(err)) return {};
      throw err;
    }
    log.debug({ selector: req.name, matchedResources: status.matchedResources }, "selector status updated");
    return {};
  };

  const controller = o.manager.controller({
    name: "iamroleselector",
    reconcile,
    resyncPeriodMs: o.resyncPeriodMs,
    waitFor: [o.config, o.matches],
  });
  // Our own status writes keep the generation: only a spec change needs a look.
  controller.watch(informer, { onUpdate: (a, b) => a.metadata.generation !== b.metadata.generation });
  // A burst of resources (500 buckets applied at once) changes a count hundreds of times: wait a
  // second and write once. Delayed adds of one key merge, so a burst costs about one write a second.
  o.matches.onChange((names) => {
    for (const name of names) controller.enqueueAfter(name, countSettleMs);
  });
  // Validity is the snapshot's verdict; there are few selectors and an unchanged status is not written.
  o.config.onChange(() => {
    for (const obj of informer.list()) controller.enqueue(obj.metadata.name);
  });
  return controller;
}
