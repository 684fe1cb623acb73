// Where and as whom to reach one apiserver — client-go's rest.Config, as plain data: what a
// kubeconfig context (kubeconfig.ts) or the in-cluster service account (in-cluster.ts) resolves
// to, and what createKubeClient (kube-client.ts) connects with. Files named by a kubeconfig (CA,
// client certificate and key) are already read into it; a token file is not: it is re-read
// while the client runs, as client-go does.
import { readFileSync } from "node:fs";

/** A kubeconfig or in-cluster setup that cannot be used, with the file, entry and fix in its message. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KubeconfigError";
  }
}

/** Reads a file as UTF-8 (injected in tests). */
export type ReadFile = (file: string) => string;

/** The real ReadFile. */
export const readUtf8: ReadFile = (file) => readFileSync(file, "utf8");

/** Why a file could not be read, for a message: its errno code (ENOENT, EACCES), else the error's message. */
export function readFailure(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
}

export interface RestTLS {
  /** PEM of the CA(s) that sign the apiserver's certificate; the system CAs when absent. */
  readonly ca?: string;
  /** PEM client certificate and key (mutual TLS). */
  readonly cert?: string;
  readonly key?: string;
  /** insecure-skip-tls-verify: do not verify the apiserver's certificate. */
  readonly insecureSkipTLSVerify?: boolean;
  /** tls-server-name: the name to check the certificate against instead of the URL's host. */
  readonly serverName?: string;
}

/** A client-go exec credential plugin (the `exec` of a kubeconfig user), e.g. `aws eks get-token`. */
export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  /** client.authentication.k8s.io/v1 or v1beta1. */
  readonly apiVersion: string;
  readonly installHint?: string;
  /** Pass the cluster (server, CA) to the plugin in KUBERNETES_EXEC_INFO. */
  readonly provideClusterInfo: boolean;
  /** Directory relative commands are found in (the kubeconfig's), as kubectl does. */
  readonly baseDir?: string;
}

/** How requests authenticate (besides a client certificate in `tls`). */
export type RestAuth =
  | { readonly type: "none" }
  | { readonly type: "token"; readonly token: string }
  /** A bearer token read from a file and re-read every minute (projected tokens rotate). */
  | { readonly type: "tokenFile"; readonly path: string }
  | { readonly type: "basic"; readonly username: string; readonly password: string }
  | { readonly type: "exec"; readonly exec: ExecConfig };

export interface Impersonation {
  readonly user: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export interface RestConfig {
  /** The apiserver's base URL, e.g. https://127.0.0.1:6443 (no trailing slash). */
  readonly server: string;
  readonly tls: RestTLS;
  readonly auth: RestAuth;
  readonly impersonate?: Impersonation;
  /** The context's namespace (kubectl's default for -n), when it sets one. */
  readonly namespace?: string;
  /** The kubeconfig context it came from, if any. */
  readonly context?: string;
  /** Where it came from, for error messages: "kubeconfig /x/config (context a)", "in-cluster ...". */
  readonly source: string;
}

/** The same cluster (server, TLS) acting as another bearer token: tests' "a client as this ServiceAccount". */
export function withToken(
  config: RestConfig,
  token: string,
  source = `${config.source} as a token`,
): RestConfig {
  const { cert: _cert, key: _key, ...tls } = config.tls;
  const { impersonate: _impersonate, ...rest } = config;
  return { ...rest, tls, auth: { type: "token", token }, source };
}

/** The same cluster and credentials through another base URL (a proxy or forwarder in tests). */
export function withServer(config: RestConfig, server: string): RestConfig {
  return { ...config, server: server.replace(/\/+$/, "") };
}
