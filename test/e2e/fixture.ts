// End-to-end fixture: the local stack, crossrole's CRDs, and the REAL controller process
// (`crossrole run`), plus what tests need to look at both sides — Kubernetes objects and
// which account's AWS holds what (asked in the emulator with that account's credentials).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { installCrds } from "../../src/deploy/crds.ts";
import { applyObjects, readManifests } from "../../src/deploy/manifests.ts";
import { createKubeClient, isNotFound, type KubeClient } from "../../src/runtime/kubeClient.ts";
import type { KubeObject } from "../../src/runtime/kubeObject.ts";
import { type Stack, type StackOptions, startStack, waitFor } from "../harness/index.ts";
import { freePort } from "../harness/ports.ts";
import { repoRoot } from "../harness/versions.ts";

/** The emulator's default credentials: the controller's own identity, account 123456789012. */
export const controllerCredentials = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "controller-secret",
};
export const controllerAccount = "123456789012";
export const region = "us-east-1";

export interface ControllerProcess {
  readonly healthURL: string;
  readonly metricsURL: string;
  readonly logFile: string;
  /** Every JSON log line so far. */
  logs(): Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  readonly exited: boolean;
}

export interface E2E {
  readonly stack: Stack;
  readonly kube: KubeClient;
  apply(objects: readonly KubeObject[] | string): Promise<void>;
  /** Starts `crossrole run` (extra flags appended); waits until /readyz answers 200. */
  startController(
    extraArgs?: readonly string[],
    opts?: { waitReady?: boolean; name?: string },
  ): Promise<ControllerProcess>;
  stop(): Promise<void>;
}

export async function startE2E(opts: StackOptions = {}): Promise<E2E> {
  const stack = await startStack(opts);
  const kube = createKubeClient(stack.kubeConfig);
  const controllers: ControllerProcess[] = [];
  try {
    await installCrds(kube);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return {
    stack,
    kube,
    async apply(objects) {
      await applyObjects(kube, typeof objects === "string" ? await readManifests(objects) : objects);
    },
    async startController(extraArgs = [], o = {}) {
      const c = await spawnController(stack, extraArgs, o.name ?? `controller-${controllers.length + 1}`);
      controllers.push(c);
      if (o.waitReady ?? true) {
        await waitFor(
          async () => {
            if (c.exited) throw new Error(`the controller exited; see ${c.logFile}`);
            return (await fetch(`${c.healthURL}/readyz`)).ok;
          },
          { what: "the controller's /readyz", timeoutMs: 30_000 },
        );
      }
      return c;
    },
    async stop() {
      for (const c of controllers) await c.stop();
      await stack.stop();
    },
  };
}

async function spawnController(
  stack: Stack,
  extraArgs: readonly string[],
  name: string,
): Promise<ControllerProcess> {
  const healthPort = await freePort();
  const metricsPort = await freePort();
  const logFile = join(stack.dir, `${name}.log`);
  const args = [
    join(repoRoot, "bin/crossrole.js"),
    "run",
    `--kubeconfig=${stack.kubeconfigPath}`,
    `--aws-endpoint-url=${stack.awsEndpoint}`,
    `--aws-region=${region}`,
    `--healthz-addr=127.0.0.1:${healthPort}`,
    `--metrics-addr=127.0.0.1:${metricsPort}`,
    "--log-level=debug",
    ...extraArgs,
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      AWS_ACCESS_KEY_ID: controllerCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: controllerCredentials.secretAccessKey,
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_REGION: region,
    },
  });
  const file = createWriteStream(logFile);
  const lines: Record<string, unknown>[] = [];
  let partial = "";
  child.stdout?.on("data", (b: Buffer) => {
    file.write(b);
    partial += b.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr?.pipe(file);
  let exited = false;
  const exit = once(child, "exit").then(([code]) => {
    exited = true;
    return code as number | null;
  });
  return {
    healthURL: `http://127.0.0.1:${healthPort}`,
    metricsURL: `http://127.0.0.1:${metricsPort}`,
    logFile,
    logs: () => lines,
    get exited() {
      return exited;
    },
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (exited) return exit;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}

// ---- Kubernetes side ----

export type Resource = KubeObject & {
  spec?: Record<string, unknown>;
  status?: {
    ackResourceMetadata?: {
      arn?: string;
      ownerAccountID?: string;
      region?: string;
      identity?: Record<string, unknown>;
      iamRoleSelector?: Record<string, unknown>;
    };
    conditions?: {
      type: string;
      status: string;
      reason?: string;
      message?: string;
      lastTransitionTime?: string;
    }[];
  };
};

export function bucketPath(namespace: string, name: string): string {
  return `/apis/s3.services.k8s.aws/v1alpha1/namespaces/${namespace}/buckets/${name}`;
}

export async function getBucket(
  kube: KubeClient,
  namespace: string,
  name: string,
): Promise<Resource | undefined> {
  try {
    return await kube.request<Resource>({ method: "GET", path: bucketPath(namespace, name) });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function condition(r: Resource | undefined, type: string) {
  return r?.status?.conditions?.find((c) => c.type === type);
}

/** Waits until the bucket's condition `type` has `status` (and, if given, `reason`); returns the bucket. */
export function waitForCondition(
  kube: KubeClient,
  namespace: string,
  name: string,
  type: string,
  status: "True" | "False",
  reason?: string,
  timeoutMs = 20_000,
): Promise<Resource> {
  return waitFor(
    async () => {
      const b = await getBucket(kube, namespace, name);
      const c = condition(b, type);
      return c?.status === status && (reason === undefined || c.reason === reason) ? b : undefined;
    },
    { what: `Bucket ${namespace}/${name} ${type}=${status}${reason ? ` (${reason})` : ""}`, timeoutMs },
  );
}

export function bucket(
  namespace: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "s3.services.k8s.aws/v1alpha1",
    kind: "Bucket",
    metadata: { name, namespace, ...metadata },
    spec: { name: `${namespace}-${name}`, ...spec },
  } as KubeObject;
}

export function namespace(
  name: string,
  annotations: Record<string, string> = {},
  labels: Record<string, string> = {},
): KubeObject {
  return { apiVersion: "v1", kind: "Namespace", metadata: { name, annotations, labels } };
}

export function configMap(name: string, data: Record<string, string>, ns = "ack-system"): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns }, data } as KubeObject;
}

// ---- AWS side: what each account holds, asked with that account's credentials ----

async function credentialsFor(endpoint: string, account: string) {
  if (account === controllerAccount) return controllerCredentials;
  const sts = new STSClient({ region, endpoint, credentials: controllerCredentials });
  const out = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${account}:role/e2e-inspector`,
      RoleSessionName: "e2e-inspector",
    }),
  );
  const c = out.Credentials;
  if (!c?.AccessKeyId || !c.SecretAccessKey)
    throw new Error(`AssumeRole into ${account} returned no credentials`);
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
}

/** The bucket names account `account` owns, as S3's ListBuckets answers for it. */
export async function bucketsIn(endpoint: string, account: string): Promise<string[]> {
  const s3 = new S3Client({
    region,
    endpoint,
    forcePathStyle: true,
    credentials: await credentialsFor(endpoint, account),
  });
  const out = await s3.send(new ListBucketsCommand({}));
  return (out.Buckets ?? []).map((b) => b.Name ?? "").sort();
}
