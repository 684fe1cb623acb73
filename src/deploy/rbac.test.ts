// The controller's RBAC (src/deploy/rbac.ts): what each install grants, checked rule by rule the
// way the apiserver's RBAC authorizer evaluates them, against what the controller's informers
// and writes need (src/controller/config-types.ts, the managed kinds) and what it must NOT get.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { parseAllDocuments } from "yaml";
import { resourceKinds } from "../api/kinds.ts";
import {
  configMapType,
  iamRoleSelectorType,
  identityTypes,
  namespaceType,
  secretType,
} from "../controller/config-types.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import {
  clusterRbacFile,
  type PolicyRule,
  parseNamespaces,
  rbacManifest,
  rbacNames,
  rbacObjects,
} from "./rbac.ts";

interface Ask {
  readonly group: string;
  readonly resource: string;
  readonly verb: string;
  /** The request's namespace; undefined for a cluster-scoped request or a cluster-wide list. */
  readonly namespace?: string;
  /** The object's name (or a list/watch's metadata.name field selector). */
  readonly name?: string;
}

type Rbac = KubeObject & {
  rules?: PolicyRule[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace: string }[];
};

function ruleAllows(rule: PolicyRule, a: Ask): boolean {
  return (
    (rule.apiGroups.includes(a.group) || rule.apiGroups.includes("*")) &&
    (rule.resources.includes(a.resource) || rule.resources.includes("*")) &&
    (rule.verbs.includes(a.verb) || rule.verbs.includes("*")) &&
    (rule.resourceNames === undefined ||
      rule.resourceNames.length === 0 ||
      (a.name !== undefined && rule.resourceNames.includes(a.name)))
  );
}

/** Whether the `crossrole` ServiceAccount in `sys` may do `a`, given these objects (RBAC semantics). */
function allowed(objects: readonly KubeObject[], sys: string, a: Ask): boolean {
  const roles = objects as Rbac[];
  const find = (kind: string, name: string, ns?: string) =>
    roles.find((r) => r.kind === kind && r.metadata.name === name && r.metadata.namespace === ns);
  for (const b of roles) {
    if (b.kind !== "RoleBinding" && b.kind !== "ClusterRoleBinding") continue;
    if (
      !b.subjects?.some((s) => s.kind === "ServiceAccount" && s.name === "crossrole" && s.namespace === sys)
    )
      continue;
    if (b.kind === "RoleBinding" && b.metadata.namespace !== a.namespace) continue;
    const ref = b.roleRef;
    if (!ref) continue;
    const role =
      ref.kind === "ClusterRole"
        ? find("ClusterRole", ref.name)
        : find("Role", ref.name, b.metadata.namespace);
    if (role?.rules?.some((r) => ruleAllows(r, a))) return true;
  }
  return false;
}

const watched = ["team-a", "team-b"];
const sys = "ack-system";
const cluster = rbacObjects({ systemNamespace: sys });
const scoped = rbacObjects({ systemNamespace: sys, watchNamespaces: watched });
// The same installs for kinds whose specs reference no Secret (all but DBInstance).
const secretFree = resourceKinds.filter((k) => !k.readsSecrets);
const clusterNoSecretKinds = rbacObjects({ systemNamespace: sys, kinds: secretFree });
const scopedNoSecretKinds = rbacObjects({
  systemNamespace: sys,
  watchNamespaces: watched,
  kinds: secretFree,
});

describe("cluster-wide RBAC", () => {
  test("the managed kinds: get/list/watch/patch in every namespace and cluster-wide, status by patch", () => {
    for (const k of resourceKinds) {
      for (const verb of ["get", "list", "watch", "patch"]) {
        assert.ok(allowed(cluster, sys, { group: k.group, resource: k.plural, verb }), `${verb} ${k.plural}`);
        assert.ok(allowed(cluster, sys, { group: k.group, resource: k.plural, verb, namespace: "any" }));
      }
      assert.ok(
        allowed(cluster, sys, {
          group: k.group,
          resource: `${k.plural}/status`,
          verb: "patch",
          namespace: "x",
        }),
      );
      for (const verb of ["create", "delete", "deletecollection", "update"])
        assert.ok(!allowed(cluster, sys, { group: k.group, resource: k.plural, verb, namespace: "x" }), verb);
    }
  });

  test("identities: patch (in-use finalizer) and status patch everywhere; never create, update or delete", () => {
    for (const t of identityTypes) {
      for (const resource of [t.plural, `${t.plural}/status`]) {
        assert.ok(allowed(cluster, sys, { group: t.group, resource, verb: "patch" }), resource);
        assert.ok(
          allowed(cluster, sys, { group: t.group, resource, verb: "patch", namespace: "x" }),
          resource,
        );
      }
      for (const verb of ["create", "update", "delete"])
        assert.ok(!allowed(cluster, sys, { group: t.group, resource: t.plural, verb, namespace: "x" }), verb);
    }
    for (const t of [namespaceType, iamRoleSelectorType])
      assert.ok(!allowed(cluster, sys, { group: t.group, resource: t.plural, verb: "patch" }), t.plural);
  });

  test("IAMRoleSelectors: status patch only (matchedResources, Ready); the spec stays the administrator's", () => {
    for (const objects of [cluster, scoped]) {
      const t = iamRoleSelectorType;
      assert.ok(allowed(objects, sys, { group: t.group, resource: `${t.plural}/status`, verb: "patch" }));
      for (const verb of ["patch", "update", "create", "delete"])
        assert.ok(!allowed(objects, sys, { group: t.group, resource: t.plural, verb }), verb);
      assert.ok(!allowed(objects, sys, { group: t.group, resource: `${t.plural}/status`, verb: "update" }));
    }
  });

  test("Events about the CARM ConfigMaps in the system namespace, in both install shapes", () => {
    for (const objects of [cluster, scoped]) {
      for (const verb of ["create", "patch"])
        assert.ok(allowed(objects, sys, { group: "", resource: "events", verb, namespace: sys }), verb);
    }
  });

  test("Events, Namespaces, IAMRoleSelectors, identities and TokenRequests as the controller uses them", () => {
    assert.ok(allowed(cluster, sys, { group: "", resource: "events", verb: "create", namespace: "x" }));
    assert.ok(allowed(cluster, sys, { group: "", resource: "events", verb: "patch", namespace: "x" }));
    for (const t of [namespaceType, iamRoleSelectorType, ...identityTypes]) {
      for (const verb of ["list", "watch"])
        assert.ok(allowed(cluster, sys, { group: t.group, resource: t.plural, verb }), `${verb} ${t.plural}`);
      assert.ok(!allowed(cluster, sys, { group: t.group, resource: t.plural, verb: "update" }), t.plural);
    }
    assert.ok(
      allowed(cluster, sys, { group: "", resource: "serviceaccounts/token", verb: "create", namespace: "x" }),
    );
  });

  test("ConfigMaps, Secrets and Leases only in the system namespace (kinds that reference no Secret)", () => {
    for (const t of [configMapType, secretType]) {
      for (const verb of ["get", "list", "watch"]) {
        const rbac = t === secretType ? clusterNoSecretKinds : cluster;
        assert.ok(allowed(rbac, sys, { group: "", resource: t.plural, verb, namespace: sys }), verb);
        assert.ok(!allowed(rbac, sys, { group: "", resource: t.plural, verb, namespace: "other" }), verb);
        assert.ok(!allowed(rbac, sys, { group: "", resource: t.plural, verb }), `cluster-wide ${verb}`);
      }
    }
    for (const verb of ["get", "create", "update"]) {
      const lease = { group: "coordination.k8s.io", resource: "leases", verb };
      assert.ok(allowed(cluster, sys, { ...lease, namespace: sys }), verb);
      assert.ok(!allowed(cluster, sys, { ...lease, namespace: "other" }), verb);
    }
  });

  test("one ServiceAccount, one ClusterRole and its binding, one Role in the system namespace", () => {
    assert.deepEqual(
      cluster.map((o) => `${o.kind} ${o.metadata.namespace ?? ""}/${o.metadata.name}`),
      [
        "ServiceAccount ack-system/crossrole",
        "Role ack-system/crossrole-system",
        "RoleBinding ack-system/crossrole-system",
        "ClusterRole /crossrole",
        "ClusterRoleBinding /crossrole",
      ],
    );
  });
});

describe("namespace-scoped RBAC (--watch-namespace)", () => {
  test("the managed kinds, Events, service-account identities and TokenRequests only in the watched namespaces", () => {
    const asks: Omit<Ask, "namespace">[] = [
      ...resourceKinds.flatMap((k) => [
        ...["get", "list", "watch", "patch"].map((verb) => ({ group: k.group, resource: k.plural, verb })),
        { group: k.group, resource: `${k.plural}/status`, verb: "patch" },
      ]),
      { group: "", resource: "events", verb: "create" },
      { group: "", resource: "events", verb: "patch" },
      { group: "identity.crossrole.dev", resource: "awsserviceaccountidentities", verb: "list" },
      { group: "identity.crossrole.dev", resource: "awsserviceaccountidentities", verb: "watch" },
      { group: "", resource: "serviceaccounts/token", verb: "create" },
    ];
    for (const a of asks) {
      for (const ns of watched)
        assert.ok(allowed(scoped, sys, { ...a, namespace: ns }), `${a.verb} ${a.resource} in ${ns}`);
      assert.ok(!allowed(scoped, sys, { ...a, namespace: "other" }), `${a.verb} ${a.resource} in other`);
      assert.ok(!allowed(scoped, sys, a), `${a.verb} ${a.resource} cluster-wide`);
    }
  });

  test("Namespace objects: only the watched ones, by name; never a cluster-wide list", () => {
    for (const verb of ["get", "list", "watch"]) {
      for (const name of watched)
        assert.ok(allowed(scoped, sys, { group: "", resource: "namespaces", verb, name }), `${verb} ${name}`);
      assert.ok(!allowed(scoped, sys, { group: "", resource: "namespaces", verb, name: "kube-system" }));
      assert.ok(!allowed(scoped, sys, { group: "", resource: "namespaces", verb }), `${verb} all namespaces`);
    }
  });

  test("the cluster-scoped configuration kinds are read cluster-wide (no namespaced way exists)", () => {
    for (const t of [iamRoleSelectorType, ...identityTypes.filter((t) => !t.namespaced)]) {
      for (const verb of ["get", "list", "watch"])
        assert.ok(allowed(scoped, sys, { group: t.group, resource: t.plural, verb }), `${verb} ${t.plural}`);
    }
  });

  test("the one ClusterRole grants nothing on user data: no managed kind, Secret, ConfigMap, Event or token", () => {
    const clusterRoles = (scoped as Rbac[]).filter((o) => o.kind === "ClusterRole");
    assert.deepEqual(
      clusterRoles.map((r) => r.metadata.name),
      ["crossrole-config-reader"],
    );
    const rules = clusterRoles[0]?.rules ?? [];
    const groups = new Set(rules.flatMap((r) => r.apiGroups));
    assert.deepEqual([...groups].sort(), ["", "identity.crossrole.dev", "services.k8s.aws"]);
    const readRules = rules.filter((r) => r.verbs.includes("get"));
    assert.deepEqual(readRules.flatMap((r) => r.resources).sort(), [
      "awscontrolleridentities",
      "awsroleidentities",
      "awsstaticidentities",
      "iamroleselectors",
      "namespaces",
    ]);
    assert.deepEqual(rules.find((r) => r.resources.includes("namespaces"))?.resourceNames, watched);
    for (const r of readRules) assert.deepEqual([...r.verbs].sort(), ["get", "list", "watch"]);
    // The only writes: patch on the cluster-scoped identities (in-use finalizer) and their
    // status, and on IAMRoleSelectors' status (matchedResources, Ready).
    const writeRules = rules.filter((r) => !r.verbs.includes("get"));
    assert.deepEqual(
      writeRules.flatMap((r) => r.apiGroups),
      ["identity.crossrole.dev", "services.k8s.aws"],
    );
    assert.deepEqual(
      writeRules.flatMap((r) => r.verbs),
      ["patch", "patch"],
    );
    assert.deepEqual(writeRules.flatMap((r) => r.resources).sort(), [
      "awscontrolleridentities",
      "awscontrolleridentities/status",
      "awsroleidentities",
      "awsroleidentities/status",
      "awsstaticidentities",
      "awsstaticidentities/status",
      "iamroleselectors/status",
    ]);
  });

  test("identities: patch (in-use finalizer) and status patch where they live, nothing more", () => {
    for (const t of identityTypes) {
      for (const resource of [t.plural, `${t.plural}/status`]) {
        const ask = { group: t.group, resource, verb: "patch" };
        if (t.namespaced) {
          for (const ns of watched)
            assert.ok(allowed(scoped, sys, { ...ask, namespace: ns }), `${resource} in ${ns}`);
          assert.ok(!allowed(scoped, sys, { ...ask, namespace: "other" }), `${resource} in other`);
        } else {
          assert.ok(allowed(scoped, sys, ask), resource);
        }
      }
      for (const verb of ["create", "update", "delete"])
        assert.ok(
          !allowed(scoped, sys, { group: t.group, resource: t.plural, verb, namespace: watched[0] }),
          verb,
        );
    }
  });

  test("Events about cluster-scoped objects: only in namespace default, by its own Role", () => {
    for (const verb of ["create", "patch"]) {
      assert.ok(allowed(scoped, sys, { group: "", resource: "events", verb, namespace: "default" }), verb);
      assert.ok(!allowed(scoped, sys, { group: "", resource: "events", verb, namespace: "other" }), verb);
    }
    const inDefault = (scoped as Rbac[]).filter((o) => o.metadata.namespace === "default");
    assert.deepEqual(
      inDefault.map((o) => `${o.kind}/${o.metadata.name}`),
      ["Role/crossrole-cluster-events", "RoleBinding/crossrole-cluster-events"],
    );
    assert.deepEqual(inDefault[0]?.rules, [
      { apiGroups: [""], resources: ["events"], verbs: ["create", "patch"] },
    ]);
    assert.equal(rbacNames("team-x-system").clusterEventsRole, "crossrole-cluster-events-team-x-system");
  });

  test("ConfigMaps, Secrets and Leases only in the system namespace (kinds that reference no Secret)", () => {
    for (const resource of ["configmaps", "secrets"]) {
      const rbac = resource === "secrets" ? scopedNoSecretKinds : scoped;
      assert.ok(allowed(rbac, sys, { group: "", resource, verb: "watch", namespace: sys }));
      for (const ns of [...watched, "other"])
        assert.ok(
          !allowed(rbac, sys, { group: "", resource, verb: "get", namespace: ns }),
          `${resource} in ${ns}`,
        );
    }
    assert.ok(
      allowed(scoped, sys, {
        group: "coordination.k8s.io",
        resource: "leases",
        verb: "update",
        namespace: sys,
      }),
    );
  });

  test("a Role and RoleBinding per watched namespace; a system namespace that is also watched gets both Roles", () => {
    const objs = rbacObjects({ watchNamespaces: ["ack-system", "a"] });
    const inSys = objs
      .filter((o) => o.metadata.namespace === "ack-system")
      .map((o) => `${o.kind}/${o.metadata.name}`);
    assert.deepEqual(inSys, [
      "ServiceAccount/crossrole",
      "Role/crossrole-system",
      "RoleBinding/crossrole-system",
      "Role/crossrole-resources",
      "RoleBinding/crossrole-resources",
    ]);
    const names = objs.map((o) => `${o.kind} ${o.metadata.namespace ?? ""}/${o.metadata.name}`);
    assert.equal(new Set(names).size, names.length, "no two objects share a name");
  });
});

describe("options", () => {
  test("another system namespace: cluster-scoped names carry it, subjects point at it", () => {
    const objs = rbacObjects({ systemNamespace: "team-x-system", watchNamespaces: ["a"] }) as Rbac[];
    assert.deepEqual(rbacNames("team-x-system").configReader, "crossrole-config-reader-team-x-system");
    assert.ok(
      objs.some(
        (o) => o.kind === "ClusterRole" && o.metadata.name === "crossrole-config-reader-team-x-system",
      ),
    );
    for (const b of objs.filter((o) => o.subjects))
      assert.deepEqual(b.subjects, [
        { kind: "ServiceAccount", name: "crossrole", namespace: "team-x-system" },
      ]);
    assert.ok(
      allowed(objs, "team-x-system", {
        group: "",
        resource: "secrets",
        verb: "list",
        namespace: "team-x-system",
      }),
    );
    assert.equal(rbacNames().clusterRole, "crossrole");
  });

  test("namespace lists are trimmed, de-duplicated and validated", () => {
    assert.deepEqual(parseNamespaces(" a, b,,a "), ["a", "b"]);
    assert.deepEqual(parseNamespaces([]), []);
    assert.throws(() => parseNamespaces("Team_A"), /"Team_A" is not a namespace name/);
    assert.throws(() => rbacObjects({ systemNamespace: "" }), /is not a namespace name/);
    assert.throws(() => parseNamespaces("x".repeat(64)), /at most 63/);
  });

  test("the manifest parses back to the same objects, without YAML aliases", () => {
    const text = rbacManifest({ watchNamespaces: watched });
    assert.match(
      text,
      /^# crossrole rbac --watch-namespace=team-a,team-b --system-namespace=ack-system\n---\n/,
    );
    assert.doesNotMatch(text, /[&*]a\d/);
    const docs = parseAllDocuments(text).map((d) => d.toJS() as unknown);
    assert.deepEqual(docs, JSON.parse(JSON.stringify(rbacObjects({ watchNamespaces: watched }))));
  });

  test("config/rbac/cluster.yaml is the generated cluster-wide manifest", async () => {
    const file = await readFile(new URL("../../config/rbac/cluster.yaml", import.meta.url), "utf8");
    assert.equal(file, clusterRbacFile());
  });
});

describe("Secrets a kind's spec references (DBInstance's masterUserPassword)", () => {
  test("read (get, list, watch) where the resources live, never written; namespace installs stay in their namespaces", () => {
    assert.ok(resourceKinds.some((k) => k.kind === "DBInstance" && k.readsSecrets));
    for (const verb of ["get", "list", "watch"]) {
      assert.ok(allowed(cluster, sys, { group: "", resource: "secrets", verb }), `cluster-wide ${verb}`);
      for (const ns of watched)
        assert.ok(
          allowed(scoped, sys, { group: "", resource: "secrets", verb, namespace: ns }),
          `${verb} in ${ns}`,
        );
      assert.ok(
        !allowed(scoped, sys, { group: "", resource: "secrets", verb, namespace: "other" }),
        `${verb} in other`,
      );
      assert.ok(!allowed(scoped, sys, { group: "", resource: "secrets", verb }), `cluster-wide ${verb}`);
    }
    for (const verb of ["create", "update", "patch", "delete"]) {
      assert.ok(!allowed(cluster, sys, { group: "", resource: "secrets", verb, namespace: "team-a" }), verb);
      assert.ok(!allowed(scoped, sys, { group: "", resource: "secrets", verb, namespace: "team-a" }), verb);
    }
  });
});
