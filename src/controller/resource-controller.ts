// One kind's controller: its informer, the work queue and reconciler, and the hooks that
// re-queue resources at once when the configuration changes their decision (DESIGN §5).
import type { Logger } from "pino";
import type { DeletionPolicy } from "../api/annotations.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { Settings } from "../resolver/types.ts";
import type { Controller } from "../runtime/controller.ts";
import type { EventRecorder } from "../runtime/events.ts";
import { type KubeObject, keyOf } from "../runtime/kube-object.ts";
import type { Manager } from "../runtime/manager.ts";
import type { ServiceModule } from "../services/service-module.ts";
import { changedApprovals, takeoverApprovals, takeoverConfigMapName } from "./ack-takeover.ts";
import type { ConfigCache } from "./config-cache.ts";
import { secretType } from "./config-types.ts";
import type { ControllerKeyStore } from "./controller-key.ts";
import { DecisionMemo } from "./decision-memo.ts";
import { DecisionTracker } from "./decision-tracker.ts";
import type { DefaultTag } from "./default-tags.ts";
import type { ReconcilerDeps, ReferencePolicy, UngrantedPrincipalsPolicy } from "./reconcile/env.ts";
import { kubeObjectStore, type ManagedObject } from "./reconcile/object-store.ts";
import { createResourceReconciler } from "./reconcile/reconciler.ts";
import { watchReferencedKinds } from "./referrer-wakeup.ts";
import { resourceTypeOf } from "./resource-type.ts";
import { SelfWrites } from "./self-writes.ts";

export interface ResourceControllerOptions<Spec extends object, Observed, Client> {
  readonly manager: Manager;
  readonly module: ServiceModule<Spec, Observed, Client>;
  readonly config: ConfigCache;
  readonly credentials: CredentialService;
  readonly events: EventRecorder;
  readonly settings: Settings;
  /** Each resource's decision, resolved once per snapshot for every user (decision-memo.ts). */
  readonly decisions?: DecisionMemo;
  readonly deletionPolicy: DeletionPolicy;
  readonly concurrency: number;
  readonly resyncPeriodMs: number;
  readonly logger: Logger;
  /** Seals create intents and secret fingerprints (controller-key.ts); one per process. */
  readonly controllerKey: ControllerKeyStore;
  /** --create-intent-window-seconds, in ms. */
  readonly createIntentWindowMs?: number;
  /** How references to served kinds are followed (reconcile/references.ts). */
  readonly references?: ReferencePolicy;
  /** --resource-tags (default-tags.ts). */
  readonly defaultTags?: readonly DefaultTag[];
  /** --ungranted-principals (reconcile/principals.ts). */
  readonly ungrantedPrincipals?: UngrantedPrincipalsPolicy;
  /** Where unconfirmed creates are remembered once their resource is let go (records/tombstones.ts). */
  readonly tombstones?: ReconcilerDeps<object, unknown, unknown>["tombstones"];
  /** Whose the objects AWS cannot tag are (records/owned-objects.ts). */
  readonly owned?: ReconcilerDeps<object, unknown, unknown>["owned"];
  /** Sharding is on: this kind's resources are reconciled by the replica holding their namespace. */
  readonly sharded?: boolean;
  readonly onDecisionChange?: (kind: string, outcome: string, source: string | null) => void;
}

export { resourceTypeOf };

/**
 * A spec, label, annotation, finalizer or deletion change needs a reconcile; a status-only
 * update (our own write) does not — skipping it halves the API traffic per resource.
 */
function needsReconcile(a: ManagedObject, b: ManagedObject): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  return (
    ma.generation !== mb.generation ||
    ma.deletionTimestamp !== mb.deletionTimestamp ||
    JSON.stringify(ma.labels) !== JSON.stringify(mb.labels) ||
    JSON.stringify(ma.annotations) !== JSON.stringify(mb.annotations) ||
    JSON.stringify(ma.finalizers) !== JSON.stringify(mb.finalizers)
  );
}

export function addResourceController<Spec extends object, Observed, Client>(
  o: ResourceControllerOptions<Spec, Observed, Client>,
): Controller {
  const resourceType = resourceTypeOf(o.module.kind);
  const informer = o.manager.informer<ManagedObject>({ resource: resourceType });
  const log = o.logger.child({ controller: o.module.kind.kind.toLowerCase() });
  const tracker = new DecisionTracker(o.module.kind.kind, log, (c) =>
    o.onDecisionChange?.(o.module.kind.kind, c.decision.outcome, c.decision.source),
  );
  const selfWrites = new SelfWrites();
  // Takeovers from ACK an administrator approved (ack-takeover.ts), as the config cache holds them.
  const approvals = (): ReadonlyMap<string, string> =>
    takeoverApprovals(
      o.config.object({
        kind: "ConfigMap",
        namespace: o.config.systemNamespace,
        name: takeoverConfigMapName,
      }),
    );
  let approvedBefore = approvals();
  const decisions = o.decisions ?? new DecisionMemo(o.settings);
  const reconcile = createResourceReconciler({
    decisions,
    selfWrites,
    module: o.module,
    resourceType,
    store: kubeObjectStore({ kube: o.manager.client, resourceType, informer, events: o.events }),
    config: o.config,
    credentials: o.credentials,
    tracker,
    settings: o.settings,
    deletionPolicy: o.deletionPolicy,
    logger: log,
    controllerKey: o.controllerKey,
    ...(o.createIntentWindowMs === undefined ? {} : { createIntentWindowMs: o.createIntentWindowMs }),
    ...(o.references === undefined ? {} : { references: o.references }),
    takeover: { approvedUid: (key) => approvals().get(key) },
    ...(o.defaultTags?.length ? { defaultTags: o.defaultTags } : {}),
    ...(o.ungrantedPrincipals === undefined ? {} : { ungrantedPrincipals: o.ungrantedPrincipals }),
    ...(o.tombstones ? { tombstones: o.tombstones } : {}),
    ...(o.owned ? { owned: o.owned } : {}),
  });
  // Updates that arrive while their object's reconcile runs wait for it to end: by then the
  // reconcile has recorded what its own writes returned, and an echo that overtook the HTTP
  // response (the watch is often faster) is recognised instead of causing a second pass.
  const inFlight = new Map<string, KubeObject[]>();
  const controller: Controller = o.manager.controller({
    name: o.module.kind.kind.toLowerCase(),
    async reconcile(req, ctx) {
      inFlight.set(req.key, []);
      try {
        return await reconcile(req, ctx);
      } finally {
        const arrived = inFlight.get(req.key) ?? [];
        inFlight.delete(req.key);
        if (arrived.some((obj) => !selfWrites.isEcho(req.key, obj))) controller.enqueue(req.key);
      }
    },
    concurrency: o.concurrency,
    resyncPeriodMs: o.resyncPeriodMs,
    waitFor: [o.config],
    ...(o.sharded
      ? {
          sharded: true,
          // An object that left this replica's shard (its cache): nothing is kept for it here.
          onDropped: (key: string) => {
            if (informer.getByKey(key) !== undefined) return;
            tracker.forget(key);
            selfWrites.forget(key);
          },
        }
      : {}),
  });
  controller.watch(informer, {
    // Our own writes (finalizer, late-initialised spec, status) come back as updates: not news.
    onUpdate(before, after) {
      const key = keyOf(after);
      const echo = selfWrites.isEcho(key, after);
      if (echo || !needsReconcile(before, after)) return false;
      const waiting = inFlight.get(key);
      if (waiting === undefined) return true;
      waiting.push(after);
      return false;
    },
  });

  // Configuration changed: re-decide every resource (pure and cheap) and re-queue exactly those
  // whose decision differs from the one last acted on.
  o.config.onChange(() => {
    if (!o.config.hasSynced()) return;
    // A takeover approved (or withdrawn) re-queues the objects it names: they were left Terminal.
    const approved = approvals();
    for (const key of changedApprovals(approvedBefore, approved, o.module.kind.kind)) controller.enqueue(key);
    approvedBefore = approved;
    const snapshot = o.config.snapshot();
    for (const obj of informer.list()) {
      const key = keyOf(obj);
      if (tracker.differs(key, decisions.decide(obj, snapshot))) controller.enqueue(key);
    }
  });
  // A rotated static-identity Secret changes credentials, not decisions: re-queue its users.
  o.config.onSecretChange((name) => {
    for (const key of tracker.keysUsingSecret(name)) controller.enqueue(key);
  });
  if (o.module.secretFields) watchReferencedSecrets(o.manager, o.module, informer, controller);
  if (o.module.references?.length)
    watchReferencedKinds(
      o.manager,
      o.module.references,
      informer,
      controller,
      o.references?.allowCrossNamespace ?? false,
    );
  return controller;
}

/**
 * Kinds whose spec references Secrets (a DBInstance's password): a Secret created, changed or
 * deleted re-queues the resources of its namespace that reference it, so a new password reaches
 * AWS at once and a missing Secret is noticed when it appears. The cache holds the Secrets'
 * metadata only: values are read on demand, in the resource's namespace (secret-inputs.ts).
 */
function watchReferencedSecrets<Spec extends object, Observed, Client>(
  manager: Manager,
  module: ServiceModule<Spec, Observed, Client>,
  resources: { list(namespace?: string): readonly ManagedObject[] },
  controller: Controller,
): void {
  const secrets = manager.informer<KubeObject>({ resource: secretType, metadataOnly: true });
  // Cached objects are replaced, never changed, on update: their parsed references can be kept.
  const referenced = new WeakMap<ManagedObject, readonly string[]>();
  const secretNamesOf = (obj: ManagedObject): readonly string[] => {
    let names = referenced.get(obj);
    if (names === undefined) {
      const spec = module.parseSpec(obj.spec);
      names = spec.ok ? (module.secretFields?.(spec.value) ?? []).map((f) => f.ref.name) : [];
      referenced.set(obj, names);
    }
    return names;
  };
  const requeueUsers = (secret: KubeObject): void => {
    for (const obj of resources.list(secret.metadata.namespace ?? "")) {
      if (secretNamesOf(obj).includes(secret.metadata.name)) controller.enqueue(keyOf(obj));
    }
  };
  secrets.addHandler({
    // The first list is not news: reconciles read Secrets with a GET, never from this cache, so
    // a Secret that existed before the watch began changed nothing they saw. (The kind's
    // controller starts with its first resource: re-queueing it here cost that resource, and
    // every other that references a Secret, a second pass right after its first.)
    onAdd: (secret) => {
      if (secrets.hasSynced()) requeueUsers(secret);
    },
    onUpdate: (_old, secret) => requeueUsers(secret),
    onDelete: requeueUsers,
  });
}
