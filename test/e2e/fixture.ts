// End-to-end fixture: the local stack, crossrole's CRDs, and the REAL controller process
// (`crossrole run`), plus what tests need to look at both sides — Kubernetes objects and
// which account's AWS holds what (asked in the emulator with that account's credentials).
import { lookupKind, type ResourceKind } from "../../src/api/kinds.ts";
import { type ControllerProcess, startControllerProcess } from "../../src/local-stack/controller-process.ts";
import { fillExamplePlaceholders } from "../../src/local-stack/example-placeholders.ts";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { applyObjects, readManifests } from "../../src/local-stack/manifests.ts";
import { type Stack, type StackOptions, startStack } from "../../src/local-stack/stack.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { createKubeClient, isNotFound, type KubeClient, patchTypes } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";

export {
  accountsHolding,
  bucketRegion,
  bucketsIn,
  clientAs,
  credentialsFor,
} from "../../src/local-stack/accounts.ts";
export {
  type ControllerProcess,
  controllerAccount,
  controllerCredentials,
  region,
} from "../../src/local-stack/controller-process.ts";

export interface E2E {
  readonly stack: Stack;
  readonly kube: KubeClient;
  apply(objects: readonly KubeObject[] | string): Promise<void>;
  /** Starts `crossrole run` (extra flags appended); waits until /readyz answers 200. */
  startController(
    extraArgs?: readonly string[],
    opts?: {
      waitReady?: boolean;
      name?: string;
      awsEndpoint?: string;
      env?: Readonly<Record<string, string | undefined>>;
      regionFromEnv?: boolean;
    },
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
      // Examples name subnets by placeholder (src/local-stack/example-placeholders.ts).
      const read = typeof objects === "string" ? await readManifests(objects) : [...objects];
      await applyObjects(
        kube,
        stack.awsEndpoint ? await fillExamplePlaceholders(read, stack.awsEndpoint) : read,
      );
    },
    async startController(extraArgs = [], o = {}) {
      const c = await startControllerProcess(stack, extraArgs, {
        name: o.name ?? `controller-${controllers.length + 1}`,
        waitReady: o.waitReady ?? true,
        ...(o.awsEndpoint ? { awsEndpoint: o.awsEndpoint } : {}),
        ...(o.env ? { env: o.env } : {}),
        ...(o.regionFromEnv ? { regionFromEnv: true } : {}),
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

/**
 * The setting of one kind's end-to-end test: namespace `apps` annotated to `account`, the CARM account map sending that account to its `apps-x` role, the controller's
 * identity for `apps`, and the controller started.
 */
export async function startAppsInAccount(account: string): Promise<E2E> {
  const e2e = await startE2E();
  await applyAppsInAccount(e2e, account);
  await e2e.startController();
  return e2e;
}

/** startAppsInAccount's objects alone, for a test that starts the controller its own way (behind a proxy). */
export function applyAppsInAccount(e2e: E2E, account: string): Promise<void> {
  return e2e.apply([
    namespace("ack-system"),
    namespace("apps", { "services.k8s.aws/owner-account-id": account }),
    configMap("ack-role-account-map", { [account]: `arn:aws:iam::${account}:role/apps-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: ["apps", "ack-system"] } }),
  ]);
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
      observedGeneration?: number;
    }[];
    /** Kind-specific status fields (tableStatus, queueURL, dbInstanceStatus, ...). */
    [field: string]: unknown;
  };
};

/** A managed kind by its kind name (`Bucket`, `Queue`, ...); throws on a kind crossrole lacks. */
export function resourceKind(kindName: string): ResourceKind {
  const k = lookupKind(kindName);
  if (!k) throw new Error(`no resource kind ${kindName}`);
  return k;
}

/** The REST path of one managed resource of kind `kindName`. */
export function resourcePath(kindName: string, namespace: string, name: string): string {
  const k = resourceKind(kindName);
  return `/apis/${k.group}/${k.version}/namespaces/${namespace}/${k.plural}/${name}`;
}

export function bucketPath(namespace: string, name: string): string {
  return resourcePath("Bucket", namespace, name);
}

/** Writes `status` into a resource as a tenant may (a merge patch of its status subresource). */
export function writeStatusAsTenant(
  kube: KubeClient,
  kindName: string,
  namespace: string,
  name: string,
  status: Record<string, unknown>,
): Promise<unknown> {
  return kube.request({
    method: "PATCH",
    path: `${resourcePath(kindName, namespace, name)}/status`,
    contentType: patchTypes.merge,
    body: { status },
  });
}

/** One managed resource, or undefined when it does not exist (any kind). */
export async function getResource(
  kube: KubeClient,
  kindName: string,
  namespace: string,
  name: string,
): Promise<Resource | undefined> {
  try {
    return await kube.request<Resource>({ method: "GET", path: resourcePath(kindName, namespace, name) });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Merge-patches one managed resource (`{ spec }`, `{ metadata }`, ...). */
export async function patchResource(
  kube: KubeClient,
  kindName: string,
  namespace: string,
  name: string,
  body: Record<string, unknown>,
): Promise<void> {
  await kube.request({
    method: "PATCH",
    path: resourcePath(kindName, namespace, name),
    contentType: patchTypes.merge,
    body,
  });
}

/** Deletes one managed resource and waits until Kubernetes no longer has it (finalizer released). */
export async function deleteResourceAndWait(
  kube: KubeClient,
  kindName: string,
  namespace: string,
  name: string,
  timeoutMs = 20_000,
): Promise<void> {
  await kube.request({ method: "DELETE", path: resourcePath(kindName, namespace, name) });
  await waitFor(async () => (await getResource(kube, kindName, namespace, name)) === undefined, {
    what: `${kindName} ${namespace}/${name} gone`,
    timeoutMs,
  });
}

export function getBucket(kube: KubeClient, namespace: string, name: string): Promise<Resource | undefined> {
  return getResource(kube, "Bucket", namespace, name);
}

export function condition(r: Resource | undefined, type: string) {
  return r?.status?.conditions?.find((c) => c.type === type);
}

/**
 * Waits until the resource's condition `type` has `status` (and, if given, `reason`); returns
 * the resource. On timeout the error shows the conditions it last had.
 */
export async function waitForResourceCondition(
  kube: KubeClient,
  kindName: string,
  namespace: string,
  name: string,
  type: string,
  status: "True" | "False",
  reason?: string,
  timeoutMs = 20_000,
): Promise<Resource> {
  let last: Resource | undefined;
  const what = `${kindName} ${namespace}/${name} ${type}=${status}${reason ? ` (${reason})` : ""}`;
  try {
    return await waitFor(
      async () => {
        last = await getResource(kube, kindName, namespace, name);
        const c = condition(last, type);
        return c?.status === status && (reason === undefined || c.reason === reason) ? last : undefined;
      },
      { what, timeoutMs },
    );
  } catch (err) {
    const seen = (last?.status?.conditions ?? []).map(
      (c) => `${c.type}=${c.status} ${c.reason ?? ""}: ${c.message ?? ""}`,
    );
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}; last conditions: ${seen.join(" | ") || "none"}`,
    );
  }
}

/** Waits until the resource is ACK.ResourceSynced=True for generation `minGeneration` or later. */
export function waitForSynced(
  kube: KubeClient,
  kindName: string,
  namespace: string,
  name: string,
  minGeneration = 1,
): Promise<Resource> {
  return waitFor(
    async () => {
      const r = await waitForResourceCondition(kube, kindName, namespace, name, "ACK.ResourceSynced", "True");
      const c = condition(r, "ACK.ResourceSynced") as { observedGeneration?: number } | undefined;
      return (c?.observedGeneration ?? 0) >= minGeneration ? r : undefined;
    },
    { what: `${kindName} ${namespace}/${name} Synced at generation ${minGeneration}`, timeoutMs: 20_000 },
  );
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
  return waitForResourceCondition(kube, "Bucket", namespace, name, type, status, reason, timeoutMs);
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

/** A cluster-scoped identity object (AWSRoleIdentity, AWSControllerIdentity, ...). */
export function identity(kind: string, name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: "identity.crossrole.dev/v1alpha1", kind, metadata: { name }, spec } as KubeObject;
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
