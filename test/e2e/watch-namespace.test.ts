// The shipped RBAC is enough, and no more (DESIGN §3.4, §5): the REAL controller process runs
// as the `crossrole` ServiceAccount (a TokenRequest token the stack's apiserver signed), first
// with `--watch-namespace=a,b` on the namespace-scoped RBAC `crossrole rbac --watch-namespace=a,b`
// prints, then on all namespaces with config/rbac/cluster.yaml. Every API call the controller
// makes goes through the apiserver's RBAC authorizer; the log must show no 403.
//
// Phase 1 (namespace-scoped): buckets in a and b sync into the accounts CARM maps their
// namespaces to (one through an AWSServiceAccountIdentity, so TokenRequest is exercised); a
// bucket in c is never touched; the token cannot list buckets or Namespaces cluster-wide.
// Phase 2 (cluster-wide): the same ServiceAccount, bound by cluster.yaml only, syncs c's bucket.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parseAllDocuments, stringify } from "yaml";
import { accountsHolding } from "../../src/local-stack/accounts.ts";
import { startControllerProcess } from "../../src/local-stack/controller-process.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  createKubeClient,
  isNotFound,
  KubeApiError,
  type KubeClient,
} from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { loadKubeconfigFiles } from "../../src/runtime/kubeconfig.ts";
import {
  bucket,
  bucketsIn,
  type ControllerProcess,
  configMap,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const sys = "ack-system";
const owner = "services.k8s.aws/owner-account-id";
const accounts = { a: "414141414141", b: "424242424242", c: "434343434343", web: "454545454545" } as const;
const everyAccount = [controllerAccount, ...Object.values(accounts)];
const role = (account: string, name: string) => `arn:aws:iam::${account}:role/${name}`;

let e2e: E2E;
let endpoint: string;
/** A kubeconfig and a client that act as system:serviceaccount:ack-system:crossrole. */
let saKubeconfigPath: string;
let asController: KubeClient;
/** The objects `crossrole rbac --watch-namespace=a,b` printed (applied in phase 1). */
let scopedRbac: KubeObject[];
const controllers: ControllerProcess[] = [];

/** `crossrole <args>` as a child process; resolves with its stdout (rejects on a non-zero exit). */
async function crossrole(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [join(repoRoot, "bin/crossrole.js"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => {
    out += c;
  });
  child.stderr.setEncoding("utf8").on("data", (c: string) => {
    err += c;
  });
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`crossrole ${args.join(" ")} exited ${code}: ${err}`);
  return out;
}

function parseYaml(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

/** The HTTP status of a request made with the ServiceAccount's token (200 when it succeeds). */
async function statusOf(req: Promise<unknown>): Promise<number> {
  try {
    await req;
    return 200;
  } catch (err) {
    if (err instanceof KubeApiError) return err.status;
    throw err;
  }
}

/** Opens a watch with the ServiceAccount's token; resolves with the first event's object name. */
async function firstWatchEvent(path: string, query: Record<string, string>): Promise<string> {
  const stop = new AbortController();
  let name = "";
  await asController.watch({
    path,
    query,
    signal: stop.signal,
    timeoutMs: 10_000,
    onEvent: (e) => {
      name ||= e.object.metadata?.name ?? "";
      stop.abort();
    },
  });
  return name;
}

/** Every line of the controller's log (stdout JSON and stderr) that reports a refusal. */
async function forbiddenLines(c: ControllerProcess): Promise<string[]> {
  const text = await readFile(c.logFile, "utf8");
  return text
    .split("\n")
    .filter((l) => /forbidden|: 403[ :]|"status":403\b/i.test(l))
    .map((l) => (l.length > 600 ? `${l.slice(0, 600)}…` : l));
}

const holders = (name: string): Promise<string[]> => accountsHolding(endpoint, name, everyAccount);

async function deleteIfExists(path: string): Promise<void> {
  try {
    await e2e.kube.request({ method: "DELETE", path });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint!;
  // Every namespace is mapped: c's bucket would sync if the controller looked at it.
  await e2e.apply([
    namespace(sys),
    namespace("a", { [owner]: accounts.a }),
    namespace("b", { [owner]: accounts.b }),
    namespace("c", { [owner]: accounts.c }),
    configMap("ack-role-account-map", {
      [accounts.a]: role(accounts.a, "team-a"),
      [accounts.b]: role(accounts.b, "team-b"),
      [accounts.c]: role(accounts.c, "team-c"),
    }),
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "deployer", namespace: "b" } },
    {
      apiVersion: "identity.crossrole.dev/v1alpha1",
      kind: "AWSServiceAccountIdentity",
      metadata: { name: "deployer", namespace: "b" },
      spec: { roleARN: role(accounts.web, "b-deployer"), serviceAccountName: "deployer" },
    } as KubeObject,
  ]);

  scopedRbac = parseYaml(await crossrole(["rbac", "--watch-namespace=a,b"]));
  await e2e.apply(scopedRbac);

  // A token for the controller's ServiceAccount, as a Pod would get it (the stack's apiserver signs it).
  const tr = await e2e.kube.request<{ status: { token: string } }>({
    method: "POST",
    path: `/api/v1/namespaces/${sys}/serviceaccounts/crossrole/token`,
    body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
  });
  const cp = e2e.stack.controlPlane;
  saKubeconfigPath = join(e2e.stack.dir, "crossrole-sa.kubeconfig");
  await writeFile(
    saKubeconfigPath,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "local",
          cluster: {
            server: cp.serverURL,
            "certificate-authority-data": Buffer.from(cp.caPEM).toString("base64"),
          },
        },
      ],
      users: [{ name: "crossrole", user: { token: tr.status.token } }],
      contexts: [{ name: "crossrole", context: { cluster: "local", user: "crossrole", namespace: sys } }],
      "current-context": "crossrole",
    }),
    { mode: 0o600 },
  );
  asController = createKubeClient(loadKubeconfigFiles([saKubeconfigPath]));

  // c's bucket exists before the controller starts and before a's and b's.
  await e2e.apply([bucket("c", "data")]);
  controllers.push(
    await startControllerProcess(e2e.stack, ["--watch-namespace=a,b", "--enable-leader-election"], {
      name: "controller-scoped",
      kubeconfigPath: saKubeconfigPath,
    }),
  );
  await e2e.apply([
    bucket("a", "assets"),
    bucket("b", "assets"),
    bucket("b", "deploys", { identityRef: { kind: "AWSServiceAccountIdentity", name: "deployer" } }),
  ]);
});
after(async () => {
  for (const c of controllers) await c.stop();
  await e2e?.stop();
});

test("the token is the controller's ServiceAccount, and it cannot read buckets or Namespaces cluster-wide", async () => {
  const review = await asController.request<{ status: { userInfo: { username: string } } }>({
    method: "POST",
    path: "/apis/authentication.k8s.io/v1/selfsubjectreviews",
    body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
  });
  assert.equal(review.status.userInfo.username, `system:serviceaccount:${sys}:crossrole`);
  const get = (path: string, query: Record<string, string> = {}) =>
    statusOf(asController.request({ method: "GET", path, query }));
  const buckets = "/apis/s3.services.k8s.aws/v1alpha1";
  assert.equal(await get(`${buckets}/buckets`), 403, "list buckets cluster-wide");
  assert.equal(await get(`${buckets}/namespaces/c/buckets`), 403, "list buckets in c");
  assert.equal(await get(`${buckets}/namespaces/c/buckets/data`), 403, "get c's bucket");
  assert.equal(await get("/api/v1/namespaces"), 403, "list Namespaces");
  assert.equal(await get("/api/v1/namespaces/c"), 403, "get Namespace c");
  assert.equal(await get("/api/v1/namespaces", { fieldSelector: "metadata.name=c" }), 403);
  assert.equal(await get("/api/v1/namespaces/c/secrets"), 403, "Secrets outside the watched namespaces");
  assert.equal(await get("/api/v1/namespaces/a/configmaps"), 403, "ConfigMaps outside the system namespace");
  assert.equal(await get("/api/v1/secrets"), 403, "Secrets cluster-wide");
  const watchAll = statusOf(firstWatchEvent("/api/v1/namespaces", {}));
  assert.equal(await watchAll, 403, "watch Namespaces");
  // What the controller does need is allowed.
  assert.equal(await get(`${buckets}/namespaces/a/buckets`), 200);
  assert.equal(await get("/api/v1/namespaces/ack-system/secrets"), 200);
  // A DBInstance's master password is a Secret in its own (watched) namespace.
  assert.equal(await get("/api/v1/namespaces/a/secrets"), 200, "Secrets in a watched namespace");
});

test("the apiserver authorizes a Namespace list/watch with a metadata.name field selector by resourceNames", async () => {
  const list = await asController.request<{ items: KubeObject[] }>({
    method: "GET",
    path: "/api/v1/namespaces",
    query: { fieldSelector: "metadata.name=a" },
  });
  assert.deepEqual(
    list.items.map((n) => n.metadata.name),
    ["a"],
  );
  assert.equal(await firstWatchEvent("/api/v1/namespaces", { fieldSelector: "metadata.name=b" }), "b");
  assert.equal(
    await statusOf(firstWatchEvent("/api/v1/namespaces", { fieldSelector: "metadata.name=c" })),
    403,
  );
});

test("with --watch-namespace=a,b on namespace-scoped RBAC, buckets in a and b sync into their accounts", async () => {
  const a = await waitForCondition(e2e.kube, "a", "assets", "ACK.ResourceSynced", "True");
  assert.equal(a.status?.ackResourceMetadata?.ownerAccountID, accounts.a);
  const b = await waitForCondition(e2e.kube, "b", "assets", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, accounts.b);
  // Through an AWSServiceAccountIdentity in b: a TokenRequest for b's ServiceAccount.
  const d = await waitForCondition(e2e.kube, "b", "deploys", "ACK.ResourceSynced", "True");
  assert.equal(d.status?.ackResourceMetadata?.ownerAccountID, accounts.web);
  assert.deepEqual(await holders("a-assets"), [accounts.a]);
  assert.deepEqual(await holders("b-assets"), [accounts.b]);
  assert.deepEqual(await holders("b-deploys"), [accounts.web]);
  // The controller recorded Events in a and b, and holds the leader Lease in the system namespace.
  for (const ns of ["a", "b"]) {
    await waitFor(
      async () => {
        const events = await e2e.kube.request<{ items: { reason?: string }[] }>({
          method: "GET",
          path: `/api/v1/namespaces/${ns}/events`,
        });
        return events.items.some((e) => e.reason === "Created");
      },
      { what: `a Created Event in ${ns}`, timeoutMs: 10_000 },
    );
  }
  const lease = await e2e.kube.request<{ spec?: { holderIdentity?: string } }>({
    method: "GET",
    path: `/apis/coordination.k8s.io/v1/namespaces/${sys}/leases/crossrole-leader`,
  });
  assert.ok(lease.spec?.holderIdentity, "the controller holds the leader Lease");
});

test("a bucket in namespace c is never touched: no finalizer, no status, nothing in AWS", async () => {
  // Positive signal first: the controller has processed a's and b's buckets, created after c's.
  await waitForCondition(e2e.kube, "a", "assets", "ACK.ResourceSynced", "True");
  await waitForCondition(e2e.kube, "b", "assets", "ACK.ResourceSynced", "True");
  const c = await getBucket(e2e.kube, "c", "data");
  assert.ok(c, "c's bucket exists");
  assert.equal(c.metadata.finalizers, undefined);
  assert.equal(c.status, undefined);
  assert.deepEqual(await holders("c-data"), []);
  assert.deepEqual(await bucketsIn(endpoint, accounts.c), []);
});

test("deleting a bucket in a removes it from a's account (finalizer patch allowed)", async () => {
  await e2e.apply([bucket("a", "scratch")]);
  await waitForCondition(e2e.kube, "a", "scratch", "ACK.ResourceSynced", "True");
  assert.deepEqual(await holders("a-scratch"), [accounts.a]);
  await e2e.kube.request({
    method: "DELETE",
    path: "/apis/s3.services.k8s.aws/v1alpha1/namespaces/a/buckets/scratch",
  });
  await waitFor(async () => (await getBucket(e2e.kube, "a", "scratch")) === undefined, {
    what: "bucket a/scratch gone",
    timeoutMs: 20_000,
  });
  assert.deepEqual(await holders("a-scratch"), []);
});

test("the namespace-scoped controller's log has no 403 / forbidden", async () => {
  const scoped = controllers[0]!;
  assert.ok(
    scoped.logs().some((l) => l["msg"] === "crossrole controller started"),
    "the controller started",
  );
  assert.deepEqual(await forbiddenLines(scoped), []);
});

test("cluster-wide: config/rbac/cluster.yaml alone lets the controller (no --watch-namespace) sync c's bucket", async () => {
  const scoped = controllers[0]!;
  assert.equal(await scoped.stop(), 0, "the namespace-scoped controller stops cleanly");
  // Remove the namespace-scoped grants: from now on the ServiceAccount has only cluster.yaml's.
  for (const o of scopedRbac) {
    if (o.kind === "ServiceAccount") continue;
    const plural = `${o.kind?.toLowerCase()}s`;
    const ns = o.metadata.namespace ? `/namespaces/${o.metadata.namespace}` : "";
    await deleteIfExists(`/apis/rbac.authorization.k8s.io/v1${ns}/${plural}/${o.metadata.name}`);
  }
  await e2e.apply(join(repoRoot, "config/rbac/cluster.yaml"));
  await waitFor(
    async () => (await statusOf(asController.request({ method: "GET", path: "/api/v1/namespaces" }))) === 200,
    {
      what: "cluster.yaml's grants in effect",
      timeoutMs: 10_000,
    },
  );
  const wide = await startControllerProcess(e2e.stack, ["--enable-leader-election"], {
    name: "controller-cluster",
    kubeconfigPath: saKubeconfigPath,
  });
  controllers.push(wide);
  const c = await waitForCondition(e2e.kube, "c", "data", "ACK.ResourceSynced", "True");
  assert.equal(c.status?.ackResourceMetadata?.ownerAccountID, accounts.c);
  assert.deepEqual(await holders("c-data"), [accounts.c]);
  // a's and b's buckets stay synced, with nothing duplicated.
  await waitForCondition(e2e.kube, "b", "deploys", "ACK.ResourceSynced", "True");
  assert.deepEqual(await holders("a-assets"), [accounts.a]);
  assert.deepEqual(await holders("b-deploys"), [accounts.web]);
  assert.deepEqual(await forbiddenLines(wide), []);
});
