// The controller runtime's public surface: kind controllers import from here. It knows nothing
// about AWS. See README.md in this folder. Time, backoff and the token bucket (Clock, FakeClock,
// Backoff, ...) come from src/toolkit.

export {
  type Condition,
  type ConditionStatus,
  type ConditionUpdate,
  conditionsEqual,
  findCondition,
  formatTime,
  isConditionTrue,
  removeCondition,
  setCondition,
  setConditions,
} from "./conditions.ts";
export {
  ConnectionHealth,
  type ConnectionHealthOptions,
  type ConnectionHealthState,
  defaultUnhealthyAfterMs,
} from "./connection-health.ts";
export { Controller, type ControllerOptions, type WatchOptions } from "./controller.ts";
export { EventRecorder, type EventRecorderOptions, type EventType } from "./events.ts";
export { addFinalizer, hasFinalizer, removeFinalizer } from "./finalizers.ts";
export {
  checksHandler,
  type HealthCheck,
  metricsHandler,
  type ProbeServer,
  parseListenAddress,
  type RouteHandler,
  startProbeServer,
} from "./http-server.ts";
export { inClusterConfig } from "./in-cluster.ts";
export { Informer, type InformerHandler, type InformerHealth, type InformerOptions } from "./informer.ts";
export {
  createKubeClient,
  type HttpMethod,
  isAlreadyExists,
  isConflict,
  isGone,
  isNotFound,
  KubeApiError,
  type KubeClient,
  type KubeClientOptions,
  type KubeRequest,
  patchTypes,
  type QueryValue,
  type ResponseInfo,
  type WatchEvent,
  type WatchRequest,
} from "./kube-client.ts";
export {
  apiVersionOf,
  collectionPath,
  type KubeList,
  type KubeObject,
  type KubeObjectMeta,
  keyOf,
  type NamespacedName,
  objectKey,
  objectPath,
  type ResourceType,
  splitKey,
} from "./kube-object.ts";
export {
  loadKubeconfigFiles,
  mergeKubeconfigs,
  parseKubeconfig,
  restConfigFromKubeconfig,
} from "./kubeconfig.ts";
export {
  defaultIdentity,
  type LeaderElectionOptions,
  LeaderElector,
  type Lease,
  type LeaseSpec,
} from "./leader-election.ts";
export {
  ListWatch,
  type ListWatchHandlers,
  type ListWatchOptions,
  type ListWatchStats,
} from "./list-watch.ts";
export { createLogger, type Logger, silentLogger } from "./logger.ts";
export {
  informerHealthCheck,
  LeadershipLostError,
  type ManagedControllerOptions,
  type ManagedInformerOptions,
  Manager,
  type ManagerLeaderElectionOptions,
  type ManagerOptions,
} from "./manager.ts";
export {
  countRestRequests,
  createRuntimeMetrics,
  type RuntimeMetrics,
  type RuntimeMetricsOptions,
  workQueueMetricsFor,
} from "./metrics.ts";
export {
  type DefaultRateLimiterOptions,
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOfRateLimiter,
  type RateLimiter,
  tokenBucketRateLimiter,
} from "./rate-limiter.ts";
export {
  isTerminalError,
  type ReconcileContext,
  type ReconcileRequest,
  type Reconciler,
  type Result,
  TerminalError,
} from "./reconcile.ts";
export {
  type ExecConfig,
  KubeconfigError,
  type RestAuth,
  type RestConfig,
  type RestTLS,
  withServer,
  withToken,
} from "./rest-config.ts";
export { Gate, type SyncGate, waitForAll } from "./sync-gate.ts";
export { WorkQueue, type WorkQueueMetrics, type WorkQueueOptions } from "./workqueue.ts";
