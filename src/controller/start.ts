// The controller's composition root: from options (the flags of `crossrole run`) to a running
// Manager with the configuration cache, the credential service and one controller per kind.
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { Counter } from "prom-client";
import type { DeletionPolicy } from "../api/annotations.ts";
import { type CredentialService, createCredentialService } from "../credentials/service.ts";
import type { RateLimit } from "../credentials/token-bucket.ts";
import { kubeTokenRequester } from "../credentials/token-requester.ts";
import type { Decision, Settings } from "../resolver/types.ts";
import { Manager } from "../runtime/manager.ts";
import { serviceModules } from "../services/index.ts";
import { crossroleVersion, userAgent } from "../version.ts";
import { ConfigCache } from "./configCache.ts";
import { addConfigProblemReporter } from "./configProblemReporter.ts";
import { addIdentityControllers } from "./identityController.ts";
import { addResourceController, resourceTypeOf } from "./resourceController.ts";
import { addSelectorController } from "./selectorController.ts";
import { SelectorMatchTracker } from "./selectorMatchTracker.ts";

export interface ControllerOptions {
  readonly kubeConfig: KubeConfig;
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
  readonly stsRateLimit?: RateLimit;
  /** Overrides the SDK default chain for the controller identity (tests, demos). */
  readonly controllerChain?: Parameters<typeof createCredentialService>[0]["controllerChain"];
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

export async function startController(o: ControllerOptions): Promise<RunningController> {
  const log = o.logger;
  const manager = new Manager({
    kubeConfig: o.kubeConfig,
    logger: log,
    ...(o.metricsAddr ? { metricsAddr: o.metricsAddr } : {}),
    ...(o.healthAddr ? { healthAddr: o.healthAddr } : {}),
    ...(o.watchNamespaces?.length ? { watchNamespaces: o.watchNamespaces } : {}),
    ...(o.leaderElection
      ? { leaderElection: { namespace: o.settings.systemNamespace, name: o.leaseName ?? "crossrole-leader" } }
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
    tokens: kubeTokenRequester(o.kubeConfig),
    ...(o.stsRateLimit ? { stsRateLimit: o.stsRateLimit } : {}),
    ...(o.controllerChain ? { controllerChain: o.controllerChain } : {}),
  });

  // The controller's own account: resources on the default identity land there, and it is what
  // a recorded ownerAccountID is checked against for account drift (never what selects one).
  let settings = o.settings;
  if (settings.controllerAccount === null) {
    try {
      const who = await credentials.callerIdentity(controllerDecision(settings));
      settings = { ...settings, controllerAccount: who.account };
      log.info(
        { event: "controller.identity", account: who.account, arn: who.arn },
        "controller credentials",
      );
    } catch (err) {
      log.warn(
        { event: "controller.identity", err: err instanceof Error ? err.message : String(err) },
        "could not learn the controller's account from sts:GetCallerIdentity; resources on the default identity will fail until it works",
      );
    }
  }

  const decisions = new Counter({
    name: "crossrole_decision_changes_total",
    help: "Identity decisions that changed for a resource, by kind, outcome and source",
    labelNames: ["kind", "outcome", "source"] as const,
    registers: [manager.metrics.registry],
  });
  const events = manager.eventRecorder("crossrole");
  for (const module of serviceModules) {
    const kind = module.kind.kind.toLowerCase();
    addResourceController({
      manager,
      module,
      config,
      credentials,
      events,
      settings,
      deletionPolicy: o.deletionPolicy,
      concurrency: o.maxConcurrentSyncsByKind?.[kind] ?? o.maxConcurrentSyncs,
      resyncPeriodMs: (o.resyncSecondsByKind?.[kind] ?? o.resyncSeconds) * 1000,
      logger: log,
      onDecisionChange: (kind, outcome, source) => decisions.inc({ kind, outcome, source: source ?? "none" }),
    });
  }
  // Deletion protection for identities, from the same (shared) resource informers.
  addIdentityControllers({
    manager,
    config,
    resources: serviceModules.map((m) => ({
      kind: m.kind.kind,
      informer: manager.informer({ resource: resourceTypeOf(m) }),
    })),
    settings,
    events,
    ...(o.watchNamespaces?.length ? { watchNamespaces: o.watchNamespaces } : {}),
    resyncPeriodMs: o.resyncSeconds * 1000,
    logger: log,
  });
  // Loud configuration: the snapshot's problems as Events and log lines (once per change), and
  // each IAMRoleSelector's Ready / matchedResources.
  addConfigProblemReporter({ manager, config, events, logger: log });
  addSelectorController({
    manager,
    config,
    matches: new SelectorMatchTracker({
      config,
      resources: serviceModules.map((m) => ({
        kind: m.kind.kind,
        informer: manager.informer({ resource: resourceTypeOf(m) }),
      })),
      settings,
    }),
    resyncPeriodMs: o.resyncSeconds * 1000,
    logger: log,
  });
  await manager.start();
  log.info(
    {
      event: "controller.started",
      version: crossroleVersion,
      kinds: serviceModules.map((m) => m.kind.kind),
      systemNamespace: settings.systemNamespace,
      watchNamespaces: o.watchNamespaces ?? "all",
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
