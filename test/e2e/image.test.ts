// The container image (Containerfile, built here by scripts/build-image.sh) runs the controller
// as a Pod would: podman with a read-only root filesystem and only /tmp writable, a non-root uid,
// no capabilities, and no kubeconfig — the in-cluster ServiceAccount view instead: a TokenRequest
// token for the `crossrole` ServiceAccount (bound by config/rbac/cluster.yaml), `ca.crt` and
// `namespace` under /var/run/secrets/kubernetes.io/serviceaccount/, KUBERNETES_SERVICE_HOST/PORT
// pointing at the local kube-apiserver, AWS keys in the environment. A Bucket it reconciles
// lands in the emulator.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { readManifests } from "../../src/local-stack/manifests.ts";
import { freePort } from "../../src/local-stack/ports.ts";
import { ManagedProcess } from "../../src/local-stack/process.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { crossroleVersion } from "../../src/version.ts";
import { buildImage, podman, podmanEnv, podmanRunPrefix } from "../harness/image.ts";
import {
  accountsHolding,
  bucket,
  controllerAccount,
  controllerCredentials,
  type E2E,
  namespace,
  region,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const sys = "ack-system";
const ns = "image";
const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";
/** What a restricted Pod gets: read-only root, only /tmp writable, no capabilities (+ `asNonRoot`). */
const restricted = [
  "--pull=never",
  "--network=host",
  "--read-only",
  // podman would otherwise also mount writable tmpfs on /run, /var/tmp, ...: only /tmp here.
  "--read-only-tmpfs=false",
  "--tmpfs=/tmp",
  "--cap-drop=all",
  "--security-opt=no-new-privileges",
];
/** runAsUser; the image's own USER is the same uid (checked below without this flag). */
const asNonRoot = "--user=65532:65532";

let image: string;
let e2e: E2E;
let container: ManagedProcess | undefined;
let logFile = "";
const containerName = `crossrole-e2e-${randomBytes(4).toString("hex")}`;

/** `podman run` of the image with the restricted flags; resolves with the result. */
async function runImage(podmanArgs: readonly string[], args: readonly string[]) {
  const r = await podman([...podmanRunPrefix.slice(1), "--rm", ...restricted, ...podmanArgs, image, ...args]);
  assert.equal(r.code, 0, `podman run ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

before(async () => {
  const [built, started] = await Promise.allSettled([buildImage(), startE2E()]);
  if (started.status === "fulfilled") e2e = started.value; // stopped in after() either way
  if (built.status === "rejected") throw built.reason;
  if (started.status === "rejected") throw started.reason;
  image = built.value;
});
after(async () => {
  await podman(["rm", "--force", "--ignore", containerName]);
  await container?.stop();
  await e2e?.stop();
});

test("the image runs `crossrole` on Node 24 as a non-root uid, with the controller's V8 flag", async () => {
  const inspect = await podman(["image", "inspect", "--format", "{{json .Config}}", image]);
  assert.equal(inspect.code, 0, inspect.stderr);
  const config = JSON.parse(inspect.stdout) as { User?: string; Entrypoint?: string[]; Cmd?: string[] };
  assert.equal(config.User, "65532:65532");
  assert.deepEqual(config.Entrypoint, ["node", "--max-semi-space-size=2", "/app/bin/crossrole.js"]);
  assert.deepEqual(config.Cmd, ["run"]);

  assert.equal((await runImage([asNonRoot], ["--version"])).trim(), `crossrole ${crossroleVersion}`);
  assert.match(await runImage([asNonRoot], ["run", "--help"]), /--aws-endpoint-url/);

  // The image's own user (no --user) and Node, and what /app holds: no tests, bench or scripts,
  // and production packages only.
  const probe = `
    const fs = require("node:fs");
    const tests = fs.readdirSync("/app/src", { recursive: true }).filter((f) => /\\.test\\.ts$/.test(f));
    const dev = ["typescript", "@biomejs", "fast-check", "node"].filter((p) => fs.existsSync("/app/node_modules/" + p));
    console.log(JSON.stringify({ uid: process.getuid(), node: process.version, app: fs.readdirSync("/app").sort(), tests, dev }));`;
  const seen = JSON.parse(await runImage(["--entrypoint=node"], ["-e", probe])) as {
    uid: number;
    node: string;
    app: string[];
    tests: string[];
    dev: string[];
  };
  assert.equal(seen.uid, 65532);
  assert.match(seen.node, /^v24\./);
  assert.deepEqual(seen.app, ["bin", "config", "js-cache", "node_modules", "package.json", "src"]);
  assert.deepEqual(seen.tests, []);
  assert.deepEqual(seen.dev, []);
});

test("in-cluster, on the shipped RBAC: the image's controller syncs a Bucket into the emulator", async () => {
  const endpoint = e2e.stack.awsEndpoint!;
  const cp = e2e.stack.controlPlane;
  await e2e.apply([namespace(sys), namespace(ns)]);
  await e2e.apply(await readManifests(join(repoRoot, "config/rbac/cluster.yaml")));

  // What the kubelet mounts into a Pod of ServiceAccount ack-system/crossrole.
  const tr = await e2e.kube.request<{ status: { token: string } }>({
    method: "POST",
    path: `/api/v1/namespaces/${sys}/serviceaccounts/crossrole/token`,
    body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
  });
  const saDir = join(e2e.stack.dir, "serviceaccount");
  await mkdir(saDir, { recursive: true });
  await chmod(saDir, 0o755);
  await writeFile(join(saDir, "token"), tr.status.token, { mode: 0o644 });
  await writeFile(join(saDir, "ca.crt"), cp.caPEM, { mode: 0o644 });
  await writeFile(join(saDir, "namespace"), sys, { mode: 0o644 });

  const healthPort = await freePort();
  const metricsPort = await freePort();
  const apiPort = new URL(cp.serverURL).port;
  logFile = join(e2e.stack.dir, "controller-image.log");
  container = new ManagedProcess(
    "crossrole (image)",
    [
      ...podmanRunPrefix,
      ...restricted,
      asNonRoot,
      `--name=${containerName}`,
      `--volume=${saDir}:${serviceAccountDir}:ro`,
      "--env=KUBERNETES_SERVICE_HOST=127.0.0.1",
      `--env=KUBERNETES_SERVICE_PORT=${apiPort}`,
      `--env=AWS_ACCESS_KEY_ID=${controllerCredentials.accessKeyId}`,
      `--env=AWS_SECRET_ACCESS_KEY=${controllerCredentials.secretAccessKey}`,
      "--env=AWS_EC2_METADATA_DISABLED=true",
      `--env=AWS_REGION=${region}`,
      image,
      "run",
      `--aws-endpoint-url=${endpoint}`,
      `--aws-region=${region}`,
      `--healthz-addr=127.0.0.1:${healthPort}`,
      `--metrics-addr=127.0.0.1:${metricsPort}`,
      "--log-level=debug",
    ],
    logFile,
    podmanEnv(),
  );
  const running = container;
  await waitFor(
    async () => {
      running.assertRunning("start the controller's container");
      try {
        return (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok;
      } catch {
        return false;
      }
    },
    { what: "the container's /readyz", timeoutMs: 60_000 },
  );

  await e2e.apply([bucket(ns, "assets")]);
  const b = await waitForCondition(e2e.kube, ns, "assets", "ACK.ResourceSynced", "True", undefined, 30_000);
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, controllerAccount);
  assert.deepEqual(await accountsHolding(endpoint, `${ns}-assets`, [controllerAccount]), [controllerAccount]);
  assert.ok((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).ok, "/metrics answers");

  const log = await readFile(logFile, "utf8");
  assert.match(log, /"event":"controller.started"/);
  const refused = log.split("\n").filter((l) => /forbidden|: 403[ :]|"status":403\b/i.test(l));
  assert.deepEqual(refused, [], "no request was refused by RBAC");
});

test("podman stop (SIGTERM to the controller, PID 1 in the container): it finishes and exits 0", async (t) => {
  if (!container) return t.skip("the controller's container did not start (see the test above)");
  const stop = await podman(["stop", "--time=20", containerName]);
  assert.equal(stop.code, 0, stop.stderr);
  const exited = container;
  await waitFor(() => exited.exited, { what: "podman run to return", timeoutMs: 30_000 });
  const state = await podman(["inspect", "--format", "{{.State.ExitCode}}", containerName]);
  assert.equal(state.stdout.trim(), "0", state.stderr);
  const log = await readFile(logFile, "utf8");
  assert.match(log, /"msg":"stopped"/);
  assert.doesNotMatch(log, /second signal/);
});
