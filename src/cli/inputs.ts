// What `explain` gathers before it asks the resolver, whether from manifests or a cluster.
import type { ResourceObject } from "../resolver/types.ts";

/** A Kubernetes object as read (YAML/JSON or API response); the resolver validates it. */
export type KubeObject = Readonly<Record<string, unknown>>;

/** The configuration the resolver reads (raw objects; buildSnapshot validates them). */
export interface ConfigurationObjects {
  readonly namespaces: readonly KubeObject[];
  readonly configMaps: readonly KubeObject[];
  readonly iamRoleSelectors: readonly KubeObject[];
  readonly identities: readonly KubeObject[];
}

export interface ExplainInputs {
  readonly objects: ConfigurationObjects;
  readonly resource: ResourceObject;
  /** What the CLI had to assume or could not see; shown first in the trace. */
  readonly notes: readonly string[];
}

/** Configuration kinds `explain` reads besides the resource itself. */
export interface ConfigurationKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

export const iamRoleSelectorKind: ConfigurationKind = {
  group: "services.k8s.aws",
  version: "v1alpha1",
  kind: "IAMRoleSelector",
  plural: "iamroleselectors",
  namespaced: false,
};

const identityGroup = "identity.crossrole.dev";

export const identityKinds: readonly ConfigurationKind[] = [
  {
    group: identityGroup,
    version: "v1alpha1",
    kind: "AWSControllerIdentity",
    plural: "awscontrolleridentities",
    namespaced: false,
  },
  {
    group: identityGroup,
    version: "v1alpha1",
    kind: "AWSStaticIdentity",
    plural: "awsstaticidentities",
    namespaced: false,
  },
  {
    group: identityGroup,
    version: "v1alpha1",
    kind: "AWSRoleIdentity",
    plural: "awsroleidentities",
    namespaced: false,
  },
  {
    group: identityGroup,
    version: "v1alpha1",
    kind: "AWSServiceAccountIdentity",
    plural: "awsserviceaccountidentities",
    namespaced: true,
  },
];

/** The CARM ConfigMaps, read only from the system namespace (DESIGN §2.3, §3.4). */
export const carmConfigMapNames: readonly string[] = [
  "ack-role-account-map",
  "ack-role-team-map",
  "ack-carm-map",
];

/** A namespace the CLI could not see: it exists (the resource is in it) with no metadata. */
export function assumedNamespace(name: string): KubeObject {
  return { apiVersion: "v1", kind: "Namespace", metadata: { name } };
}

export function groupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== "string") return undefined;
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** A string field of `metadata` (name, namespace, resourceVersion), if it is one and not empty. */
export function metadataString(object: KubeObject, field: string): string | undefined {
  const metadata = object["metadata"];
  if (typeof metadata !== "object" || metadata === null) return undefined;
  const value = (metadata as Record<string, unknown>)[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}
