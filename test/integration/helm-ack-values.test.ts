// ACK's chart values carry over to crossrole's chart (helm/crossrole/README.md, "ACK's values"):
// each of ACK's five controllers' helm/values.yaml (test/fixtures/ack-values/, unchanged) passes
// the schema for `helm template` and `helm install` on a real kube-apiserver, with ACK's meaning
// where crossrole has one (the Deployment's args, env, volumes) and a line in the install notes
// for each key set that has no effect; a key neither chart has is still refused.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseAllDocuments } from "yaml";
import { chartDir } from "../../src/deploy/chart.ts";
import { type HelmResult, runHelm } from "../../src/local-stack/helm.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { helmBinary, repoRoot } from "../../src/local-stack/versions.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";

const chart = join(repoRoot, chartDir);
const fixture = (controller: string) => join(repoRoot, "test/fixtures/ack-values", `${controller}.yaml`);
/** ACK's controller → the kinds of its reconcile.resources crossrole serves, and those it does not. */
const controllers: Record<string, { served: string[]; unserved: string[] }> = {
  s3: { served: ["Bucket"], unserved: [] },
  sqs: { served: ["Queue"], unserved: [] },
  sns: { served: ["Topic"], unserved: ["PlatformApplication", "PlatformEndpoint", "Subscription"] },
  dynamodb: { served: ["Table"], unserved: ["Backup", "GlobalTable"] },
  rds: {
    served: ["DBCluster", "DBClusterParameterGroup", "DBInstance", "DBParameterGroup", "DBSubnetGroup"],
    unserved: ["DBClusterEndpoint", "DBClusterSnapshot", "DBProxy", "DBSnapshot", "GlobalCluster"],
  },
};

let helm: string;
let stack: Stack;
let kube: KubeClient;

before(async () => {
  helm = helmBinary();
  stack = await startStack({ aws: false });
  kube = createKubeClient(stack.kubeConfig);
});
after(() => stack?.stop());

function ok(r: HelmResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

interface Container {
  args: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  ports: { name: string; containerPort: number }[];
  image: string;
  resources: unknown;
}
interface DeploymentSpec {
  strategy: unknown;
  template: {
    spec: {
      serviceAccountName: string;
      hostNetwork?: boolean;
      dnsPolicy?: string;
      volumes: { name: string; secret?: { secretName: string } }[];
      containers: Container[];
    };
  };
}

/** `helm template` with `-f` files and `--set`s: the objects, by kind. */
async function render(files: readonly string[], sets: readonly string[] = []): Promise<KubeObject[]> {
  const out = ok(
    await runHelm(helm, [
      ...["template", "crossrole", chart, "--namespace", "ack-system"],
      ...files.flatMap((f) => ["-f", f]),
      ...sets.flatMap((s) => ["--set", s]),
    ]),
    `helm template -f ${files.join(" -f ")}`,
  );
  return parseAllDocuments(out)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

function deploymentOf(objects: readonly KubeObject[]) {
  const d = objects.find((o) => o.kind === "Deployment");
  assert.ok(d, "a Deployment");
  const spec = d.spec as DeploymentSpec;
  return { d, spec, pod: spec.template.spec, container: spec.template.spec.containers[0]! };
}

describe("ACK's five values files, unchanged, through helm template", () => {
  for (const [controller, kinds] of Object.entries(controllers)) {
    test(`${controller}: ACK's meaning in the Deployment`, async () => {
      const { spec, pod, container } = deploymentOf(await render([fixture(controller)]));
      // Honoured as ACK means them: its ServiceAccount, leader election off, its resources, its
      // cross-namespace default, its kinds (the served ones), its default tags.
      assert.equal(pod.serviceAccountName, `ack-${controller}-controller`);
      assert.deepEqual(spec.strategy, { type: "Recreate" }, "no leader election: the old pod goes first");
      assert.ok(container.args.includes("--enable-leader-election=false"));
      // ACK's 128Mi limit is raised to crossrole's floor for the default 1000 resources.
      assert.deepEqual(container.resources, {
        requests: { memory: "64Mi", cpu: "50m" },
        limits: { memory: "256Mi", cpu: "100m" },
      });
      assert.ok(container.args.includes("--allow-cross-namespace-references=true"));
      assert.ok(
        container.args.includes(`--reconcile-resources=${kinds.served.join(",")}`),
        container.args.join(" "),
      );
      assert.ok(
        container.args.includes(
          "--resource-tags=services.k8s.aws/controller-version=%CONTROLLER_SERVICE%-%CONTROLLER_VERSION%,services.k8s.aws/namespace=%K8S_NAMESPACE%,app.kubernetes.io/managed-by=%MANAGED_BY%,kro.run/kro-version=%KRO_VERSION%",
        ),
        container.args.join(" "),
      );
      // ACK's always-on gates are not crossrole flags: the controller would refuse them.
      assert.ok(
        container.args.includes(
          "--feature-gates=IAMRoleSelector=false,ResourceLevelCARM=false,ServiceLevelCARM=false,TeamLevelCARM=false",
        ),
        container.args.join(" "),
      );
      assert.ok(container.args.includes("--metrics-addr=:8080"));
      assert.equal(pod.dnsPolicy, "ClusterFirst");
      assert.equal(pod.hostNetwork, undefined);
      // ACK's image cannot run crossrole: crossrole's runs instead (the notes say so).
      assert.match(container.image, /^crossrole:\d+\.\d+\.\d+/);
    });
  }

  test("ACK's other kinds in the per-kind maps are accepted, passed on only for served kinds, and named by NOTES", async () => {
    const sets = [
      "reconcile.resourceResyncPeriods.GlobalCluster=600",
      "reconcile.resourceResyncPeriods.DBInstance=300",
      "reconcile.resourceMaxConcurrentSyncs.DBProxy=2",
    ];
    const { container } = deploymentOf(await render([fixture("rds")], sets));
    assert.ok(
      container.args.includes("--reconcile-resource-resync-seconds=DBInstance=300"),
      container.args.join(" "),
    );
    assert.ok(!container.args.some((a) => /GlobalCluster|DBProxy/.test(a)), container.args.join(" "));
    const notes = ok(
      await runHelm(
        helm,
        [
          "install",
          "per-kind",
          chart,
          "--dry-run",
          "-n",
          "ack-per-kind",
          "-f",
          fixture("rds"),
          ...sets.flatMap((x) => ["--set", x]),
        ],
        stack.kubeconfigPath,
      ),
      "helm install --dry-run with ACK's other kinds in the per-kind maps",
    );
    assert.ok(
      notes.includes(
        "  - reconcile.resourceResyncPeriods / resourceMaxConcurrentSyncs name DBProxy, GlobalCluster: crossrole does not serve these kinds, so these settings have no effect.",
      ),
      notes,
    );
    // A misspelt kind is still an error, naming the key.
    const typo = await runHelm(
      helm,
      ["template", "t", chart, "--set", "reconcile.resourceResyncPeriods.Buckett=60"],
      stack.kubeconfigPath,
    );
    assert.notEqual(typo.code, 0);
    assert.match(typo.stderr, /Buckett/);
  });
});

describe("ACK's values, installed", () => {
  for (const [controller, kinds] of Object.entries(controllers)) {
    test(`${controller}: helm install takes the file unchanged; NOTES warn and name what has no effect`, async () => {
      const ns = `ack-${controller}`;
      const install = await runHelm(
        helm,
        ["install", `ack-${controller}`, chart, "-n", ns, "--create-namespace", "-f", fixture(controller)],
        stack.kubeconfigPath,
      );
      const out = ok(install, `helm install -f ${controller}.yaml`);
      assert.match(out, /STATUS: deployed/);
      assert.match(
        out,
        new RegExp(`reconcile.resources: only these kinds are reconciled: ${kinds.served.join(", ")}\\.`),
      );
      assert.match(out, /WARNING: enableCrossNamespace: true lets a resource's references/);
      assert.match(
        out,
        /resources\.limits\.memory 128Mi is below what crossrole needs for 1000 resources\s+\(expectedResources\): the Deployment's limit is 256Mi instead/,
      );
      assert.match(
        out,
        /WARNING: image.repository public.ecr.aws\/aws-controllers-k8s\/\S+ is ACK's controller image/,
      );
      if (kinds.unserved.length > 0) {
        assert.match(
          out,
          new RegExp(
            `- reconcile.resources lists ${kinds.unserved.join(", ")}: crossrole does not serve these kinds`,
          ),
        );
      } else {
        assert.doesNotMatch(
          out,
          /accepts but does not use/,
          "ACK's defaults of the ignored keys are not named",
        );
      }
      const d = await kube.request<{ spec: DeploymentSpec }>({
        method: "GET",
        path: `/apis/apps/v1/namespaces/${ns}/deployments/crossrole`,
      });
      assert.equal(d.spec.template.spec.serviceAccountName, `ack-${controller}-controller`);
      ok(
        await runHelm(helm, ["uninstall", `ack-${controller}`, "-n", ns], stack.kubeconfigPath),
        "helm uninstall",
      );
    });
  }

  test("the memory limit's floor grows with expectedResources; a limit above it is kept", async () => {
    const limitOf = async (...sets: string[]) =>
      (
        deploymentOf(await render([fixture("s3")], sets)).container as {
          resources?: { limits?: { memory?: string } };
        }
      ).resources?.limits?.memory;
    assert.equal(await limitOf(), "256Mi");
    assert.equal(await limitOf("expectedResources=10000"), "381Mi", "128 MiB + 26 KiB × 10,000");
    assert.equal(await limitOf("resources.limits.memory=1Gi"), "1Gi");
    assert.equal(await limitOf("resources.limits.memory=300M"), "300M", "286 MiB: above 256");
  });

  test("each ignored key set to a non-default value gets its own NOTES line saying why", async () => {
    const install = await runHelm(
      helm,
      [
        ...["install", "ignored", chart, "-n", "ack-ignored", "--create-namespace", "-f", fixture("s3")],
        ...["--set", "aws.identity_endpoint_url=https://sts.example"],
        ...["--set", "aws.allow_unsafe_aws_endpoint_urls=true", "--set", "aws.endpoint_use_path_style=true"],
        ...["--set", "log.enable_development_logging=true"],
        ...["--set", "featureGates.ReadOnlyResources=false", "--set", "featureGates.ResourceAdoption=false"],
      ],
      stack.kubeconfigPath,
    );
    const out = ok(install, "helm install with the ignored keys set");
    for (const line of [
      "aws.identity_endpoint_url has no effect: crossrole sends STS calls to aws.endpoint_url",
      "aws.allow_unsafe_aws_endpoint_urls has no effect: crossrole accepts any http(s) aws.endpoint_url.",
      "aws.endpoint_use_path_style has no effect: crossrole's S3 client uses path-style requests whenever aws.endpoint_url is set",
      "log.enable_development_logging has no effect: crossrole always logs JSON lines",
      "featureGates.ReadOnlyResources: false has no effect: crossrole always honours the services.k8s.aws/read-only annotation.",
      "featureGates.ResourceAdoption: false has no effect: crossrole always honours the services.k8s.aws/adoption-policy annotation.",
    ]) {
      assert.ok(out.includes(`  - ${line}`), `NOTES lack "${line}":\n${out}`);
    }
    ok(
      await runHelm(helm, ["uninstall", "ignored", "-n", "ack-ignored"], stack.kubeconfigPath),
      "helm uninstall",
    );
  });
});

describe("ACK's keys crossrole honours, on top of ACK's s3 values", () => {
  let objects: KubeObject[];
  before(async () => {
    objects = await render(
      [fixture("s3")],
      [
        "fullnameOverride=platform-aws",
        "nameOverride=aws-ctrl",
        "deployment.containerPort=9090",
        "deployment.hostNetwork=true",
        "deployment.dnsPolicy=ClusterFirstWithHostNet",
        "deployment.strategy.type=Recreate",
        "deployment.extraEnvVars[0].name=HTTPS_PROXY",
        "deployment.extraEnvVars[0].value=http://proxy.corp:3128",
        "deployment.extraEnvVars[1].name=AWS_CA_BUNDLE",
        "deployment.extraEnvVars[1].value=/etc/corp-ca/ca.pem",
        "deployment.extraVolumes[0].name=corp-ca",
        "deployment.extraVolumes[0].configMap.name=corp-ca",
        "deployment.extraVolumeMounts[0].name=corp-ca",
        "deployment.extraVolumeMounts[0].mountPath=/etc/corp-ca",
        "aws.credentials.secretName=aws-creds",
        "aws.credentials.secretKey=creds",
        "aws.credentials.profile=platform",
        "role.labels.team=platform",
        "watchSelectors=team=a\\,tier!=test",
        "resourceTags={cost-centre=7,landing=%MANAGED_ACCOUNT_ID%}",
        "reconcile.resources={Bucket}",
        "metrics.service.create=true",
        "enableCrossNamespace=false",
      ],
    );
  });

  test("env: extraEnvVars as written, and the shared credentials file ACK's aws.credentials names", () => {
    const { container } = deploymentOf(objects);
    const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value]));
    assert.equal(env["HTTPS_PROXY"], "http://proxy.corp:3128");
    assert.equal(env["AWS_CA_BUNDLE"], "/etc/corp-ca/ca.pem");
    assert.equal(env["AWS_SHARED_CREDENTIALS_FILE"], "/var/run/secrets/aws/creds");
    assert.equal(env["AWS_PROFILE"], "platform");
  });

  test("volumes and mounts: the credentials Secret read-only at ACK's path, extraVolumes and extraVolumeMounts", () => {
    const { pod, container } = deploymentOf(objects);
    assert.deepEqual(
      pod.volumes.map((v) => v.name),
      ["tmp", "aws-creds", "corp-ca"],
    );
    assert.deepEqual(pod.volumes[1]?.secret, { secretName: "aws-creds" });
    assert.deepEqual(container.volumeMounts, [
      { name: "tmp", mountPath: "/tmp" },
      { name: "aws-creds", mountPath: "/var/run/secrets/aws", readOnly: true },
      { name: "corp-ca", mountPath: "/etc/corp-ca" },
    ]);
  });

  test("args, port, pod networking, strategy; names from fullnameOverride, labels from nameOverride and role.labels", () => {
    const { d, spec, pod, container } = deploymentOf(objects);
    for (const arg of [
      "--watch-selectors=team=a,tier!=test",
      "--resource-tags=cost-centre=7,landing=%MANAGED_ACCOUNT_ID%",
      "--reconcile-resources=Bucket",
      "--allow-cross-namespace-references=false",
      "--metrics-addr=:9090",
    ]) {
      assert.ok(container.args.includes(arg), `${arg} not in ${container.args.join(" ")}`);
    }
    assert.deepEqual(
      container.ports.find((p) => p.name === "http-metrics"),
      { name: "http-metrics", containerPort: 9090, protocol: "TCP" },
    );
    assert.equal(pod.hostNetwork, true);
    assert.equal(pod.dnsPolicy, "ClusterFirstWithHostNet");
    assert.deepEqual(spec.strategy, { type: "Recreate" });
    assert.equal(d.metadata.name, "platform-aws");
    assert.equal(d.metadata.labels?.["app.kubernetes.io/name"], "aws-ctrl");
    const service = objects.find((o) => o.kind === "Service");
    assert.ok(service);
    assert.equal(service.metadata.name, "platform-aws-metrics");
    assert.deepEqual(
      (service.spec as { selector: unknown }).selector,
      (d.spec as { selector: { matchLabels: unknown } }).selector.matchLabels,
    );
    const roles = objects.filter((o) => o.kind === "ClusterRole" || o.kind === "Role");
    assert.ok(roles.length > 0);
    for (const r of roles)
      assert.equal(r.metadata.labels?.["team"], "platform", `${r.kind}/${r.metadata.name}`);
    const binding = objects.find((o) => o.kind === "ClusterRoleBinding");
    assert.equal(binding?.metadata.labels?.["team"], undefined, "role.labels are for Roles and ClusterRoles");
  });
});

describe("a key neither chart has is still refused; so is a reconcile.resources with nothing crossrole serves", () => {
  const cases: { name: string; sets: string[]; message: RegExp }[] = [
    {
      name: "a typo under deployment",
      sets: ["deployment.extraEnvVar[0].name=X"],
      message: /at '\/deployment': additional properties 'extraEnvVar' not allowed/,
    },
    {
      name: "a typo under aws.credentials",
      sets: ["aws.credentials.secretname=x"],
      message: /at '\/aws\/credentials': additional properties 'secretname' not allowed/,
    },
    {
      name: "a kind ACK does not have either",
      sets: ["reconcile.resources={Bukket}"],
      message: /at '\/reconcile\/resources\/0': value must be one of/,
    },
    {
      name: "a resource tag without =",
      sets: ["resourceTags={team}"],
      message: /at '\/resourceTags\/0': '.*' does not match pattern/,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: refused with the key's path`, async () => {
      const r = await runHelm(helm, [
        ...["template", "crossrole", chart, "-f", fixture("s3")],
        ...c.sets.flatMap((s) => ["--set", s]),
      ]);
      assert.notEqual(r.code, 0, "helm template passed");
      assert.match(r.stderr, c.message);
    });
  }

  test("reconcile.resources naming only kinds crossrole does not serve fails with the fix", async () => {
    const r = await runHelm(helm, [
      "template",
      "crossrole",
      chart,
      "--set",
      "reconcile.resources={Backup,DBProxy}",
    ]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /reconcile.resources \[Backup DBProxy\] names no kind crossrole serves \(Bucket, Queue/,
    );
  });
});
