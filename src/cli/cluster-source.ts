// Online `explain`: reads the resource and the configuration the resolver needs from the
// cluster, with GET/LIST calls only (nothing is written, nothing watched).
import { setTimeout as delay } from "node:timers/promises";
import type { ResourceObject } from "../resolver/types.ts";
import { createKubeClient, KubeApiError, type KubeClient } from "../runtime/kube-client.ts";
import { userAgent } from "../version.ts";
import { badInput, CliError, ExitCode } from "./errors.ts";
import {
  assumedNamespace,
  type ConfigurationKind,
  carmConfigMapNames,
  type ExplainInputs,
  iamRoleSelectorKind,
  identityKinds,
  type KubeObject,
} from "./inputs.ts";
import type { LoadedKubeconfig } from "./kubeconfig.ts";
import type { Target } from "./target.ts";

export interface ClusterQuery {
  readonly target: Target;
  readonly namespace: string;
  readonly systemNamespace: string;
}

export async function collectFromCluster(
  loaded: LoadedKubeconfig,
  query: ClusterQuery,
): Promise<ExplainInputs> {
  const kube = createKubeClient(loaded.kubeConfig, { userAgent });
  const get =
    <T>(path: string) =>
    () =>
      kube.request<T>({ method: "GET", path });
  const ns = encodeURIComponent;
  const { target, namespace, systemNamespace } = query;
  const what = `${target.kind.kind} ${namespace}/${target.name}`;
  const call = <T>(description: string, request: () => Promise<T>) => guard(loaded, description, request);
  // A namespaced identity is only ever looked up in the resource's own namespace (DESIGN §3.1).
  const listHere = (kind: ConfigurationKind) =>
    listKind(loaded, kube, kind, kind.namespaced ? namespace : null);

  const [resource, namespaceObject, configMaps, selectors, ...identityLists] = await Promise.all([
    call(
      `get ${what}`,
      get<ResourceObject>(
        `/apis/${target.kind.group}/${target.kind.version}/namespaces/${ns(namespace)}/${target.kind.plural}/${ns(target.name)}`,
      ),
    ),
    call(`get Namespace ${namespace}`, get<CoreObject>(`/api/v1/namespaces/${ns(namespace)}`)),
    readCarmConfigMaps(loaded, kube, systemNamespace),
    listHere(iamRoleSelectorKind),
    ...identityKinds.map(listHere),
  ]);

  const notes: string[] = [];
  if (resource.notFound) throw badInput(resourceNotFound(loaded, query, resource.error));

  const namespaces: KubeObject[] = [];
  if (namespaceObject.notFound) {
    namespaces.push(assumedNamespace(namespace));
    notes.push(
      `Namespace ${namespace} was not found in the cluster; assuming it exists without labels or annotations.`,
    );
  } else {
    namespaces.push(namespaceFromMetadata(namespaceObject.value.metadata));
  }

  for (const [index, list] of [selectors, ...identityLists].entries()) {
    const kind = index === 0 ? iamRoleSelectorKind : identityKinds[index - 1];
    if (list.notFound && kind !== undefined) {
      notes.push(crdNotInstalledNote(kind, `no ${kind.kind}s`));
    }
  }

  return {
    objects: {
      namespaces,
      configMaps,
      iamRoleSelectors: selectors.notFound ? [] : selectors.value,
      identities: identityLists.flatMap((list) => (list.notFound ? [] : list.value)),
    },
    resource: resource.value,
    notes,
  };
}

interface CoreObject {
  readonly metadata?: Record<string, unknown>;
  readonly data?: Record<string, string>;
}

/**
 * The CARM ConfigMaps of the system namespace, as the resolver reads them. A missing map is
 * left out: the resolver's trace names a map that is missing.
 */
export async function readCarmConfigMaps(
  loaded: LoadedKubeconfig,
  kube: KubeClient,
  systemNamespace: string,
): Promise<KubeObject[]> {
  const fetched = await Promise.all(
    carmConfigMapNames.map((name) =>
      guard(loaded, `get ConfigMap ${systemNamespace}/${name}`, () =>
        kube.request<CoreObject>({
          method: "GET",
          path: `/api/v1/namespaces/${encodeURIComponent(systemNamespace)}/configmaps/${encodeURIComponent(name)}`,
        }),
      ),
    ),
  );
  const configMaps: KubeObject[] = [];
  for (const configMap of fetched) {
    if (configMap.notFound) continue;
    const { metadata, data } = configMap.value;
    configMaps.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: plainMetadata(metadata),
      data: data ?? {},
    });
  }
  return configMaps;
}

/** A Namespace as the resolver reads it, from the metadata the API server returned. */
export function namespaceFromMetadata(metadata: Record<string, unknown> | undefined): KubeObject {
  return { apiVersion: "v1", kind: "Namespace", metadata: plainMetadata(metadata) };
}

/** The note for a CRD the cluster does not serve; `treatedAs` says what the CLI assumes instead. */
export function crdNotInstalledNote(kind: ListedKind, treatedAs: string): string {
  return `The ${kind.kind} CRD (${kind.plural}.${kind.group}) is not installed; treating it as ${treatedAs}.`;
}

type Fetched<T> =
  | { readonly notFound: false; readonly value: T }
  | { readonly notFound: true; readonly error: unknown };

/** What listing a kind needs to know of it. */
export type ListedKind = Pick<ConfigurationKind, "group" | "version" | "kind" | "plural">;

/**
 * Every object of `kind` in `namespace` (null: in every namespace, or a cluster-scoped kind),
 * with the apiVersion and kind list items may lack; notFound when its CRD is not installed.
 */
export async function listKind(
  loaded: LoadedKubeconfig,
  kube: KubeClient,
  kind: ListedKind,
  namespace: string | null,
): Promise<Fetched<KubeObject[]>> {
  const where = namespace === null ? "" : `/namespaces/${encodeURIComponent(namespace)}`;
  const result = await guard(loaded, `list ${kind.plural}.${kind.group}`, () =>
    kube.request<unknown>({
      method: "GET",
      path: `/apis/${kind.group}/${kind.version}${where}/${kind.plural}`,
    }),
  );
  if (result.notFound) return result;
  const items = (result.value as { items?: unknown }).items;
  // List items carry no apiVersion/kind of their own on every server; restore them.
  const objects = (Array.isArray(items) ? items : []).map(
    (item: KubeObject): KubeObject => ({
      apiVersion: `${kind.group}/${kind.version}`,
      kind: kind.kind,
      ...item,
    }),
  );
  return { notFound: false, value: objects };
}

/**
 * Runs one API call: 404 becomes `notFound` (a missing object, or a CRD that is not
 * installed); anything else becomes a CliError that says which call failed and why.
 */
export async function guard<T>(
  loaded: LoadedKubeconfig,
  description: string,
  request: () => Promise<T>,
): Promise<Fetched<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { notFound: false, value: await request() };
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return { notFound: true, error };
      // The apiserver asks to come back shortly (429/503, e.g. while a new CRD's storage
      // initialises): honour Retry-After a few times before giving up.
      const wait = retryDelayMs(error, attempt);
      if (wait === null) throw describeFailure(loaded, description, error);
      await delay(wait);
    }
  }
}

const maxAttempts = 4;

function retryDelayMs(error: unknown, attempt: number): number | null {
  if (attempt >= maxAttempts || !(error instanceof KubeApiError)) return null;
  if (error.status !== 429 && error.status !== 503 && error.status !== 504) return null;
  const retryAfter = error.retryAfterSeconds ?? Number.NaN;
  const seconds =
    Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 2) : 0.25 * 2 ** (attempt - 1);
  return seconds * 1000;
}

function describeFailure(loaded: LoadedKubeconfig, description: string, error: unknown): CliError {
  const server = loaded.kubeConfig.server;
  if (error instanceof KubeApiError) {
    const reason = statusMessage(error) ?? `HTTP ${error.status}`;
    const hint =
      error.status === 401
        ? ` The server refused the credentials of ${loaded.description} (HTTP 401): renew them (log in again, or refresh the token), pick another context with --context, or use --from with manifests.`
        : error.status === 403
          ? ` The credentials of ${loaded.description} may not read this (HTTP 403); ask for access or use --from with manifests.`
          : "";
    return new CliError(`Cannot ${description} from ${server}: ${reason}.${hint}`, ExitCode.failure);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new CliError(
    `Cannot reach the Kubernetes API server ${server} (${loaded.description}) to ${description}: ${reason}. ` +
      "Check that the cluster is up and reachable from here, or pick another context with --context.",
    ExitCode.failure,
  );
}

/** The `message` of the Kubernetes Status object in an error response, if there is one. */
function statusMessage(error: KubeApiError): string | undefined {
  const status = parseStatus(error.body);
  return typeof status?.["message"] === "string" ? status["message"] : undefined;
}

function parseStatus(body: unknown): Record<string, unknown> | undefined {
  if (typeof body === "object" && body !== null) return body as Record<string, unknown>;
  if (typeof body !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function resourceNotFound(loaded: LoadedKubeconfig, query: ClusterQuery, error: unknown): string {
  const { target, namespace } = query;
  const server = loaded.kubeConfig.server;
  // A missing object's Status names it in `details`; a missing CRD's does not.
  const details = error instanceof KubeApiError ? parseStatus(error.body)?.["details"] : undefined;
  if (typeof details === "object" && details !== null && "name" in details) {
    return `${target.kind.kind} ${namespace}/${target.name} not found in the cluster at ${server}. Check the name and -n.`;
  }
  return (
    `The cluster at ${server} does not serve ${target.kind.plural}.${target.kind.group}: ` +
    `the ${target.kind.kind} CRD is not installed (or ${target.kind.kind} ${namespace}/${target.name} does not exist).`
  );
}

/** Only what the resolver may read of a core object's metadata, as plain JSON. */
export function plainMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const field of [
    "name",
    "namespace",
    "labels",
    "annotations",
    "resourceVersion",
    "uid",
    "generation",
  ]) {
    const value = metadata?.[field];
    if (value !== undefined && value !== null) plain[field] = value;
  }
  return plain;
}
