// The Pod-shaped test (issue 10): the chart is rendered with the pinned helm for the cluster and
// the namespace install scope and every rendered object (CRDs, RBAC, ServiceAccount, Service,
// Deployment) is server-side applied to the real kube-apiserver. No kubelet runs, so nothing
// starts from the Deployment: the test plays the kubelet and runs the built image with podman
// exactly as the rendered Deployment says — the image's entrypoint with the container's args and
// env, its securityContext (user, read-only root, no capabilities, no privilege escalation), its
// /tmp emptyDir, its memory limit — plus only what a kubelet supplies: the ServiceAccount's
// TokenRequest token, ca.crt and namespace at the in-cluster path, KUBERNETES_SERVICE_HOST/PORT
// (host network: the apiserver is on loopback), no kubeconfig. The controller's own AWS identity
// is IRSA's, as the EKS pod identity webhook would inject it (see `irsa` below). Alice's story
// (examples/alice/) then plays out in the emulator, nothing is refused by RBAC, and with the
// namespace scope the ServiceAccount has no cluster-wide grant beyond the narrow config reader.
//
// The rendered args bind :8080 and :8081 on the host network, so the two scenarios run one after
// the other, each on its own stack, and each container is stopped before the next starts.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseAllDocuments } from "yaml";
import { chartDir } from "../../src/deploy/chart.ts";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { helmTemplate } from "../../src/local-stack/helm.ts";
import { applyServerSide, readManifests } from "../../src/local-stack/manifests.ts";
import { ManagedProcess } from "../../src/local-stack/process.ts";
import { helmBinary, repoRoot } from "../../src/local-stack/versions.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { createKubeClient, KubeApiError, type KubeClient } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { type RestConfig, withToken } from "../../src/runtime/rest-config.ts";
import { buildImage, podman, podmanEnv, podmanRunPrefix } from "../harness/image.ts";
import {
  condition,
  controllerAccount,
  type E2E,
  region,
  startE2E,
  waitForCondition,
  waitForResourceCondition,
} from "./fixture.ts";

const sys = "ack-system";
const fieldManager = "crossrole-pod-test";
const storyAccounts = [controllerAccount, "111111111111", "222222222222"];
/** The controller's own role (IRSA), in the controller's account: the story's chains start there. */
const controllerRole = `arn:aws:iam::${controllerAccount}:role/crossrole`;
const inClusterDir = "/var/run/secrets/kubernetes.io/serviceaccount";
const irsaDir = "/var/run/secrets/eks.amazonaws.com/serviceaccount";
const refusal = /forbidden|: 403[ :]|"status":403\b/i;

// ---- The rendered Deployment, as a kubelet reads it ----

interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
}
interface Container {
  name: string;
  image: string;
  imagePullPolicy?: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: { httpGet?: { path: string; port: number | string } };
  resources?: { limits?: { memory?: string } };
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  serviceAccountName: string;
  automountServiceAccountToken?: boolean;
  securityContext?: SecurityContext;
  containers: Container[];
  volumes?: { name: string; emptyDir?: { medium?: string; sizeLimit?: string } }[];
}
type Deployment = KubeObject & { spec: { template: { spec: PodSpec } } };

/** A Kubernetes quantity (`64Mi`, `512Mi`, `1Gi`, bytes) in bytes. */
function bytes(quantity: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity);
  if (!m) throw new Error(`quantity ${quantity}: not translated to podman here`);
  return Number(m[1]) * { "": 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[m[2] ?? ""]!;
}

const pullPolicies: Record<string, string> = { Always: "always", IfNotPresent: "missing", Never: "never" };

/**
 * The `podman run` flags for the Deployment's one container, from its pod spec alone. Anything
 * the spec sets that is not translated here fails the test (a chart change must be looked at).
 */
function podmanFlags(pod: PodSpec): string[] {
  assert.equal(pod.containers.length, 1, "one container");
  const c = pod.containers[0]!;
  assert.equal(c.command, undefined, "the image's entrypoint runs (no command override)");
  const sc: SecurityContext = { ...pod.securityContext, ...c.securityContext };
  const flags = [`--pull=${pullPolicies[c.imagePullPolicy ?? "IfNotPresent"]}`];

  assert.ok(sc.runAsUser !== undefined && sc.runAsGroup !== undefined, "runAsUser and runAsGroup set");
  // runAsNonRoot: the kubelet refuses to start a container whose uid is 0.
  if (sc.runAsNonRoot) assert.notEqual(sc.runAsUser, 0, "runAsNonRoot with uid 0");
  flags.push(`--user=${sc.runAsUser}:${sc.runAsGroup}`);
  if (sc.readOnlyRootFilesystem) {
    // podman --read-only alone also mounts writable tmpfs on /run, /var/tmp, ...; a Pod gets no
    // such thing: only its volumes are writable.
    flags.push("--read-only", "--read-only-tmpfs=false");
  }
  for (const cap of sc.capabilities?.drop ?? []) flags.push(`--cap-drop=${cap.toLowerCase()}`);
  for (const cap of sc.capabilities?.add ?? []) flags.push(`--cap-add=${cap.toLowerCase()}`);
  if (sc.allowPrivilegeEscalation === false) flags.push("--security-opt=no-new-privileges");
  if (sc.privileged) flags.push("--privileged");
  // seccompProfile RuntimeDefault is podman's default profile: no flag.
  assert.ok(sc.seccompProfile === undefined || sc.seccompProfile.type === "RuntimeDefault");

  for (const mount of c.volumeMounts ?? []) {
    const volume = pod.volumes?.find((v) => v.name === mount.name);
    assert.ok(volume?.emptyDir, `volume ${mount.name}: only emptyDir is translated here`);
    const size = volume.emptyDir.sizeLimit ? `,size=${bytes(volume.emptyDir.sizeLimit)}` : "";
    flags.push(`--tmpfs=${mount.mountPath}:rw${size}`);
  }
  // The memory limit is the container's cgroup limit. CPU requests are left out: as cpu.shares
  // they would weigh this container against the host's unrelated cgroups, not other Pods.
  if (c.resources?.limits?.memory) flags.push(`--memory=${bytes(c.resources.limits.memory)}`);
  for (const e of c.env ?? []) {
    assert.equal(e.valueFrom, undefined, `env ${e.name}: only literal values are translated here`);
    flags.push(`--env=${e.name}=${e.value ?? ""}`);
  }
  return flags;
}

/** The readiness probe's port on the host network (a named port resolved through `ports`). */
function readinessURL(c: Container): string {
  const get = c.readinessProbe?.httpGet;
  assert.ok(get, "an httpGet readiness probe");
  const port =
    typeof get.port === "number" ? get.port : c.ports?.find((p) => p.name === get.port)?.containerPort;
  assert.ok(port, `readiness port ${get.port}`);
  return `http://127.0.0.1:${port}${get.path}`;
}

/** True when nothing listens on `port` (any address): the container's own bind would succeed. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, () => srv.close(() => resolve(true)));
  });
}

// ---- One scenario: an install scope, its stack and its container ----

interface Scenario {
  readonly e2e: E2E;
  readonly objects: KubeObject[];
  readonly pod: PodSpec;
  readonly flags: string[];
  /** The ServiceAccount's (in-cluster) token, as the container has it. */
  readonly token: string;
  readonly container: ManagedProcess;
  readonly containerName: string;
}

/** What a scenario has started so far: its after() stops it even when the start failed midway. */
interface Started {
  containerName?: string;
  container?: ManagedProcess;
}

async function tokenFor(kube: KubeClient, sa: string, spec: Record<string, unknown>): Promise<string> {
  const tr = await kube.request<{ status: { token: string } }>({
    method: "POST",
    path: `/api/v1/namespaces/${sys}/serviceaccounts/${sa}/token`,
    body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec },
  });
  return tr.status.token;
}

/** Writes `files` into a fresh directory under the stack's, readable by the container's uid. */
async function volumeDir(e2e: E2E, name: string, files: Record<string, string>): Promise<string> {
  const dir = join(e2e.stack.dir, name);
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o755);
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text, { mode: 0o644 });
  return dir;
}

/** A client of the same cluster acting as `token`. */
function clientWithToken(admin: RestConfig, token: string): KubeClient {
  return createKubeClient(withToken(admin, token));
}

async function startScenario(
  e2e: E2E,
  image: string,
  scope: Record<string, unknown>,
  name: string,
  started: Started,
): Promise<Scenario> {
  const tag = image.slice(image.lastIndexOf(":") + 1);
  const rendered = await helmTemplate(helmBinary(), join(repoRoot, chartDir), {
    namespace: sys,
    includeCrds: true,
    values: {
      ...scope,
      image: { repository: image.slice(0, image.lastIndexOf(":")), tag },
      aws: { region, endpoint_url: e2e.stack.awsEndpoint },
      log: { level: "debug" },
      serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": controllerRole } },
    },
  });
  assert.equal(rendered.code, 0, rendered.stderr);
  const objects = parseAllDocuments(rendered.stdout)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);

  // The namespaces the story needs, then everything the chart renders, CRDs first.
  await applyServerSide(
    e2e.kube,
    await readManifests(join(repoRoot, "examples/alice/00-namespaces.yaml")),
    fieldManager,
  );
  const crds = objects.filter((o) => o.kind === "CustomResourceDefinition");
  await applyServerSide(e2e.kube, [...crds, ...objects.filter((o) => !crds.includes(o))], fieldManager);

  const deployment = objects.find((o) => o.kind === "Deployment") as Deployment | undefined;
  assert.ok(deployment);
  assert.equal(deployment.metadata.namespace, sys);
  const pod = deployment.spec.template.spec;
  const c = pod.containers[0]!;
  assert.equal(c.image, image, "the Deployment runs the locally built image");
  assert.notEqual(pod.automountServiceAccountToken, false, "the Pod gets its ServiceAccount token");
  const flags = podmanFlags(pod);
  const sa = objects.find((o) => o.kind === "ServiceAccount" && o.metadata.name === pod.serviceAccountName);
  assert.ok(sa, `the chart renders ServiceAccount ${pod.serviceAccountName}`);
  const roleARN = sa.metadata.annotations?.["eks.amazonaws.com/role-arn"];
  assert.equal(roleARN, controllerRole);

  // What the kubelet mounts at the in-cluster path: a TokenRequest token for the Pod's
  // ServiceAccount (the kubelet's default expiry), the cluster CA and the Pod's namespace.
  const cp = e2e.stack.controlPlane;
  const token = await tokenFor(e2e.kube, pod.serviceAccountName, { expirationSeconds: 3607 });
  const inCluster = await volumeDir(e2e, "serviceaccount", {
    token,
    "ca.crt": cp.caPEM,
    namespace: deployment.metadata.namespace ?? "",
  });
  // IRSA: on EKS the pod identity webhook sees the ServiceAccount's role-arn annotation and adds
  // to the Pod a projected token (audience sts.amazonaws.com) at irsaDir, AWS_ROLE_ARN and
  // AWS_WEB_IDENTITY_TOKEN_FILE (and AWS_STS_REGIONAL_ENDPOINTS). There is no webhook here, so
  // the test adds exactly that; the SDK then calls sts:AssumeRoleWithWebIdentity (moto accepts
  // it, see controller-irsa.test.ts) and the controller's own account is the role's.
  const irsaToken = await tokenFor(e2e.kube, pod.serviceAccountName, {
    audiences: ["sts.amazonaws.com"],
    expirationSeconds: 86400,
  });
  const irsa = await volumeDir(e2e, "eks-serviceaccount", { token: irsaToken });
  const webhookEnv = [
    `--env=AWS_ROLE_ARN=${roleARN}`,
    `--env=AWS_WEB_IDENTITY_TOKEN_FILE=${irsaDir}/token`,
    "--env=AWS_STS_REGIONAL_ENDPOINTS=regional",
  ];

  // The rendered args bind fixed ports on the host network: they must be free.
  for (const p of c.ports ?? []) {
    await waitFor(() => portFree(p.containerPort), {
      what: `port ${p.containerPort} free on this machine (the Deployment's ${p.name} port, host network)`,
      timeoutMs: 10_000,
    });
  }
  const containerName = `crossrole-pod-${name}-${randomBytes(4).toString("hex")}`;
  started.containerName = containerName;
  const container = new ManagedProcess(
    `crossrole (pod, ${name})`,
    [
      ...podmanRunPrefix,
      `--name=${containerName}`,
      "--network=host",
      ...flags,
      ...webhookEnv,
      `--volume=${inCluster}:${inClusterDir}:ro`,
      `--volume=${irsa}:${irsaDir}:ro`,
      "--env=KUBERNETES_SERVICE_HOST=127.0.0.1",
      `--env=KUBERNETES_SERVICE_PORT=${new URL(cp.serverURL).port}`,
      c.image,
      ...(c.args ?? []),
    ],
    join(e2e.stack.dir, `pod-${name}.log`),
    podmanEnv(),
  );
  started.container = container;
  const ready = readinessURL(c);
  await waitFor(
    async () => {
      container.assertRunning(`start the ${name} container`);
      try {
        return (await fetch(ready)).ok;
      } catch {
        return false;
      }
    },
    { what: `the ${name} container's readiness probe ${ready}`, timeoutMs: 60_000 },
  );
  await e2e.apply(join(repoRoot, "examples/alice"));
  return { e2e, objects, pod, flags, token, container, containerName };
}

async function stopScenario(started: Started): Promise<void> {
  if (started.containerName) await podman(["rm", "--force", "--ignore", started.containerName]);
  await started.container?.stop();
}

// ---- The checks every scenario makes ----

function holders(e2e: E2E, kind: string, name: string): Promise<string[]> {
  return accountsHoldingResource(e2e.stack.awsEndpoint!, kind, name, "eu-west-1", storyAccounts);
}

/** Whether the ServiceAccount (its own token) may list buckets in `namespace`, or cluster-wide. */
async function mayListBuckets(s: Scenario, namespace?: string): Promise<boolean> {
  const review = await clientWithToken(s.e2e.stack.kubeConfig, s.token).request<{
    status: { allowed: boolean };
  }>({
    method: "POST",
    path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
    body: {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: {
        resourceAttributes: { group: "s3.services.k8s.aws", resource: "buckets", verb: "list", namespace },
      },
    },
  });
  return review.status.allowed;
}

function storyTests(get: () => Scenario): void {
  test("the container runs the Deployment's own args, env and securityContext, as IRSA's role", async () => {
    const s = get();
    const c = s.pod.containers[0]!;
    assert.equal(c.args?.[0], "run");
    assert.ok(c.args?.includes(`--aws-endpoint-url=${s.e2e.stack.awsEndpoint}`), c.args?.join(" "));
    assert.ok(!c.args?.some((a) => a.startsWith("--kubeconfig")), "no kubeconfig: in-cluster config");
    for (const f of [
      "--user=65532:65532",
      "--read-only",
      "--cap-drop=all",
      "--security-opt=no-new-privileges",
      `--tmpfs=/tmp:rw,size=${64 * 1024 ** 2}`,
      `--env=AWS_REGION=${region}`,
    ])
      assert.ok(s.flags.includes(f), `${f} in ${s.flags.join(" ")}`);
    const inspect = await podman([
      "inspect",
      "--format",
      "{{json .Config.User}} {{.State.Running}}",
      s.containerName,
    ]);
    assert.equal(inspect.stdout.trim(), '"65532:65532" true', inspect.stderr);
    // The controller's own identity is the web-identity role's (it has no keys at all).
    const log = await readFile(s.container.logFile, "utf8");
    const identity = log
      .split("\n")
      .filter((l) => l.includes('"event":"controller.identity"'))
      .map((l) => JSON.parse(l) as { account: string; arn: string });
    assert.equal(identity.length, 1, "one controller.identity line");
    assert.equal(identity[0]?.account, controllerAccount);
    assert.match(identity[0]?.arn ?? "", /:assumed-role\/crossrole\//);
  });

  test("shop-assets and shop-orders land in 111111111111 through the CARM account map", async () => {
    const { e2e } = get();
    const b = await waitForCondition(
      e2e.kube,
      "shop",
      "shop-assets",
      "ACK.ResourceSynced",
      "True",
      undefined,
      30_000,
    );
    assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
    assert.equal(
      b.status?.ackResourceMetadata?.identity?.["roleARN"],
      "arn:aws:iam::111111111111:role/shop-team",
    );
    const q = await waitForResourceCondition(e2e.kube, "Queue", "shop", "shop-orders", "Ready", "True");
    assert.equal(q.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
    assert.deepEqual(await holders(e2e, "Bucket", "shop-assets"), ["111111111111"]);
    assert.deepEqual(await holders(e2e, "Queue", "shop-orders"), ["111111111111"]);
  });

  test("shop-billing-exports and DBInstance shop-db land in 222222222222 through AWSRoleIdentity central-it", async () => {
    const { e2e } = get();
    const b = await waitForCondition(
      e2e.kube,
      "shop",
      "shop-billing-exports",
      "Ready",
      "True",
      undefined,
      30_000,
    );
    assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
    const db = await waitForResourceCondition(e2e.kube, "DBInstance", "shop", "shop-db", "Ready", "True");
    assert.equal(db.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
    assert.deepEqual(db.status?.ackResourceMetadata?.identity, {
      source: "identityRef",
      roleARN: "arn:aws:iam::222222222222:role/central-it",
      sessionName: "crossrole-central-it",
    });
    assert.deepEqual(await holders(e2e, "Bucket", "shop-billing-exports"), ["222222222222"]);
    assert.deepEqual(await holders(e2e, "DBInstance", "shop-db"), ["222222222222"]);
    assert.doesNotMatch(JSON.stringify(db), /demo-only-change-me/, "the password is never copied");
  });

  test("sandbox's bucket naming central-it is denied and created nowhere", async () => {
    const { e2e } = get();
    const b = await waitForCondition(
      e2e.kube,
      "sandbox",
      "sandbox-billing-exports",
      "ACK.Recoverable",
      "True",
      "IdentityNotPermitted",
    );
    assert.match(condition(b, "ACK.Recoverable")?.message ?? "", /namespace sandbox/);
    assert.equal(b.status?.ackResourceMetadata, undefined);
    assert.deepEqual(await holders(e2e, "Bucket", "sandbox-billing-exports"), []);
  });
}

function stopTest(get: () => Scenario): void {
  test("podman stop: the controller exits 0, and its log shows nothing refused by RBAC", async () => {
    const s = get();
    const stop = await podman(["stop", "--time=20", s.containerName]);
    assert.equal(stop.code, 0, stop.stderr);
    await waitFor(() => s.container.exited, { what: "podman run to return", timeoutMs: 30_000 });
    const state = await podman(["inspect", "--format", "{{.State.ExitCode}}", s.containerName]);
    assert.equal(state.stdout.trim(), "0", state.stderr);
    const log = await readFile(s.container.logFile, "utf8");
    assert.match(log, /"event":"controller.started"/);
    assert.match(log, /"msg":"stopped"/);
    assert.deepEqual(
      log.split("\n").filter((l) => refusal.test(l)),
      [],
      "no request was refused by RBAC",
    );
  });
}

// ---- The two install scopes ----

let image: string;
const stacks: Partial<Record<"cluster" | "namespace", E2E>> = {};

before(async () => {
  // Both stacks start while the image builds; the containers run one after the other.
  const [built, cluster, ns] = await Promise.allSettled([buildImage(), startE2E(), startE2E()]);
  if (cluster.status === "fulfilled") stacks.cluster = cluster.value; // stopped in after() either way
  if (ns.status === "fulfilled") stacks.namespace = ns.value;
  for (const r of [built, cluster, ns]) if (r.status === "rejected") throw r.reason;
  if (built.status === "fulfilled") image = built.value;
});
after(async () => {
  await Promise.all([stacks.cluster?.stop(), stacks.namespace?.stop()]);
});

describe("installScope=cluster", () => {
  let s: Scenario | undefined;
  const started: Started = {};
  const get = () => {
    assert.ok(s, "the scenario did not start");
    return s;
  };
  before(async () => {
    s = await startScenario(stacks.cluster!, image, { installScope: "cluster" }, "cluster", started);
  });
  after(() => stopScenario(started));

  test("the chart's ServiceAccount may list buckets cluster-wide (its ClusterRole)", async () => {
    const s = get();
    assert.ok(
      s.objects.some((o) => o.kind === "ClusterRole" && o.metadata.name !== "crossrole-config-reader"),
    );
    assert.equal(await mayListBuckets(s), true);
  });
  storyTests(get);
  stopTest(get);
});

describe("installScope=namespace, watchNamespace shop,sandbox", () => {
  let s: Scenario | undefined;
  const started: Started = {};
  const get = () => {
    assert.ok(s, "the scenario did not start");
    return s;
  };
  before(async () => {
    s = await startScenario(
      stacks.namespace!,
      image,
      { installScope: "namespace", watchNamespace: ["shop", "sandbox"] },
      "namespace",
      started,
    );
  });
  after(() => stopScenario(started));

  test("nothing cluster-wide: Roles in shop and sandbox, the narrow config reader, no cluster-wide bucket list", async () => {
    const s = get();
    const names = (kind: string) =>
      s.objects
        .filter((o) => o.kind === kind)
        .map((o) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`)
        .sort();
    assert.deepEqual(names("ClusterRole"), ["/crossrole-config-reader"]);
    assert.deepEqual(names("ClusterRoleBinding"), ["/crossrole-config-reader"]);
    assert.ok(names("Role").includes("shop/crossrole-resources"), names("Role").join(" "));
    assert.ok(names("Role").includes("sandbox/crossrole-resources"), names("Role").join(" "));
    assert.equal(s.pod.containers[0]?.args?.includes("--watch-namespace=shop,sandbox"), true);

    assert.equal(await mayListBuckets(s), false, "SelfSubjectAccessReview: list buckets cluster-wide");
    assert.equal(await mayListBuckets(s, "shop"), true, "SelfSubjectAccessReview: list buckets in shop");
    const asPod = clientWithToken(s.e2e.stack.kubeConfig, s.token);
    await assert.rejects(
      asPod.request({ method: "GET", path: "/apis/s3.services.k8s.aws/v1alpha1/buckets" }),
      (err) => err instanceof KubeApiError && err.status === 403,
    );
  });
  storyTests(get);
  stopTest(get);
});
