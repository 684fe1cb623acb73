// The Helm chart helm/crossrole/ and the plain manifests config/default/, with the pinned helm
// (scripts/build-helm.sh) and a real kube-apiserver: `helm lint` is clean; `helm install` and
// `helm uninstall` work; what `helm template` renders for installScope cluster and namespace is
// accepted by server-side apply (strict field validation), and config/default/ by
// `kubectl apply --server-side`; its RBAC is exactly what src/deploy/rbac.ts builds for the same
// install (so the namespace-scoped install has no ClusterRole beyond the narrow config reader);
// the Deployment's args, env and securityContext are what the values say; and a typo in values
// or an unknown feature gate fails lint and template with a message naming the key.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseAllDocuments } from "yaml";
import { chartDir } from "../../src/deploy/chart.ts";
import { configReaderRules, rbacObjects } from "../../src/deploy/rbac.ts";
import { type HelmResult, helmLint, helmTemplate, runHelm } from "../../src/local-stack/helm.ts";
import { type Crd, waitForCrds } from "../../src/local-stack/install-crds.ts";
import { applyServerSide } from "../../src/local-stack/manifests.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { binaries, helmBinary, repoRoot } from "../../src/local-stack/versions.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { crossroleVersion } from "../../src/version.ts";

const chart = join(repoRoot, chartDir);
const fieldManager = "crossrole-chart-test";
type Values = Record<string, unknown>;

let helm: string;
let stack: Stack;
let kube: KubeClient;

before(async () => {
  helm = helmBinary(); // throws, saying how to build it, when missing: never a silent skip
  stack = await startStack({ aws: false });
  kube = createKubeClient(stack.kubeConfig);
});
after(() => stack?.stop());

function parse(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`rendered YAML does not parse: ${d.errors[0]?.message}`);
      return d.toJS() as KubeObject | null;
    })
    .filter((o): o is KubeObject => o !== null);
}

function ok(r: HelmResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

async function render(namespace: string, values: Values = {}, includeCrds = false): Promise<KubeObject[]> {
  const r = await helmTemplate(helm, chart, { namespace, values, includeCrds });
  return parse(ok(r, `helm template -n ${namespace} ${JSON.stringify(values)}`));
}

const id = (o: KubeObject) =>
  `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name}`;
const ofKind = (objects: readonly KubeObject[], kind: string) => objects.filter((o) => o.kind === kind);
/** The one object of `kind`'s spec. */
function specOf<T>(objects: readonly KubeObject[], kind: string): T {
  const [o, ...more] = ofKind(objects, kind);
  assert.ok(o && more.length === 0, `exactly one ${kind}`);
  return o["spec"] as T;
}
const rbacKinds = new Set(["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding", "ServiceAccount"]);

/** Objects without labels, sorted by id: to compare RBAC with rbac.ts's (the chart adds Helm's labels). */
function unlabelled(objects: readonly KubeObject[]): KubeObject[] {
  return objects
    .map((o) => {
      const { labels: _labels, ...metadata } = o.metadata;
      return { ...o, metadata };
    })
    .sort((a, b) => id(a).localeCompare(id(b)));
}

function deployment(objects: readonly KubeObject[]) {
  const [d, ...more] = ofKind(objects, "Deployment");
  assert.ok(d && more.length === 0, "exactly one Deployment");
  const spec = d.spec as {
    replicas: number;
    strategy: { type: string };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        serviceAccountName: string;
        securityContext: Record<string, unknown>;
        containers: {
          image: string;
          args: string[];
          env: { name: string; value: string }[];
          securityContext: Record<string, unknown>;
          livenessProbe: { httpGet: { path: string; port: string } };
          readinessProbe: { httpGet: { path: string; port: string } };
          ports: { name: string; containerPort: number }[];
        }[];
      };
    };
  };
  const container = spec.template.spec.containers[0]!;
  return { d, spec, container };
}

/** Namespaces (server-side applied) so that the rendered objects have somewhere to go. */
async function namespaces(...names: string[]): Promise<void> {
  await applyServerSide(
    kube,
    names.map((name) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name } })),
    fieldManager,
  );
}

/** Server-side applies `objects` (CRDs first, then waits until they are served); returns what was stored. */
async function apply(objects: readonly KubeObject[]): Promise<KubeObject[]> {
  const crds = ofKind(objects, "CustomResourceDefinition");
  const stored = await applyServerSide(kube, crds, fieldManager);
  await waitForCrds(kube, crds as Crd[]);
  return [
    ...stored,
    ...(await applyServerSide(
      kube,
      objects.filter((o) => !crds.includes(o)),
      fieldManager,
    )),
  ];
}

describe("helm lint", () => {
  test("is clean (--strict) with the default values and for a namespace-scoped install", async () => {
    for (const values of [{}, { installScope: "namespace", watchNamespace: ["a", "b"] }]) {
      const out = ok(await helmLint(helm, chart, { values }), `helm lint ${JSON.stringify(values)}`);
      assert.match(out, /1 chart\(s\) linted, 0 chart\(s\) failed/);
      assert.doesNotMatch(out, /\[(WARNING|ERROR)\]/, out);
    }
  });
});

describe("helm install and uninstall on the real apiserver", () => {
  const sys = "helm-system";
  test("installs a namespace-scoped release: CRDs (read by helm's own YAML parser), RBAC, Deployment; NOTES say what it watches", async () => {
    await namespaces("inst-a");
    const install = await runHelm(
      helm,
      [
        ...["install", "crossrole", chart, "-n", sys, "--create-namespace"],
        ...["--set", "installScope=namespace", "--set", "watchNamespace={inst-a}"],
      ],
      stack.kubeconfigPath,
    );
    const out = ok(install, "helm install");
    assert.match(out, /STATUS: deployed/);
    assert.match(out, new RegExp(`crossrole \\S+ runs in namespace ${sys}, reconciling only: inst-a\\.`));
    // An enum value YAML 1.1 would read as a boolean arrives as the string it is.
    const table = await kube.request<Crd & { spec: { versions: { schema: unknown }[] } }>({
      method: "GET",
      path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/tables.dynamodb.services.k8s.aws",
    });
    assert.match(JSON.stringify(table.spec.versions[0]?.schema), /"enum":\["S","N","B"\]/);
    const configReader = `/apis/rbac.authorization.k8s.io/v1/clusterroles/crossrole-config-reader-${sys}`;
    await kube.request({ method: "GET", path: configReader });
    await kube.request({ method: "GET", path: `/apis/apps/v1/namespaces/${sys}/deployments/crossrole` });
    await kube.request({
      method: "GET",
      path: "/apis/rbac.authorization.k8s.io/v1/namespaces/inst-a/roles/crossrole-resources",
    });

    ok(await runHelm(helm, ["uninstall", "crossrole", "-n", sys], stack.kubeconfigPath), "helm uninstall");
    await assert.rejects(kube.request({ method: "GET", path: configReader }), /404|not found/i);
  });
});

describe("installScope: cluster (the default values)", () => {
  let objects: KubeObject[];
  before(async () => {
    objects = await render("ack-system", {}, true);
  });

  test("renders the CRDs, the ServiceAccount, rbac.ts's cluster-wide RBAC, the Deployment and the metrics Service", async () => {
    assert.deepEqual([...new Set(objects.map((o) => o.kind))].sort(), [
      "ClusterRole",
      "ClusterRoleBinding",
      "CustomResourceDefinition",
      "Deployment",
      "Role",
      "RoleBinding",
      "Service",
      "ServiceAccount",
    ]);
    const crdFiles = (await readFile(join(repoRoot, "config/default/crossrole.yaml"), "utf8")).match(
      /^# Source: crossrole\/crds\//gm,
    );
    assert.equal(ofKind(objects, "CustomResourceDefinition").length, crdFiles?.length);
    assert.deepEqual(
      unlabelled(objects.filter((o) => rbacKinds.has(o.kind ?? ""))),
      unlabelled(rbacObjects({ systemNamespace: "ack-system" })),
    );
    // rbac.ts's labels are kept; Helm's are added.
    for (const o of objects.filter((x) => x.kind !== "CustomResourceDefinition")) {
      assert.equal(o.metadata.labels?.["app.kubernetes.io/name"], "crossrole", id(o));
      assert.equal(o.metadata.labels?.["app.kubernetes.io/managed-by"], "Helm", id(o));
    }
  });

  test("two controllers never act at once: leader election by default (rolling update), Recreate without it", async () => {
    assert.equal(deployment(objects).spec.strategy.type, "RollingUpdate");
    assert.ok(deployment(objects).container.args.includes("--enable-leader-election=true"));
    const off = deployment(await render("ack-system", { leaderElection: { enabled: false } }));
    assert.ok(off.container.args.includes("--enable-leader-election=false"));
    assert.equal(off.spec.strategy.type, "Recreate", "the old pod stops before the new one starts");
  });

  test("the Deployment runs `crossrole run` with the default flags, probes, metrics port and a locked-down securityContext", () => {
    const { spec, container } = deployment(objects);
    assert.equal(spec.replicas, 1);
    assert.equal(spec.template.spec.serviceAccountName, "crossrole");
    assert.equal(container.image, `crossrole:${crossroleVersion}`); // appVersion = package.json's
    assert.deepEqual(container.args, [
      "run",
      "--system-namespace=ack-system",
      "--enable-carm=true",
      "--feature-gates=IAMRoleSelector=false,ResourceLevelCARM=false,ServiceLevelCARM=false,TeamLevelCARM=false",
      "--deletion-policy=delete",
      "--account-drift-policy=block",
      "--reconcile-default-resync-seconds=36000",
      "--reconcile-default-max-concurrent-syncs=4",
      "--sts-qps=20",
      "--sts-burst=40",
      "--aws-api-qps=100",
      "--aws-api-burst=300",
      "--enable-leader-election=true",
      "--log-level=info",
      "--allow-cross-namespace-references=false",
      "--ungranted-principals=warn",
      "--metrics-addr=:8080",
      "--healthz-addr=:8081",
    ]);
    assert.deepEqual(container.env, [{ name: "NODE_OPTIONS", value: "--max-semi-space-size=2" }]);
    // Node accepts that V8 flag in NODE_OPTIONS (it refuses most V8 flags there).
    const node = spawnSync(process.execPath, ["-e", ""], {
      env: { PATH: process.env["PATH"], NODE_OPTIONS: container.env[0]?.value },
      encoding: "utf8",
    });
    assert.equal(node.status, 0, node.stderr);
    assert.deepEqual(container.livenessProbe.httpGet, { path: "/healthz", port: "health" });
    assert.deepEqual(container.readinessProbe.httpGet, { path: "/readyz", port: "health" });
    assert.deepEqual(
      container.ports.map((p) => [p.name, p.containerPort]),
      [
        ["http-metrics", 8080],
        ["health", 8081],
      ],
    );
    assert.deepEqual(container.securityContext, {
      allowPrivilegeEscalation: false,
      privileged: false,
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
      seccompProfile: { type: "RuntimeDefault" },
    });
    assert.equal(spec.template.spec.securityContext["runAsNonRoot"], true);
    assert.deepEqual(spec.template.spec.securityContext["seccompProfile"], { type: "RuntimeDefault" });
    assert.deepEqual(specOf<{ ports: unknown[] }>(objects, "Service").ports, [
      { name: "http-metrics", port: 8080, targetPort: "http-metrics", protocol: "TCP" },
    ]);
  });

  test("everything is accepted by server-side apply; applying again changes nothing", async () => {
    await namespaces("ack-system");
    const first = await apply(objects);
    assert.deepEqual(first.map(id).sort(), objects.map(id).sort());
    const again = await apply(objects);
    for (const [i, o] of again.entries()) {
      // CRDs' status moves on its own (Established); their spec, like everything else, must not.
      const version = (x: KubeObject | undefined) => x?.metadata.generation ?? x?.metadata.resourceVersion;
      assert.equal(version(o), version(first[i]), `${id(o)} changed`);
    }
    const stored = deployment(first).container;
    assert.deepEqual(stored.args, deployment(objects).container.args);
  });

  test("config/default/crossrole.yaml is this render after the Namespace; `kubectl apply --server-side -f config/default/` takes it", async () => {
    const manifest = parse(await readFile(join(repoRoot, "config/default/crossrole.yaml"), "utf8"));
    assert.deepEqual(manifest[0], {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "ack-system", labels: { "app.kubernetes.io/name": "crossrole" } },
    });
    assert.deepEqual(manifest.slice(1), objects);
    if (!existsSync(binaries.kubectl)) {
      throw new Error(`kubectl is not built (${binaries.kubectl}); run scripts/build-control-plane.sh`);
    }
    // kubectl reads the file itself (YAML 1.1) and applies as another field manager on top of the
    // same objects applied above: any value it read differently would be a conflict.
    const kubectl = spawnSync(
      binaries.kubectl,
      [
        "--kubeconfig",
        stack.kubeconfigPath,
        "apply",
        "--server-side",
        "-f",
        join(repoRoot, "config/default/"),
      ],
      { encoding: "utf8" },
    );
    assert.equal(kubectl.status, 0, kubectl.stderr);
    const applied = kubectl.stdout.trim().split("\n");
    assert.equal(applied.length, manifest.length, kubectl.stdout);
    assert.ok(applied.includes("deployment.apps/crossrole serverside-applied"), kubectl.stdout);
    assert.ok(
      applied.includes("clusterrole.rbac.authorization.k8s.io/crossrole serverside-applied"),
      kubectl.stdout,
    );
  });
});

describe("installScope: namespace", () => {
  const sys = "team-x-system";
  let objects: KubeObject[];
  before(async () => {
    objects = await render(sys, { installScope: "namespace", watchNamespace: "a, b" }, true);
  });

  test("its RBAC is rbac.ts's for --watch-namespace=a,b in that system namespace; a list and a comma string agree", async () => {
    const expected = unlabelled(rbacObjects({ systemNamespace: sys, watchNamespaces: ["a", "b"] }));
    assert.deepEqual(unlabelled(objects.filter((o) => rbacKinds.has(o.kind ?? ""))), expected);
    const fromList = await render(sys, { installScope: "namespace", watchNamespace: ["a", "b", "a"] });
    assert.deepEqual(unlabelled(fromList.filter((o) => rbacKinds.has(o.kind ?? ""))), expected);
  });

  test("no ClusterRole beyond the narrow config reader; a Role in each watched namespace", () => {
    const clusterRoles = ofKind(objects, "ClusterRole");
    assert.deepEqual(
      clusterRoles.map((r) => r.metadata.name),
      [`crossrole-config-reader-${sys}`],
    );
    assert.deepEqual(clusterRoles[0]?.["rules"], configReaderRules(["a", "b"]));
    assert.deepEqual(
      ofKind(objects, "ClusterRoleBinding").map((b) => (b["roleRef"] as { name: string }).name),
      [`crossrole-config-reader-${sys}`],
    );
    assert.deepEqual(ofKind(objects, "Role").map(id).sort(), [
      "Role/a/crossrole-resources",
      "Role/b/crossrole-resources",
      `Role/default/crossrole-cluster-events-${sys}`,
      `Role/${sys}/crossrole-system`,
    ]);
    const { container } = deployment(objects);
    assert.ok(container.args.includes("--watch-namespace=a,b"), container.args.join(" "));
    assert.ok(container.args.includes(`--system-namespace=${sys}`), container.args.join(" "));
  });

  test("everything is accepted by server-side apply", async () => {
    await namespaces(sys, "a", "b");
    const stored = await apply(objects);
    assert.deepEqual(stored.map(id).sort(), objects.map(id).sort());
  });

  test("without watchNamespace it watches the release namespace", async () => {
    const own = await render(sys, { installScope: "namespace" });
    assert.ok(deployment(own).container.args.includes(`--watch-namespace=${sys}`));
    assert.deepEqual(
      ofKind(own, "Role")
        .map(id)
        .filter((r) => r.includes("crossrole-resources")),
      [`Role/${sys}/crossrole-resources`],
    );
  });
});

describe("values → the Deployment", () => {
  const values = {
    image: {
      repository: "registry.example/crossrole",
      tag: "1.2.3",
      pullPolicy: "Always",
      pullSecrets: ["regcred"],
    },
    featureGates: { TeamLevelCARM: true, ServiceLevelCARM: true },
    enableCARM: true,
    aws: { region: "eu-west-1", endpoint_url: "http://aws.example:4566", controllerAccount: "123456789012" },
    deletionPolicy: "retain",
    accountDriftPolicy: "recreate",
    reconcile: {
      defaultResyncPeriod: 600,
      resourceResyncPeriods: { Bucket: 60, Table: 120 },
      defaultMaxConcurrentSyncs: 2,
      resourceMaxConcurrentSyncs: { Bucket: 8 },
    },
    sts: { qps: 5, burst: 10 },
    awsApi: { qps: 50, burst: 100, services: { rds: "10:100" } },
    leaderElection: { enabled: true },
    log: { level: "debug" },
    ungrantedPrincipals: "refuse",
    serviceAccount: {
      name: "crossrole-irsa",
      annotations: { "eks.amazonaws.com/role-arn": "arn:aws:iam::123456789012:role/crossrole" },
    },
    deployment: { replicas: 2, labels: { team: "platform" }, annotations: { "example.com/a": "b" } },
    resources: { requests: { cpu: "100m", memory: "256Mi" } },
    // Merged into the defaults (Helm merges maps): one key added, the rest kept.
    securityContext: { runAsUser: 1000 },
    metrics: { service: { create: true, type: "ClusterIP", port: 9090 } },
    serviceMonitor: { enabled: true, interval: "30s" },
    carm: {
      accountMap: { "111111111111": "arn:aws:iam::111111111111:role/crossrole" },
      teamMap: { "s3.team-a": "arn:aws:iam::222222222222:role/team-a-s3" },
    },
  };
  const sys = "values-system";
  let objects: KubeObject[];
  before(async () => {
    objects = await render(sys, values);
  });

  test("args, env, image, ServiceAccount (IRSA), labels and resources follow the values", () => {
    const { spec, container } = deployment(objects);
    assert.equal(spec.replicas, 2);
    assert.equal(container.image, "registry.example/crossrole:1.2.3");
    assert.deepEqual(container.args, [
      "run",
      `--system-namespace=${sys}`,
      "--enable-carm=true",
      // Gates not set keep the chart's defaults (all four are in values.yaml).
      "--feature-gates=IAMRoleSelector=false,ResourceLevelCARM=false,ServiceLevelCARM=true,TeamLevelCARM=true",
      "--aws-region=eu-west-1",
      "--aws-endpoint-url=http://aws.example:4566",
      "--controller-account=123456789012",
      "--deletion-policy=retain",
      "--account-drift-policy=recreate",
      "--reconcile-default-resync-seconds=600",
      "--reconcile-resource-resync-seconds=Bucket=60",
      "--reconcile-resource-resync-seconds=Table=120",
      "--reconcile-default-max-concurrent-syncs=2",
      "--reconcile-resource-max-concurrent-syncs=Bucket=8",
      "--sts-qps=5",
      "--sts-burst=10",
      "--aws-api-qps=50",
      "--aws-api-burst=100",
      "--aws-api-rate-limit=rds=10:100",
      "--enable-leader-election=true",
      // Two replicas: the resources are sharded across them (member Leases).
      "--enable-sharding",
      "--log-level=debug",
      "--allow-cross-namespace-references=false",
      "--ungranted-principals=refuse",
      "--metrics-addr=:8080",
      "--healthz-addr=:8081",
    ]);
    assert.deepEqual(container.env, [
      { name: "NODE_OPTIONS", value: "--max-semi-space-size=2" },
      // The shard member's name.
      { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      { name: "AWS_REGION", value: "eu-west-1" },
    ]);
    assert.deepEqual(container.securityContext, {
      allowPrivilegeEscalation: false,
      privileged: false,
      runAsNonRoot: true,
      runAsUser: 1000,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
      seccompProfile: { type: "RuntimeDefault" },
    });
    assert.equal(spec.template.spec.serviceAccountName, "crossrole-irsa");
    assert.equal(spec.template.metadata.labels["team"], "platform");
    assert.equal(spec.template.metadata.labels["app.kubernetes.io/name"], "crossrole");
    assert.deepEqual(spec.template.metadata.annotations, { "example.com/a": "b" });
    const [sa] = ofKind(objects, "ServiceAccount");
    assert.equal(sa?.metadata.name, "crossrole-irsa");
    assert.deepEqual(sa?.metadata.annotations, values.serviceAccount.annotations);
    for (const b of [...ofKind(objects, "RoleBinding"), ...ofKind(objects, "ClusterRoleBinding")]) {
      assert.deepEqual(b["subjects"], [{ kind: "ServiceAccount", name: "crossrole-irsa", namespace: sys }]);
    }
  });

  test("the CARM ConfigMaps, the metrics Service port and the ServiceMonitor", () => {
    const maps = Object.fromEntries(ofKind(objects, "ConfigMap").map((c) => [c.metadata.name, c["data"]]));
    assert.deepEqual(maps, {
      "ack-role-account-map": values.carm.accountMap,
      "ack-role-team-map": values.carm.teamMap,
    });
    assert.equal(specOf<{ ports: { port: number }[] }>(objects, "Service").ports[0]?.port, 9090);
    assert.deepEqual(specOf<{ endpoints: unknown[] }>(objects, "ServiceMonitor").endpoints, [
      { port: "http-metrics", path: "/metrics", interval: "30s" },
    ]);
  });

  test("accepted by server-side apply (all but the ServiceMonitor, whose CRD is Prometheus Operator's)", async () => {
    await namespaces(sys);
    const stored = await apply(objects.filter((o) => o.kind !== "ServiceMonitor"));
    const { container } = deployment(stored);
    assert.ok(container.args.includes("--reconcile-resource-resync-seconds=Bucket=60"));
  });
});

describe("bad values fail loudly, naming the key", () => {
  const cases: { name: string; values: Values; message: RegExp }[] = [
    {
      name: "a typo: leaderElection.enabeld",
      values: { leaderElection: { enabeld: true } },
      message: /at '\/leaderElection': additional properties 'enabeld' not allowed/,
    },
    {
      name: "a typo at the top level: watchNamespaces",
      values: { watchNamespaces: ["a"] },
      message: /additional properties 'watchNamespaces' not allowed/,
    },
    {
      name: "an unknown feature gate: featureGates.Foo",
      values: { featureGates: { Foo: true } },
      message: /at '\/featureGates': additional properties 'Foo' not allowed/,
    },
    {
      name: "a kind crossrole does not serve in reconcile.resourceResyncPeriods",
      values: { reconcile: { resourceResyncPeriods: { Bukket: 60 } } },
      message: /at '\/reconcile\/resourceResyncPeriods': additional properties 'Bukket' not allowed/,
    },
    {
      name: "installScope neither cluster nor namespace",
      values: { installScope: "namespaced" },
      message: /at '\/installScope': value must be one of 'cluster', 'namespace'/,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: helm lint and helm template fail`, async () => {
      const lint = await helmLint(helm, chart, { values: c.values });
      assert.notEqual(lint.code, 0, "helm lint passed");
      assert.match(lint.stdout + lint.stderr, c.message);
      const template = await helmTemplate(helm, chart, { values: c.values });
      assert.notEqual(template.code, 0, "helm template passed");
      assert.match(template.stderr, c.message);
    });
  }

  const rules: { name: string; values: Values; message: RegExp }[] = [
    {
      name: "IAMRoleSelector with CARM on",
      values: { featureGates: { IAMRoleSelector: true } },
      message: /featureGates.IAMRoleSelector: true cannot be combined with enableCARM: true/,
    },
    {
      name: "watchNamespace with installScope cluster",
      values: { watchNamespace: ["a"] },
      message: /watchNamespace \[a\] is used only with installScope: namespace/,
    },
    {
      name: "two replicas without leader election",
      values: { deployment: { replicas: 2 }, leaderElection: { enabled: false } },
      message: /deployment.replicas 2 needs leaderElection.enabled: true/,
    },
    {
      name: "a Lease namespace other than the system namespace",
      values: { leaderElection: { enabled: true, namespace: "elsewhere" } },
      message:
        /leaderElection.namespace "elsewhere": the controller's Lease lives in its system namespace "ack-system"/,
    },
  ];
  for (const c of rules) {
    test(`${c.name}: helm template fails with the fix`, async () => {
      const template = await helmTemplate(helm, chart, { values: c.values });
      assert.notEqual(template.code, 0, "helm template passed");
      assert.match(template.stderr, c.message);
    });
  }
});
