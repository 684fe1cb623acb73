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
} from "./connectionHealth.ts";
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
} from "./httpServer.ts";
export { inClusterConfig } from "./inCluster.ts";
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
} from "./kubeClient.ts";
export {
  loadKubeconfigFiles,
  mergeKubeconfigs,
  parseKubeconfig,
  restConfigFromKubeconfig,
} from "./kubeconfig.ts";
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
} from "./kubeObject.ts";
export {
  defaultIdentity,
  type LeaderElectionOptions,
  LeaderElector,
  type Lease,
  type LeaseSpec,
} from "./leaderElection.ts";
export {
  ListWatch,
  type ListWatchHandlers,
  type ListWatchOptions,
  type ListWatchStats,
} from "./listWatch.ts";
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
} from "./rateLimiter.ts";
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
} from "./restConfig.ts";
export { Gate, type SyncGate, waitForAll } from "./syncGate.ts";
export { WorkQueue, type WorkQueueMetrics, type WorkQueueOptions } from "./workqueue.ts";
