// A real Kubernetes control plane on loopback: etcd + kube-apiserver (and, on request,
// kube-controller-manager for namespace deletion and garbage collection), as envtest runs it.
// Everything lives in a temp dir and on free ports; stop() ends every process it started.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { loadKubeconfigFiles } from "../runtime/kubeconfig.ts";
import type { RestConfig } from "../runtime/rest-config.ts";
import { freePort } from "./ports.ts";
import { HarnessError, ManagedProcess } from "./process.ts";
import { binaries, kubeVersion } from "./versions.ts";
import { waitFor } from "./wait.ts";

export interface ControlPlaneOptions {
  /** Directory for data, keys, logs and the kubeconfig (created by the caller). */
  readonly dir: string;
  /** Also run kube-controller-manager with the namespace and garbage-collector controllers. */
  readonly controllerManager?: boolean;
  readonly startTimeoutMs?: number;
}

export interface ControlPlane {
  readonly serverURL: string;
  readonly kubeconfigPath: string;
  /** The admin kubeconfig, resolved: what createKubeClient and the Manager take. */
  readonly kubeConfig: RestConfig;
  /** The admin bearer token written into the kubeconfig (group system:masters). */
  readonly adminToken: string;
  /** PEM of the CA that signed the apiserver's serving certificate. */
  readonly caPEM: string;
  /** The service-account token issuer, as TokenRequest tokens carry it in `iss`. */
  readonly serviceAccountIssuer: string;
  stop(): Promise<void>;
}

function requireBinary(step: string, path: string): void {
  if (!existsSync(path)) {
    throw new HarnessError(
      step,
      `${path} is missing; run scripts/build-control-plane.sh (it builds and caches it)`,
    );
  }
}

/** GET an https URL on the apiserver with the admin token; resolves with the status and body. */
function apiGet(url: string, token: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, ca, timeout: 5_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolveGet({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
    req.end();
  });
}

async function startEtcd(dir: string, timeoutMs: number): Promise<{ proc: ManagedProcess; url: string }> {
  requireBinary("start etcd", binaries.etcd);
  const clientPort = await freePort();
  const peerPort = await freePort();
  const url = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const command = [
    binaries.etcd,
    "--name=default",
    `--data-dir=${join(dir, "etcd-data")}`,
    `--listen-client-urls=${url}`,
    `--advertise-client-urls=${url}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    "--unsafe-no-fsync=true",
    "--log-level=warn",
  ];
  const proc = new ManagedProcess("etcd", command, join(dir, "etcd.log"));
  await waitFor(
    async () => {
      proc.assertRunning("start etcd");
      const res = await fetch(`${url}/health`);
      return res.ok && ((await res.json()) as { health?: string }).health === "true";
    },
    { what: "etcd /health", timeoutMs },
  ).catch((err: unknown) => {
    throw err instanceof HarnessError
      ? err
      : new HarnessError("start etcd", String(err), command, proc.logFile);
  });
  return { proc, url };
}

async function startApiserver(
  dir: string,
  etcdURL: string,
  timeoutMs: number,
): Promise<{ proc: ManagedProcess; serverURL: string; token: string; ca: string; issuer: string }> {
  requireBinary("start kube-apiserver", binaries.kubeApiserver);
  const pki = join(dir, "pki");
  await mkdir(pki, { recursive: true });
  // Service-account signing keys: without them the TokenRequest API is off.
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await writeFile(join(pki, "sa.pub"), publicKey.export({ type: "spki", format: "pem" }));
  await writeFile(join(pki, "sa.key"), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  const token = randomBytes(24).toString("hex");
  await writeFile(join(pki, "tokens.csv"), `${token},admin,admin-uid,"system:masters"\n`, { mode: 0o600 });

  const port = await freePort();
  const serverURL = `https://127.0.0.1:${port}`;
  const issuer = "https://kubernetes.default.svc.cluster.local";
  const command = [
    binaries.kubeApiserver,
    `--etcd-servers=${etcdURL}`,
    `--etcd-prefix=/registry`,
    // The apiserver writes a throwaway CA and a serving certificate for 127.0.0.1 here.
    `--cert-dir=${pki}`,
    "--bind-address=127.0.0.1",
    "--advertise-address=127.0.0.1",
    `--secure-port=${port}`,
    `--token-auth-file=${join(pki, "tokens.csv")}`,
    "--authorization-mode=RBAC",
    `--service-account-issuer=${issuer}`,
    `--service-account-key-file=${join(pki, "sa.pub")}`,
    `--service-account-signing-key-file=${join(pki, "sa.key")}`,
    "--service-cluster-ip-range=10.0.0.0/24",
    "--disable-admission-plugins=ServiceAccount",
    "--allow-privileged=true",
    "--endpoint-reconciler-type=none",
    "--enable-priority-and-fairness=false",
    "--profiling=false",
    "-v=1",
  ];
  const proc = new ManagedProcess("kube-apiserver", command, join(dir, "kube-apiserver.log"));
  let ca = "";
  await waitFor(
    async () => {
      proc.assertRunning("start kube-apiserver");
      if (!ca) {
        const crt = join(pki, "apiserver.crt");
        if (!existsSync(crt)) return false;
        ca = await readFile(crt, "utf8");
      }
      const res = await apiGet(`${serverURL}/readyz`, token, ca);
      return res.status === 200;
    },
    { what: "kube-apiserver /readyz", timeoutMs },
  ).catch((err: unknown) => {
    throw err instanceof HarnessError
      ? err
      : new HarnessError("start kube-apiserver", String(err), command, proc.logFile);
  });
  return { proc, serverURL, token, ca, issuer };
}

function kubeconfigYAML(serverURL: string, ca: string, token: string): string {
  const caData = Buffer.from(ca).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: crossrole-local",
    "  cluster:",
    `    server: ${serverURL}`,
    `    certificate-authority-data: ${caData}`,
    "users:",
    "- name: admin",
    "  user:",
    `    token: ${token}`,
    "contexts:",
    "- name: crossrole-local",
    "  context: {cluster: crossrole-local, user: admin}",
    "current-context: crossrole-local",
    "",
  ].join("\n");
}

export async function startControlPlane(opts: ControlPlaneOptions): Promise<ControlPlane> {
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  const started: ManagedProcess[] = [];
  const stopAll = async () => {
    for (const p of started.reverse()) await p.stop();
  };
  try {
    const etcd = await startEtcd(opts.dir, timeoutMs);
    started.push(etcd.proc);
    const api = await startApiserver(opts.dir, etcd.url, timeoutMs);
    started.push(api.proc);
    const kubeconfigPath = join(opts.dir, "kubeconfig");
    await writeFile(kubeconfigPath, kubeconfigYAML(api.serverURL, api.ca, api.token), { mode: 0o600 });
    if (opts.controllerManager) {
      requireBinary("start kube-controller-manager", binaries.kubeControllerManager);
      const command = [
        binaries.kubeControllerManager,
        `--kubeconfig=${kubeconfigPath}`,
        "--controllers=namespace,garbagecollector",
        "--leader-elect=false",
        "--secure-port=0",
        "--use-service-account-credentials=false",
      ];
      started.push(
        new ManagedProcess("kube-controller-manager", command, join(opts.dir, "kube-controller-manager.log")),
      );
    }
    const kubeConfig = loadKubeconfigFiles([kubeconfigPath]);
    return {
      serverURL: api.serverURL,
      kubeconfigPath,
      kubeConfig,
      adminToken: api.token,
      caPEM: api.ca,
      serviceAccountIssuer: api.issuer,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

export { kubeVersion };
