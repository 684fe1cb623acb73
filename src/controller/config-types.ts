// The Kubernetes types whose objects configure identity resolution (DESIGN §2.2–2.5), as the
// runtime's informers address them.
import type { ResourceType } from "../runtime/kube-object.ts";

export const namespaceType: ResourceType = {
  group: "",
  version: "v1",
  plural: "namespaces",
  kind: "Namespace",
  namespaced: false,
};
export const configMapType: ResourceType = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};
export const secretType: ResourceType = {
  group: "",
  version: "v1",
  plural: "secrets",
  kind: "Secret",
  namespaced: true,
};
export const iamRoleSelectorType: ResourceType = {
  group: "services.k8s.aws",
  version: "v1alpha1",
  plural: "iamroleselectors",
  kind: "IAMRoleSelector",
  namespaced: false,
};

const identity = (kind: string, plural: string, namespaced: boolean): ResourceType => ({
  group: "identity.crossrole.dev",
  version: "v1alpha1",
  plural,
  kind,
  namespaced,
});

export const identityTypes: readonly ResourceType[] = [
  identity("AWSControllerIdentity", "awscontrolleridentities", false),
  identity("AWSStaticIdentity", "awsstaticidentities", false),
  identity("AWSRoleIdentity", "awsroleidentities", false),
  identity("AWSServiceAccountIdentity", "awsserviceaccountidentities", true),
];
