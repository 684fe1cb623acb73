// The credentials module's public surface. See README.md in this folder. Clock, Sleep, Random,
// backoff and the token bucket come from src/toolkit.
export type { IssuedCredentials } from "./audit.ts";
export { logIssuedCredentials } from "./audit.ts";
export type { CacheEntryState, CredentialCacheOptions } from "./cache.ts";
export { CredentialCache, defaultFailureBackoff } from "./cache.ts";
export { secretDataHash, stableHash } from "./chain-key.ts";
export type { StsCallContext, StsFailureKind, StsOperation } from "./classify-error.ts";
export { classifyStsError, isRetryableStsFailure, StsCallFailed, stsFailureKind } from "./classify-error.ts";
export type { CredentialErrorCode, HopContext } from "./errors.ts";
export {
  AccessDeniedError,
  CredentialError,
  CredentialFailedError,
  EndpointUnreachableError,
  ExpiredCredentialsError,
  InvalidParameterError,
  SecretUnavailableError,
  ThrottledError,
} from "./errors.ts";
export type { CredentialMetrics } from "./metrics.ts";
export { createCredentialMetrics } from "./metrics.ts";
export type { ChainPlan, PlanInput, PlannedHop } from "./plan.ts";
export { defaultSessionName, hopLabel, planChain, stsEndpointOf, tenantTagKeys } from "./plan.ts";
export type { StsProtectionOptions, StsRetryPolicy } from "./protected-sts.ts";
export {
  defaultStsRateLimit,
  defaultStsRetryBackoff,
  defaultStsRetryPolicy,
  protectSts,
} from "./protected-sts.ts";
export type { ControllerCredentialsOptions } from "./providers/controller.ts";
export { controllerCredentials } from "./providers/controller.ts";
export type { RoleCredentialsOptions } from "./providers/role.ts";
export { effectiveDurationSeconds, roleChainingMaxSeconds, roleCredentials } from "./providers/role.ts";
export type { ServiceAccountCredentialsOptions } from "./providers/service-account.ts";
export {
  defaultAudiences,
  defaultTokenExpirationSeconds,
  serviceAccountCredentials,
} from "./providers/service-account.ts";
export type { StaticSecretRef } from "./providers/static.ts";
export {
  credentialsFromSecret,
  readStaticSecret,
  staticCredentials,
  staticSecretKeys,
} from "./providers/static.ts";
export type { SecretData, SecretReader } from "./secret-reader.ts";
export { kubeSecretReader } from "./secret-reader.ts";
export type { CredentialService, CredentialServiceOptions, SdkCredentialProvider } from "./service.ts";
export { createCredentialService } from "./service.ts";
export type {
  AssumeRoleRequest,
  CallerIdentity,
  SessionTag,
  SourceCredentials,
  StsApi,
  StsSession,
  WebIdentityRequest,
} from "./sts.ts";
export { accountOfArn, sdkSts } from "./sts.ts";
export type { ServiceAccountToken, TokenRequest, TokenRequester } from "./token-requester.ts";
export { kubeTokenRequester, TokenRequestFailed } from "./token-requester.ts";
export type { CredentialProvider, Credentials, ResourceRef, StsTarget } from "./types.ts";
