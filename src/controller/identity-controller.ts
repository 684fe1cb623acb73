// Deletion protection for identity objects (DESIGN §2.5): one controller per identity kind keeps
// the in-use finalizer, status.usageCount / users and the Ready / InUse conditions in line with
// who uses the identity (usage-tracker.ts), and says so when a deletion is blocked. Without it a
// deleted identity strands its users: their AWS objects can then never be deleted (§3.5) and a
// namespace deletion hangs until the identity is recreated.
import type { Logger } from "pino";
import type { IdentityStatus } from "../api/identities.ts";
import { CredentialError } from "../credentials/errors.ts";
import { credentialsFromSecret, readStaticSecret } from "../credentials/providers/static.ts";
import type { SecretReader } from "../credentials/secret-reader.ts";
import { identityKey } from "../resolver/snapshot-identities.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Settings } from "../resolver/types.ts";
import type { Controller } from "../runtime/controller.ts";
import type { EventRecorder } from "../runtime/events.ts";
import { addFinalizer, hasFinalizer, removeFinalizer } from "../runtime/finalizers.ts";
import type { Informer } from "../runtime/informer.ts";
import { isNotFound, patchTypes } from "../runtime/kube-client.ts";
import { type KubeObject, objectKey, objectPath, type ResourceType } from "../runtime/kube-object.ts";
import type { Manager } from "../runtime/manager.ts";
import type { ReconcileContext, ReconcileRequest, Result } from "../runtime/reconcile.ts";
import { identityTypes } from "./config-types.ts";
import type { DecisionMemo } from "./decision-memo.ts";
import { identityFinalizer, maxListedUsers, planIdentity } from "./identity-plan.ts";
import { describeUser } from "./identity-usage.ts";
import { type ConfigSource, UsageTracker } from "./usage-tracker.ts";

/** How long a protected identity's usage count may lag a burst of new users. */
const usageSettleMs = 1_000;

type IdentityObject = KubeObject & { spec?: { secretRef?: string }; status?: IdentityStatus };

export interface IdentityControllerOptions {
  readonly manager: Manager;
  readonly config: ConfigSource & {
    readonly secretReader: SecretReader;
    onSecretChange(listener: (name: string) => void): () => void;
  };
  /** The managed kinds' informers (shared with their resource controllers). */
  readonly resources: readonly { readonly kind: string; readonly informer: Informer }[];
  readonly settings: Settings;
  /** Decisions shared with the resource controllers (decision-memo.ts). */
  readonly decisions?: DecisionMemo;
  readonly events: EventRecorder;
  readonly watchNamespaces?: readonly string[];
  readonly resyncPeriodMs: number;
  readonly logger: Logger;
  readonly now?: () => Date;
}

/** Adds one controller per identity kind; returns them (tests, metrics). */
export function addIdentityControllers(o: IdentityControllerOptions): Controller[] {
  const log = o.logger.child({ controller: "identity" });
  const now = o.now ?? (() => new Date());
  const tracker = new UsageTracker({
    config: o.config,
    resources: o.resources,
    settings: o.settings,
    ...(o.decisions ? { decisions: o.decisions } : {}),
  });
  const finalizer = identityFinalizer(o.settings.systemNamespace);
  const watch = o.watchNamespaces?.length ? [...o.watchNamespaces] : undefined;
  const byKind = new Map<string, { controller: Controller; informer: Informer<IdentityObject> }>();

  /** Why the identity cannot be used: the snapshot's verdict, else a missing or incomplete Secret. */
  async function problemOf(
    rt: ResourceType,
    obj: IdentityObject,
    snapshot: Snapshot,
  ): Promise<string | null> {
    const invalid = snapshot.identities.invalid.get(
      identityKey(rt.kind, obj.metadata.name, obj.metadata.namespace),
    );
    if (invalid !== undefined) return invalid;
    const secretRef = obj.spec?.secretRef;
    if (rt.kind !== "AWSStaticIdentity" || secretRef === undefined) return null;
    const ref = {
      namespace: o.settings.systemNamespace,
      name: secretRef,
      context: { identity: `${rt.kind}/${obj.metadata.name}`, hop: 1, hops: 1 },
    };
    try {
      credentialsFromSecret(await readStaticSecret(o.config.secretReader, ref), ref);
      return null;
    } catch (err) {
      if (err instanceof CredentialError) return `${err.summary}; ${err.fix}`;
      throw err;
    }
  }

  function reconcilerFor(rt: ResourceType, informer: Informer<IdentityObject>) {
    return async (req: ReconcileRequest, ctx?: ReconcileContext): Promise<Result> => {
      const cached = informer.get(req.namespace, req.name);
      if (!cached) return {};
      // Never decide on a partial picture (e.g. right after a restart): the controller's gates
      // make this unreachable, but releasing a finalizer on a wrong count would be unrecoverable.
      const usage = tracker.current();
      if (!usage) return { requeueAfter: 1_000 };
      const key = identityKey(rt.kind, req.name, req.namespace || undefined);
      const count = usage.count(key);
      const users = usage.usersOf(key, maxListedUsers);
      const signal = ctx?.signal;
      const plan = planIdentity(
        {
          kind: rt.kind,
          name: req.name,
          ...(req.namespace ? { namespace: req.namespace } : {}),
          ...(cached.metadata.generation === undefined ? {} : { generation: cached.metadata.generation }),
          deleting: cached.metadata.deletionTimestamp !== undefined,
          hasFinalizer: hasFinalizer(cached, finalizer),
          status: cached.status,
          usageCount: count,
          users,
          problem: await problemOf(rt, cached, o.config.snapshot()),
        },
        now(),
      );
      // Status first, then the finalizer (with the resourceVersion the status write returned):
      // the finalizer change re-queues the identity, and by then the cache holds both writes,
      // so that reconcile finds nothing to do instead of acting on the pre-write status.
      let obj: IdentityObject = cached;
      try {
        if (plan.status) {
          obj = await o.manager.client.request<IdentityObject>({
            method: "PATCH",
            path: objectPath(rt, req.namespace, req.name, "status"),
            contentType: patchTypes.merge,
            body: { status: plan.status },
            ...(signal ? { signal } : {}),
          });
        }
        if (plan.finalizer === "add") obj = await addFinalizer(o.manager.client, rt, obj, finalizer, signal);
        if (plan.finalizer === "remove")
          obj = (await removeFinalizer(o.manager.client, rt, obj, finalizer, signal)) ?? obj;
      } catch (err) {
        // Deleted meanwhile (an unused identity goes at once): nothing left to protect.
        if (isNotFound(err)) return {};
        throw err;
      }
      if (plan.blockedEvent) void o.events.event(obj, "Warning", "DeletionBlocked", plan.blockedEvent);
      if (plan.transition) {
        log.info(
          {
            event: "identity.usage",
            identity: key,
            usageCount: plan.transition.usageCount,
            blocked: plan.transition.blocked,
            users: users.map(describeUser),
            finalizer: plan.finalizer,
          },
          plan.transition.blocked
            ? "identity deletion blocked: still in use"
            : plan.transition.usageCount === 0 && cached.metadata.deletionTimestamp !== undefined
              ? "identity no longer in use: its deletion proceeds"
              : "identity usage changed",
        );
      }
      return {};
    };
  }

  for (const rt of identityTypes) {
    // The same options as the configuration cache's, so the manager hands out the same informer.
    const informer = o.manager.informer<IdentityObject>({
      resource: rt,
      ...(watch ? { namespaces: watch } : {}),
    });
    const controller = o.manager.controller({
      name: rt.kind.toLowerCase(),
      reconcile: reconcilerFor(rt, informer),
      resyncPeriodMs: o.resyncPeriodMs,
      waitFor: [o.config, tracker],
    });
    // Our own status writes change nothing that matters here; finalizers and deletion do.
    controller.watch(informer, {
      onUpdate: (a, b) =>
        a.metadata.generation !== b.metadata.generation ||
        a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp ||
        JSON.stringify(a.metadata.finalizers) !== JSON.stringify(b.metadata.finalizers),
    });
    byKind.set(rt.kind, { controller, informer });
  }

  // Users changed: reconcile exactly those identities. An identity with no object (the implicit
  // AWSControllerIdentity default every plain resource goes through) has nothing to protect or
  // write; when one is created, its informer add reconciles it with the usage of that moment.
  // Protection cannot wait: an identity without the finalizer yet (its first user) or being
  // deleted is looked at now. Otherwise only status.usageCount / users change, and a burst (500
  // buckets through one identity) would write them hundreds of times: wait a second and write
  // once (delayed adds of one key merge).
  tracker.onChange((keys) => {
    for (const key of keys) {
      const slash = key.indexOf("/");
      const entry = byKind.get(key.slice(0, slash));
      const objKey = key.slice(slash + 1);
      const cached = entry?.informer.getByKey(objKey);
      if (!entry || !cached) continue;
      if (hasFinalizer(cached, finalizer) && cached.metadata.deletionTimestamp === undefined)
        entry.controller.enqueueAfter(objKey, usageSettleMs);
      else entry.controller.enqueue(objKey);
    }
  });
  // Validity (Ready) depends on other identities (sources, cycles): re-check every identity.
  // There are few identities, and a reconcile that changes nothing writes nothing.
  o.config.onChange(() => {
    for (const { controller, informer } of byKind.values()) {
      for (const obj of informer.list())
        controller.enqueue(objectKey(obj.metadata.namespace, obj.metadata.name));
    }
  });
  o.config.onSecretChange((name) => {
    const statics = byKind.get("AWSStaticIdentity");
    for (const obj of statics?.informer.list() ?? [])
      if (obj.spec?.secretRef === name) statics?.controller.enqueue(obj.metadata.name);
  });
  return [...byKind.values()].map((k) => k.controller);
}
