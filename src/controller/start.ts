// The controller's composition root: from options (the flags of `crossrole run`) to a running
// Manager with the configuration cache, the credential service and one controller per kind.

import type { Logger } from "pino";
import { Counter } from "prom-client";
import type { DeletionPolicy } from "../api/annotations.ts";
import { lookupKind, resourceKinds } from "../api/kinds.ts";
import type { AwsRateLimits } from "../credentials/aws-rate-limit.ts";
import { type CredentialService, createCredentialService } from "../credentials/service.ts";
import { kubeTokenRequester } from "../credentials/token-requester.ts";
import type { Decision, Settings } from "../resolver/types.ts";
import type { Informer } from "../runtime/informer.ts";
import { getIfExists } from "../runtime/kube-client.ts";
import { objectPath, type ResourceType } from "../runtime/kube-object.ts";
import { Manager } from "../runtime/manager.ts";
import type { RestConfig } from "../runtime/rest-config.ts";
import { type AnyServiceModule, ackReadManyOperations, servedKindCatalog } from "../services/catalog.ts";
import { servedKindNames } from "../services/served.ts";
import type { RateLimit } from "../toolkit/token-bucket.ts";
import { crossroleVersion, userAgent } from "../version.ts";
import { ConfigCache } from "./config-cache.ts";
import { addConfigProblemReporter } from "./config-problem-reporter.ts";
import { configMapType } from "./config-types.ts";
import { checkControllerAccount } from "./controller-account.ts";
import { ControllerKeyStore } from "./controller-key.ts";
import { DecisionMemo } from "./decision-memo.ts";
import { decisionViewProjection } from "./decision-view.ts";
import type { DefaultTag } from "./default-tags.ts";
import { addIdentityControllers } from "./identity-controller.ts";
import type { UngrantedPrincipalsPolicy } from "./reconcile/env.ts";
import type { ManagedObject } from "./reconcile/object-store.ts";
import { OwnedObjects } from "./records/owned-objects.ts";
import { kubeRecordStore, type RecordObject } from "./records/record-store.ts";
import { addRecordsController, tombstoneKeeper } from "./records/records-controller.ts";
import { ReferenceUses } from "./records/reference-uses.ts";
import { ReferrerIndex } from "./referrer-index.ts";
import { addResourceController } from "./resource-controller.ts";
import { registerResourceOutcomes } from "./resource-outcomes.ts";
import { resourceTypeOf } from "./resource-type.ts";
import { addSelectorController } from "./selector-controller.ts";
import { SelectorMatchTracker } from "./selector-match-tracker.ts";

export interface ControllerOptions {
  readonly kubeConfig: RestConfig;
  readonly logger: Logger;
  /** Resolver settings; `controllerAccount` is filled from sts:GetCallerIdentity when null. */
  readonly settings: Settings;
  readonly watchNamespaces?: readonly string[];
  readonly deletionPolicy: DeletionPolicy;
  readonly resyncSeconds: number;
  /** Per-kind overrides of resyncSeconds, by lower-case kind (--reconcile-resource-resync-seconds). */
  readonly resyncSecondsByKind?: Readonly<Record<string, number>>;
  readonly maxConcurrentSyncs: number;
  /** Per-kind overrides of maxConcurrentSyncs (--reconcile-resource-max-concurrent-syncs). */
  readonly maxConcurrentSyncsByKind?: Readonly<Record<string, number>>;
  readonly metricsAddr?: string;
  readonly healthAddr?: string;
  readonly leaderElection: boolean;
  readonly leaseName?: string;
  /** The leader Lease's namespace (ACK's --leader-election-namespace); default: the system namespace. */
  readonly leaseNamespace?: string;
  /** How long an AWS request may wait for its answer, per attempt (ACK's --http-client-timeout); default 10 s. */
  readonly awsRequestTimeoutMs?: number;
  /** Where sts:GetCallerIdentity asks for the controller's account (ACK's --aws-identity-endpoint-url). */
  readonly identityEndpoint?: string;
  /**
   * Sharding across replicas (--enable-sharding): this replica's member name and its member
   * Lease's duration. The resource controllers then run on every replica, each on its shard's
   * namespaces; the identity, selector and configuration controllers stay on the leader.
   */
  readonly sharding?: { readonly member: string; readonly leaseDurationMs?: number };
  readonly stsRateLimit?: RateLimit;
  /** Client-side limits per AWS service, region and account (credentials/aws-rate-limit.ts). */
  readonly awsRateLimits?: AwsRateLimits;
  /** How long after its intent a create may still land (--create-intent-window-seconds), in ms. */
  readonly createIntentWindowMs?: number;
  /** --allow-cross-namespace-references: a reference may name an object in another namespace. */
  readonly allowCrossNamespaceReferences?: boolean;
  /** --resource-tags: written on every AWS object created or adopted (default-tags.ts). */
  readonly defaultTags?: readonly DefaultTag[];
  /** --ungranted-principals: documents letting in accounts a namespace is not granted (reconcile/principals.ts). */
  readonly ungrantedPrincipals?: UngrantedPrincipalsPolicy;
  /** --watch-selectors: only managed objects with these labels are seen at all (ACK's). */
  readonly watchSelectors?: string;
  /** --reconcile-resources: the kinds reconciled; absent or empty: every served kind (ACK's). */
  readonly reconcileKinds?: readonly string[];
  /** Overrides the SDK default chain for the controller identity (tests, demos). */
  readonly controllerChain?: Parameters<typeof createCredentialService>[0]["controllerChain"];
}

/** The controller's configuration contradicts what AWS says: it refuses to start. */
export class ControllerAccountError extends Error {
  override readonly name = "ControllerAccountError";
}

export interface RunningController {
  readonly manager: Manager;
  readonly credentials: CredentialService;
  readonly settings: Settings;
  stop(): Promise<void>;
}

/** A decision for the controller's own credentials, used to ask STS who the controller is. */
function controllerDecision(settings: Settings): Decision {
  return {
    outcome: "use",
    source: "default",
    reason: "Selected",
    roleARN: null,
    account: null,
    region: settings.defaultRegion ?? "us-east-1",
    endpoint: settings.defaultEndpoint,
    selector: null,
    chain: [{ kind: "AWSControllerIdentity", name: "default", parameters: {} }],
    message: "the controller's own credentials",
    trace: [],
    warnings: [],
    drift: null,
  };
}

/** The API groups of the managed kinds (s3.services.k8s.aws, ...): what --watch-selectors filters. */
const managedGroups: ReadonlySet<string> = new Set(resourceKinds.map((k) => k.group));

export async function startController(o: ControllerOptions): Promise<RunningController> {
  const log = o.logger;
  const manager = new Manager({
    kubeConfig: o.kubeConfig,
    logger: log,
    ...(o.metricsAddr ? { metricsAddr: o.metricsAddr } : {}),
    ...(o.healthAddr ? { healthAddr: o.healthAddr } : {}),
    ...(o.watchNamespaces?.length ? { watchNamespaces: o.watchNamespaces } : {}),
    // ACK's --watch-selectors: on the managed kinds' informers only (never the configuration's),
    // so every user of them (controllers, identity protection, selector matches) sees the same.
    ...(o.watchSelectors
      ? {
          defaultLabelSelector: (rt: ResourceType) =>
            managedGroups.has(rt.group) && rt.namespaced ? o.watchSelectors : undefined,
        }
      : {}),
    // With sharding, each replica caches only its shard's managed objects: the namespaces it
    // owns. Cross-namespace references would have a replica read objects of other shards, so
    // with them allowed every replica caches every object (and still acts only on its shard).
    ...(o.sharding && !o.allowCrossNamespaceReferences
      ? { shardedResource: (rt: ResourceType) => managedGroups.has(rt.group) && rt.namespaced }
      : {}),
    ...(o.leaderElection
      ? {
          leaderElection: {
            namespace: o.leaseNamespace ?? o.settings.systemNamespace,
            name: o.leaseName ?? "crossrole-leader",
          },
        }
      : {}),
    ...(o.sharding
      ? {
          sharding: {
            member: o.sharding.member,
            namespace: o.settings.systemNamespace,
            // client-go's ratios (15 s / 10 s / 2 s): renew often, stop acting well before expiry.
            ...(o.sharding.leaseDurationMs === undefined
              ? {}
              : {
                  leaseDurationMs: o.sharding.leaseDurationMs,
                  renewDeadlineMs: Math.round((o.sharding.leaseDurationMs * 2) / 3),
                  renewPeriodMs: Math.round(o.sharding.leaseDurationMs / 7.5),
                }),
          },
        }
      : {}),
    userAgent,
  });
  const config = new ConfigCache({
    manager,
    systemNamespace: o.settings.systemNamespace,
    ...(o.watchNamespaces?.length ? { watchNamespaces: o.watchNamespaces } : {}),
  });
  manager.addReadyCheck({
    name: "configuration",
    check: () => (config.hasSynced() ? true : `not synced: ${config.waiting().join(", ")}`),
  });
  const credentials = createCredentialService({
    logger: log,
    registry: manager.metrics.registry,
    systemNamespace: o.settings.systemNamespace,
    defaultRegion: o.settings.defaultRegion,
    secrets: config.secretReader,
    // TokenRequests share the manager's client (its connection, user agent and request metrics).
    tokens: kubeTokenRequester(manager.client),
    ...(o.stsRateLimit ? { stsRateLimit: o.stsRateLimit } : {}),
    ...(o.awsRateLimits ? { awsRateLimits: o.awsRateLimits } : {}),
    ...(o.controllerChain ? { controllerChain: o.controllerChain } : {}),
    ackReadMany: ackReadManyOperations,
    ...(o.awsRequestTimeoutMs === undefined ? {} : { awsRequestTimeoutMs: o.awsRequestTimeoutMs }),
  });

  // The controller's own account: resources on the default identity land there, and it is what
  // a recorded ownerAccountID is checked against for account drift (never what selects one).
  // STS decides; a flag is a claim it must confirm (controller-account.ts).
  let settings = o.settings;
  let who: { account: string; arn: string } | undefined;
  try {
    const decision = controllerDecision(settings);
    who = await credentials.callerIdentity(
      o.identityEndpoint === undefined ? decision : { ...decision, endpoint: o.identityEndpoint },
    );
  } catch (err) {
    log.warn(
      {
        event: "controller.identity",
        claimed: settings.controllerAccount,
        err: err instanceof Error ? err.message : String(err),
      },
      "could not learn the controller's account from sts:GetCallerIdentity; resources on the default identity use the account STS names once it answers (a --controller-account is not trusted unconfirmed)",
    );
    settings = { ...settings, controllerAccount: null };
  }
  if (who !== undefined) {
    const check = checkControllerAccount({ flag: settings.controllerAccount, sts: who });
    if (!check.ok) {
      log.error(
        {
          event: "controller.account-mismatch",
          claimed: settings.controllerAccount,
          sts: who.account,
          arn: who.arn,
        },
        check.message,
      );
      credentials.close();
      throw new ControllerAccountError(check.message);
    }
    settings = { ...settings, controllerAccount: check.account };
    log.info({ event: "controller.identity", account: who.account, arn: who.arn }, "controller credentials");
  }

  const decisions = new Counter({
    name: "crossrole_decision_changes_total",
    help: "Identity decisions that changed for a resource, by kind, outcome and source",
    labelNames: ["kind", "outcome", "source"] as const,
    registers: [manager.metrics.registry],
  });
  const events = manager.eventRecorder("crossrole");
  const controllerKey = new ControllerKeyStore({
    kube: manager.client,
    systemNamespace: settings.systemNamespace,
    secrets: config.secretReader,
    logger: log,
  });
  // Every resource's decision under the current configuration, resolved once for the resource
  // controllers, identity protection and selector matches alike.
  const decisionMemo = new DecisionMemo(settings);
  // One informer per kind from the start (identity protection and selector matches read them
  // all); a kind's controller, with its service module and AWS SDK client, once the first
  // resource of the kind appears: memory goes to the kinds in use.
  // Every kind is served: the catalog's type makes each one's module exist.
  const kinds = resourceKinds.map((kind) => ({
    kind,
    informer: manager.informer({ resource: resourceTypeOf(kind) }),
  }));
  // Who references what (a DBInstance its DBSubnetGroup), for deletions that must wait.
  const referrers = new ReferrerIndex(
    new Map(kinds.map(({ kind, informer }) => [kind.kind, informer as Informer<ManagedObject>])),
    o.allowCrossNamespaceReferences ?? false,
    (obj) => {
      const d = decisionMemo.decide(obj, config.snapshot());
      return d.outcome === "use" && d.drift === null ? { account: d.account, region: d.region } : null;
    },
  );
  // The controller's own records in the system namespace (records/record-store.ts).
  // The configuration cache's own informer of the system namespace (same options, same instance).
  const recordInformer = manager.informer<RecordObject>({
    resource: configMapType,
    namespaces: [settings.systemNamespace],
  });
  const records = kubeRecordStore(manager.client, settings.systemNamespace, recordInformer);
  const referenceUses = new ReferenceUses(records);
  const tombstones = tombstoneKeeper(records);
  const owned = new OwnedObjects(records);
  const moduleOf = async (kind: string): Promise<AnyServiceModule | undefined> =>
    kind in servedKindCatalog
      ? await servedKindCatalog[kind as keyof typeof servedKindCatalog].module()
      : undefined;
  const addController = async (kind: (typeof resourceKinds)[number]) => {
    const module: AnyServiceModule = await servedKindCatalog[kind.kind].module();
    const name = kind.kind.toLowerCase();
    const controller = addResourceController({
      manager,
      module,
      config,
      credentials,
      events,
      settings,
      decisions: decisionMemo,
      deletionPolicy: o.deletionPolicy,
      controllerKey,
      ...(o.createIntentWindowMs === undefined ? {} : { createIntentWindowMs: o.createIntentWindowMs }),
      ...(o.defaultTags?.length ? { defaultTags: o.defaultTags } : {}),
      ...(o.ungrantedPrincipals === undefined ? {} : { ungrantedPrincipals: o.ungrantedPrincipals }),
      tombstones,
      owned,
      references: {
        allowCrossNamespace: o.allowCrossNamespaceReferences ?? false,
        // The referenced kind's module: its identifier field, and its read for the check in AWS.
        moduleOf,
        referrersOf: (kind, namespace, name) => referrers.referrersOf(kind, namespace, name),
        uses: referenceUses,
      },
      concurrency: o.maxConcurrentSyncsByKind?.[name] ?? o.maxConcurrentSyncs,
      ...(o.sharding ? { sharded: true } : {}),
      resyncPeriodMs: (o.resyncSecondsByKind?.[name] ?? o.resyncSeconds) * 1000,
      logger: log,
      onDecisionChange: (kind, outcome, source) => decisions.inc({ kind, outcome, source: source ?? "none" }),
    });
    referrers.register(kind.kind, module.references ?? [], controller);
    log.debug(
      { event: "controller.kind-loaded", kind: kind.kind },
      "first resource of the kind: controller added",
    );
  };
  // ACK's --reconcile-resources: a kind left out gets no controller (its objects are still
  // watched, so that identity protection and selector matches see every resource).
  const reconciled = o.reconcileKinds?.length ? new Set(o.reconcileKinds) : undefined;
  // A kind left out is not reconciled here, but its objects may reference served kinds (a
  // DBInstance its DBSubnetGroup; another controller, ACK's during a migration, may have placed
  // them): its references are registered all the same, or the referenced objects' deletions could
  // not tell who uses them and would wait for ever.
  const registerReferencesOnly = async (kind: (typeof resourceKinds)[number]) => {
    const module: AnyServiceModule = await servedKindCatalog[kind.kind].module();
    referrers.register(kind.kind, module.references ?? [], undefined);
  };
  for (const { kind, informer } of kinds) {
    const load = reconciled && !reconciled.has(kind.kind) ? registerReferencesOnly : addController;
    let loading = false;
    const remove = informer.addHandler({
      onAdd: () => {
        if (loading) return;
        loading = true;
        // Not from inside the informer's own delivery loop.
        queueMicrotask(() => remove());
        load(kind).catch((err: unknown) => {
          log.error(
            {
              event: "controller.kind-load-failed",
              kind: kind.kind,
              err: err instanceof Error ? err.message : String(err),
            },
            "could not load the kind's service module; stopping",
          );
          void manager.stop();
        });
      },
    });
  }
  // The views of every managed resource the leader's controllers below read (identity protection,
  // selector matches, crossrole_resources): unsharded, the resource controllers' own informers;
  // sharded (a replica caches its shard only), a view of all of them with just what they read,
  // held by the leader alone (decision-view.ts).
  const shardedCaches = o.sharding !== undefined && !o.allowCrossNamespaceReferences;
  const resources = kinds.map(({ kind, informer }) => ({
    kind: kind.kind,
    informer: shardedCaches
      ? manager.informer({
          resource: resourceTypeOf(kind),
          allShards: true,
          leaderOnly: true,
          projection: decisionViewProjection,
        })
      : informer,
  }));
  registerResourceOutcomes({
    textFamilies: manager.metrics.textFamilies,
    resources,
    synced: () => config.hasSynced() && resources.every((r) => r.informer.hasSynced()),
    decide: (obj) => decisionMemo.decide(obj, config.snapshot()),
  });
  addIdentityControllers({
    manager,
    config,
    resources,
    settings,
    decisions: decisionMemo,
    events,
    ...(o.watchNamespaces?.length ? { watchNamespaces: o.watchNamespaces } : {}),
    resyncPeriodMs: o.resyncSeconds * 1000,
    logger: log,
  });
  // Loud configuration: the snapshot's problems as Events and log lines (once per change), and
  // each IAMRoleSelector's Ready / matchedResources.
  addConfigProblemReporter({
    manager,
    config,
    events,
    logger: log,
    settings,
    services: kinds.map(({ kind }) => kind.service),
  });
  addSelectorController({
    manager,
    config,
    matches: new SelectorMatchTracker({ config, resources, settings, decisions: decisionMemo }),
    resyncPeriodMs: o.resyncSeconds * 1000,
    logger: log,
  });
  // Late creates swept, and records of referrers of objects gone dropped (records/records-controller.ts).
  addRecordsController({
    manager,
    records,
    informer: recordInformer,
    referencedGone: async (kind, namespace, name, uid) => {
      const k = lookupKind(kind);
      if (k === undefined) return true;
      const obj = await getIfExists<ManagedObject>(
        manager.client,
        objectPath(resourceTypeOf(k), namespace, name),
      );
      return obj?.metadata.uid !== uid;
    },
    moduleOf,
    decisions: decisionMemo,
    snapshot: () => config.snapshot(),
    namespaceExists: (namespace) => config.namespaceAnnotations(namespace) !== undefined,
    credentials,
    events,
    registry: manager.metrics.registry,
    logger: log,
  });
  await manager.start();
  log.info(
    {
      event: "controller.started",
      version: crossroleVersion,
      kinds: reconciled ? servedKindNames.filter((k) => reconciled.has(k)) : servedKindNames,
      ...(o.watchSelectors ? { watchSelectors: o.watchSelectors } : {}),
      ...(o.defaultTags?.length ? { resourceTags: o.defaultTags.map((t) => `${t.key}=${t.value}`) } : {}),
      ungrantedPrincipals: o.ungrantedPrincipals ?? "warn",
      systemNamespace: settings.systemNamespace,
      watchNamespaces: o.watchNamespaces ?? "all",
      // Which apiserver, as whom: what to check first when /readyz says it cannot reach it.
      apiserver: o.kubeConfig.server,
      kubeconfig: o.kubeConfig.source,
      featureGates: settings.featureGates,
      metrics: manager.metricsUrl,
      health: manager.healthUrl,
    },
    "crossrole controller started",
  );
  return {
    manager,
    credentials,
    settings,
    async stop() {
      await manager.stop();
      await credentials.close();
    },
  };
}
