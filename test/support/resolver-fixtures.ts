// Builders for resolver tests: small functions that write the objects an administrator or a
// user would write, so each test reads like the configuration it describes.

import { defaultFeatureGates, defaultSettings } from "../../src/resolver/settings.ts";
import type { FeatureGates, ResourceObject, Settings } from "../../src/resolver/types.ts";

export const identityApiVersion = "identity.crossrole.dev/v1alpha1";

export function role(account: string, name = "ack"): string {
  return `arn:aws:iam::${account}:role/${name}`;
}

export function settingsWith(
  patch: Partial<Omit<Settings, "featureGates">> & { gates?: Partial<FeatureGates> } = {},
): Settings {
  const { gates, ...rest } = patch;
  const featureGates = { ...defaultFeatureGates, ...gates };
  return {
    ...defaultSettings,
    defaultRegion: "eu-west-1",
    controllerAccount: "999999999999",
    // IAMRoleSelector mode requires CARM off (ACK's startup rule).
    enableCARM: !featureGates.IAMRoleSelector,
    ...rest,
    featureGates,
  };
}

export const selectorMode = settingsWith({ gates: { IAMRoleSelector: true } });

export function namespace(
  name: string,
  annotations: Record<string, string> = {},
  labels: Record<string, string> = {},
): Record<string, unknown> {
  return { apiVersion: "v1", kind: "Namespace", metadata: { name, annotations, labels } };
}

export function configMap(
  name: string,
  data: Record<string, string>,
  ns = "ack-system",
): Record<string, unknown> {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns }, data };
}

export function selector(
  name: string,
  spec: Record<string, unknown>,
  resourceVersion = "1",
): Record<string, unknown> {
  return {
    apiVersion: "services.k8s.aws/v1alpha1",
    kind: "IAMRoleSelector",
    metadata: { name, resourceVersion },
    spec,
  };
}

export function controllerIdentity(allowedNamespaces?: unknown): Record<string, unknown> {
  return {
    apiVersion: identityApiVersion,
    kind: "AWSControllerIdentity",
    metadata: { name: "default" },
    spec: allowedNamespaces === undefined ? {} : { allowedNamespaces },
  };
}

export function roleIdentity(
  name: string,
  roleARN: string,
  source: { kind: string; name: string },
  allowedNamespaces: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const spec: Record<string, unknown> = { roleARN, sourceIdentityRef: source, ...extra };
  if (allowedNamespaces !== undefined) spec["allowedNamespaces"] = allowedNamespaces;
  return {
    apiVersion: identityApiVersion,
    kind: "AWSRoleIdentity",
    metadata: { name, resourceVersion: "5" },
    spec,
  };
}

export function staticIdentity(
  name: string,
  secretRef: string,
  allowedNamespaces: unknown,
): Record<string, unknown> {
  const spec: Record<string, unknown> = { secretRef };
  if (allowedNamespaces !== undefined) spec["allowedNamespaces"] = allowedNamespaces;
  return { apiVersion: identityApiVersion, kind: "AWSStaticIdentity", metadata: { name }, spec };
}

export function serviceAccountIdentity(
  ns: string,
  name: string,
  roleARN: string,
  serviceAccountName = "app",
): Record<string, unknown> {
  return {
    apiVersion: identityApiVersion,
    kind: "AWSServiceAccountIdentity",
    metadata: { name, namespace: ns },
    spec: { roleARN, serviceAccountName },
  };
}

export const controllerRef = { kind: "AWSControllerIdentity", name: "default" };

export interface ResourceOptions {
  readonly kind?: "Bucket" | "Queue" | "Topic" | "Table" | "DBInstance";
  readonly name?: string;
  readonly annotations?: Record<string, string>;
  readonly labels?: Record<string, string>;
  readonly identityRef?: unknown;
  readonly status?: { ownerAccountID?: string; region?: string; arn?: string };
}

const groups: Record<string, string> = {
  Bucket: "s3",
  Queue: "sqs",
  Topic: "sns",
  Table: "dynamodb",
  DBInstance: "rds",
};

export function resource(ns: string, options: ResourceOptions = {}): ResourceObject {
  const kind = options.kind ?? "Bucket";
  const spec: Record<string, unknown> = {};
  if (options.identityRef !== undefined) spec["identityRef"] = options.identityRef;
  const object: Record<string, unknown> = {
    apiVersion: `${groups[kind]}.services.k8s.aws/v1alpha1`,
    kind,
    metadata: {
      name: options.name ?? "thing",
      namespace: ns,
      annotations: options.annotations ?? {},
      labels: options.labels ?? {},
    },
    spec,
  };
  if (options.status !== undefined) object["status"] = { ackResourceMetadata: options.status };
  return object as unknown as ResourceObject;
}
