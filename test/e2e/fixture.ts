// End-to-end fixture: the local stack, crossrole's CRDs, and the REAL controller process
// (`crossrole run`), plus what tests need to look at both sides — Kubernetes objects and
// which account's AWS holds what (asked in the emulator with that account's credentials).
import { installCrds } from "../../src/deploy/crds.ts";
import { applyObjects, readManifests } from "../../src/deploy/manifests.ts";
import { createKubeClient, isNotFound, type KubeClient } from "../../src/runtime/kubeClient.ts";
import type { KubeObject } from "../../src/runtime/kubeObject.ts";
import { type ControllerProcess, startControllerProcess } from "../harness/controllerProcess.ts";
import { type Stack, type StackOptions, startStack, waitFor } from "../harness/index.ts";

export { accountsHolding, bucketRegion, bucketsIn, credentialsFor } from "../harness/accounts.ts";
export {
  type ControllerProcess,
  controllerAccount,
  controllerCredentials,
  region,
} from "../harness/controllerProcess.ts";

export interface E2E {
  readonly stack: Stack;
  readonly kube: KubeClient;
  apply(objects: readonly KubeObject[] | string): Promise<void>;
  /** Starts `crossrole run` (extra flags appended); waits until /readyz answers 200. */
  startController(
    extraArgs?: readonly string[],
    opts?: { waitReady?: boolean; name?: string; awsEndpoint?: string },
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
      const c = await startControllerProcess(stack, extraArgs, {
        name: o.name ?? `controller-${controllers.length + 1}`,
        waitReady: o.waitReady ?? true,
        ...(o.awsEndpoint ? { awsEndpoint: o.awsEndpoint } : {}),
      });
      controllers.push(c);
      return c;
    },
    async stop() {
      for (const c of controllers) await c.stop();
      await stack.stop();
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

// ---- Events ----

export interface CoreEvent {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count?: number;
  readonly involvedObject: { readonly kind: string; readonly name: string; readonly namespace?: string };
}

/** Events about one object (`namespace` "" for cluster-scoped objects: they live in default). */
export async function eventsAbout(
  kube: KubeClient,
  namespace: string,
  kind: string,
  name: string,
): Promise<CoreEvent[]> {
  const list = await kube.request<{ items: CoreEvent[] }>({
    method: "GET",
    path: `/api/v1/namespaces/${namespace || "default"}/events`,
  });
  return list.items.filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name);
}

/** Waits for an Event with `reason` (and a message matching `pattern`) about the object. */
export function waitForEvent(
  kube: KubeClient,
  namespace: string,
  kind: string,
  name: string,
  reason: string,
  pattern: RegExp = /./,
  timeoutMs = 15_000,
): Promise<CoreEvent> {
  return waitFor(
    async () =>
      (await eventsAbout(kube, namespace, kind, name)).find(
        (e) => e.reason === reason && pattern.test(e.message),
      ),
    { what: `Event ${reason} ${pattern} on ${kind} ${namespace}/${name}`, timeoutMs },
  );
}
