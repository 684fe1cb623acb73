// The controller's RBAC, least privilege (DESIGN §3.4, §5), as pure functions of the kinds it
// manages and where it runs. `crossrole rbac` prints it; config/rbac/cluster.yaml is its
// cluster-wide form (`npm run generate:rbac`).
//
// Two shapes:
//  - cluster-wide (no --watch-namespace): one ClusterRole for the managed kinds, Events,
//    Namespaces, IAMRoleSelectors, identities and TokenRequests in every namespace;
//  - namespace-scoped (--watch-namespace a,b): a Role per watched namespace for everything
//    namespaced there, and one narrow ClusterRole that reads only the watched Namespace objects
//    (by resourceNames) and the cluster-scoped configuration kinds (IAMRoleSelectors and the
//    cluster-scoped identities), and patches only the cluster-scoped identities (in-use
//    finalizer, status) and IAMRoleSelectors' status. Kubernetes has no namespaced way to do
//    either. Events about cluster-scoped objects live in namespace `default`, so a Role there
//    allows only those.
// Both add a Role in the system namespace: CARM ConfigMaps and static-identity Secrets are read
// only there (and Events about the maps' problems written there), and the leader-election Lease
// lives there.

import { stringify } from "yaml";
import { iamRoleSelectorCrdSource, identityCrdSources } from "../api/config-crd-sources.ts";
import { identityGroup } from "../api/identity-ref.ts";
import { type ResourceKind, resourceKinds } from "../api/kinds.ts";
import { matchesPattern } from "../api/validation.ts";
import { defaultSystemNamespace } from "../resolver/settings.ts";
import type { KubeObject } from "../runtime/kube-object.ts";

export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
}

export interface RbacOptions {
  /** The controller's namespace (CARM ConfigMaps, Secrets, Lease, ServiceAccount); "ack-system". */
  readonly systemNamespace?: string;
  /** `--watch-namespace`: namespace-scoped RBAC for these namespaces; absent or empty: cluster-wide. */
  readonly watchNamespaces?: readonly string[];
  /** The managed kinds (src/api/kinds.ts by default). */
  readonly kinds?: readonly ResourceKind[];
}

/** The configuration kinds the controller reads (crossrole's own API). */
interface ConfigKind {
  readonly group: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

const configKinds: readonly ConfigKind[] = [iamRoleSelectorCrdSource, ...identityCrdSources].map((s) => ({
  group: s.names.group,
  plural: s.names.plural,
  namespaced: s.scope === "Namespaced",
}));

export const serviceAccountName = "crossrole";
const rbacGroup = "rbac.authorization.k8s.io";
const rbacApiVersion = `${rbacGroup}/v1`;
const labels = { "app.kubernetes.io/name": "crossrole", "app.kubernetes.io/component": "controller" };
const read = ["get", "list", "watch"] as const;

/**
 * Names of the RBAC objects. Cluster-scoped ones carry the system namespace unless it is the
 * default, so that installs with different system namespaces do not overwrite each other.
 */
export function rbacNames(systemNamespace: string = defaultSystemNamespace) {
  const suffix = systemNamespace === defaultSystemNamespace ? "" : `-${systemNamespace}`;
  return {
    serviceAccount: serviceAccountName,
    /** Cluster-wide install: everything but the system namespace. */
    clusterRole: `crossrole${suffix}`,
    /** Namespace-scoped install: watched Namespace objects and cluster-scoped configuration. */
    configReader: `crossrole-config-reader${suffix}`,
    /** Role in the system namespace. */
    systemRole: "crossrole-system",
    /** Role in each watched namespace (namespace-scoped install). */
    namespaceRole: "crossrole-resources",
    /** Role in `default` for Events about cluster-scoped objects (namespace-scoped install). */
    clusterEventsRole: `crossrole-cluster-events${suffix}`,
  } as const;
}

/** get/list/watch/patch on each managed kind (finalizers and late-initialised spec are patches), patch on its status. */
export function resourceRules(kinds: readonly ResourceKind[] = resourceKinds): PolicyRule[] {
  return [
    ...kinds.flatMap((k) => [
      { apiGroups: [k.group], resources: [k.plural], verbs: ["get", "list", "watch", "patch"] },
      { apiGroups: [k.group], resources: [`${k.plural}/status`], verbs: ["patch"] },
    ]),
    // Secrets the resources' specs reference (a DBInstance's master password), read in the
    // resource's own namespace only; watched for changes with their values stripped from the cache.
    ...(kinds.some((k) => k.readsSecrets) ? [{ apiGroups: [""], resources: ["secrets"], verbs: read }] : []),
  ];
}

/** Events about the managed resources (the recorder creates one, then patches its count). */
const eventRule: PolicyRule = { apiGroups: [""], resources: ["events"], verbs: ["create", "patch"] };

/** TokenRequests for the ServiceAccounts AWSServiceAccountIdentities name. */
const tokenRule: PolicyRule = { apiGroups: [""], resources: ["serviceaccounts/token"], verbs: ["create"] };

/** get/list/watch on the configuration kinds of one scope, one rule per API group. */
function configRules(namespaced: boolean): PolicyRule[] {
  const byGroup = new Map<string, string[]>();
  for (const k of configKinds.filter((c) => c.namespaced === namespaced)) {
    byGroup.set(k.group, [...(byGroup.get(k.group) ?? []), k.plural]);
  }
  return [...byGroup].map(([group, plurals]) => ({ apiGroups: [group], resources: plurals, verbs: read }));
}

/**
 * patch on the identity kinds of one scope and their status: the in-use finalizer (a merge
 * patch) and status.usageCount / users / conditions (deletion protection, DESIGN §2.5).
 */
function identityWriteRules(namespaced: boolean): PolicyRule[] {
  const kinds = identityCrdSources.filter((s) => (s.scope === "Namespaced") === namespaced);
  if (kinds.length === 0) return [];
  return [
    {
      apiGroups: [identityGroup],
      resources: kinds.flatMap((k) => [k.names.plural, `${k.names.plural}/status`]),
      verbs: ["patch"],
    },
  ];
}

/**
 * patch on IAMRoleSelectors' status only (status.matchedResources and Ready, written by the
 * leader); never their spec: selectors are the administrator's.
 */
const selectorStatusRule: PolicyRule = {
  apiGroups: [iamRoleSelectorCrdSource.names.group],
  resources: [`${iamRoleSelectorCrdSource.names.plural}/status`],
  verbs: ["patch"],
};

/**
 * The system namespace: CARM ConfigMaps, static-identity Secrets, the controller's key Secret, its
 * records (ConfigMaps), the leader-election Lease, and Events about the CARM ConfigMaps' problems
 * and its records (namespace-scoped installs grant Events nowhere else there).
 */
export function systemNamespaceRules(): PolicyRule[] {
  return [
    { apiGroups: [""], resources: ["configmaps", "secrets"], verbs: read },
    // The key that seals the controller's records in status (src/controller/controller-key.ts),
    // created by the first controller that needs it. Only create: Kubernetes cannot narrow create
    // by name, and no Secret is ever updated or deleted.
    { apiGroups: [""], resources: ["secrets"], verbs: ["create"] },
    // The controller's own records, where tenants cannot write (src/controller/records/): which
    // referrers used a reference in AWS, and the creates released while they could still land.
    // ConfigMaps labelled crossrole.dev/record; Kubernetes cannot narrow the verbs to them.
    { apiGroups: [""], resources: ["configmaps"], verbs: ["create", "patch", "delete"] },
    // Leader election (get, create, update); sharding's member Leases also list, watch and delete.
    {
      apiGroups: ["coordination.k8s.io"],
      resources: ["leases"],
      verbs: ["get", "list", "watch", "create", "update", "delete"],
    },
    eventRule,
  ];
}

/** Cluster-wide install: everything outside the system namespace, in every namespace. */
export function clusterRules(kinds: readonly ResourceKind[] = resourceKinds): PolicyRule[] {
  return [
    ...resourceRules(kinds),
    eventRule,
    { apiGroups: [""], resources: ["namespaces"], verbs: read },
    ...configRules(false),
    ...configRules(true),
    ...identityWriteRules(false),
    ...identityWriteRules(true),
    selectorStatusRule,
    tokenRule,
  ];
}

/** Namespace-scoped install, per watched namespace: the managed kinds and what they need there. */
export function watchedNamespaceRules(kinds: readonly ResourceKind[] = resourceKinds): PolicyRule[] {
  return [...resourceRules(kinds), eventRule, ...configRules(true), ...identityWriteRules(true), tokenRule];
}

/**
 * Namespace-scoped install, the only cluster-scoped grant: the watched Namespace objects by name
 * (the controller watches each with `fieldSelector=metadata.name=<ns>`, which the apiserver
 * authorizes against that name), the cluster-scoped configuration kinds, and patch on the
 * cluster-scoped identities (in-use finalizer, status) and on IAMRoleSelectors' status. No user data.
 */
export function configReaderRules(watchNamespaces: readonly string[]): PolicyRule[] {
  return [
    { apiGroups: [""], resources: ["namespaces"], resourceNames: watchNamespaces, verbs: read },
    ...configRules(false),
    ...identityWriteRules(false),
    selectorStatusRule,
  ];
}

/** Namespace-scoped install: Events about cluster-scoped objects, which live in `default`. */
export const clusterEventsNamespace = "default";

/** Namespace names from a flag value or list: trimmed, de-duplicated, validated (RFC 1123 labels). */
export function parseNamespaces(values: string | readonly string[]): string[] {
  const list = (typeof values === "string" ? values.split(",") : values).map((s) => s.trim());
  const out: string[] = [];
  for (const ns of list) {
    if (ns === "") continue;
    assertNamespaceName(ns);
    if (!out.includes(ns)) out.push(ns);
  }
  return out;
}

export function assertNamespaceName(ns: string): void {
  if (ns.length > 63 || !matchesPattern("dnsLabel", ns)) {
    throw new Error(
      `"${ns}" is not a namespace name: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters`,
    );
  }
}

function meta(name: string, namespace?: string) {
  return { name, ...(namespace === undefined ? {} : { namespace }), labels: { ...labels } };
}

function role(name: string, namespace: string, rules: readonly PolicyRule[]): KubeObject {
  return { apiVersion: rbacApiVersion, kind: "Role", metadata: meta(name, namespace), rules };
}

function clusterRole(name: string, rules: readonly PolicyRule[]): KubeObject {
  return { apiVersion: rbacApiVersion, kind: "ClusterRole", metadata: meta(name), rules };
}

function binding(
  kind: "RoleBinding" | "ClusterRoleBinding",
  name: string,
  namespace: string | undefined,
  roleRef: { kind: "Role" | "ClusterRole"; name: string },
  systemNamespace: string,
): KubeObject {
  return {
    apiVersion: rbacApiVersion,
    kind,
    metadata: meta(name, namespace),
    roleRef: { apiGroup: rbacGroup, ...roleRef },
    subjects: [{ kind: "ServiceAccount", name: serviceAccountName, namespace: systemNamespace }],
  };
}

/**
 * The controller's ServiceAccount and its RBAC: cluster-wide without `watchNamespaces`,
 * namespace-scoped with them. Namespaces themselves are not included (they must exist).
 */
export function rbacObjects(opts: RbacOptions = {}): KubeObject[] {
  const sys = opts.systemNamespace ?? defaultSystemNamespace;
  assertNamespaceName(sys);
  const watch = parseNamespaces(opts.watchNamespaces ?? []);
  const kinds = opts.kinds ?? resourceKinds;
  const n = rbacNames(sys);
  const objects: KubeObject[] = [
    { apiVersion: "v1", kind: "ServiceAccount", metadata: meta(n.serviceAccount, sys) },
    role(n.systemRole, sys, systemNamespaceRules()),
    binding("RoleBinding", n.systemRole, sys, { kind: "Role", name: n.systemRole }, sys),
  ];
  if (watch.length === 0) {
    objects.push(
      clusterRole(n.clusterRole, clusterRules(kinds)),
      binding(
        "ClusterRoleBinding",
        n.clusterRole,
        undefined,
        { kind: "ClusterRole", name: n.clusterRole },
        sys,
      ),
    );
    return objects;
  }
  objects.push(
    clusterRole(n.configReader, configReaderRules(watch)),
    binding(
      "ClusterRoleBinding",
      n.configReader,
      undefined,
      { kind: "ClusterRole", name: n.configReader },
      sys,
    ),
  );
  objects.push(
    role(n.clusterEventsRole, clusterEventsNamespace, [eventRule]),
    binding(
      "RoleBinding",
      n.clusterEventsRole,
      clusterEventsNamespace,
      { kind: "Role", name: n.clusterEventsRole },
      sys,
    ),
  );
  for (const ns of watch) {
    objects.push(
      role(n.namespaceRole, ns, watchedNamespaceRules(kinds)),
      binding("RoleBinding", n.namespaceRole, ns, { kind: "Role", name: n.namespaceRole }, sys),
    );
  }
  return objects;
}

/** Multi-document YAML: `header` (comment lines), then one document per object. */
export function rbacToYaml(objects: readonly KubeObject[], header = ""): string {
  return (
    header +
    // version 1.1: quoted where kubectl's YAML 1.1 would read a string as a boolean or number.
    objects
      .map((o) => `---\n${stringify(o, { lineWidth: 0, aliasDuplicateObjects: false, version: "1.1" })}`)
      .join("")
  );
}

/** What `crossrole rbac` prints: a comment with the equivalent command line, then the objects. */
export function rbacManifest(opts: RbacOptions = {}): string {
  const sys = opts.systemNamespace ?? defaultSystemNamespace;
  const watch = parseNamespaces(opts.watchNamespaces ?? []);
  const command = [
    "crossrole rbac",
    ...(watch.length > 0 ? [`--watch-namespace=${watch.join(",")}`] : []),
    `--system-namespace=${sys}`,
  ].join(" ");
  return rbacToYaml(rbacObjects({ ...opts, systemNamespace: sys, watchNamespaces: watch }), `# ${command}\n`);
}

/** config/rbac/cluster.yaml, as `npm run generate:rbac` writes it. */
export function clusterRbacFile(): string {
  return `# generated by npm run generate:rbac; do not edit\n${rbacManifest()}`;
}
