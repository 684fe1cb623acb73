// The in-cluster configuration, as client-go's rest.InClusterConfig: the apiserver at
// KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT (an IPv6 host in brackets), the CA and the
// namespace from the service-account mount, and its projected token as a token file the client
// re-reads every minute (the kubelet rotates it).
import { join } from "node:path";
import { KubeconfigError, type ReadFile, type RestConfig, readFailure, readUtf8 } from "./rest-config.ts";

export const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

export interface InClusterOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The service-account mount (default /var/run/secrets/kubernetes.io/serviceaccount). */
  readonly dir?: string;
  readonly readFile?: ReadFile;
}

export function inClusterConfig(opts: InClusterOptions): RestConfig {
  const host = opts.env["KUBERNETES_SERVICE_HOST"] ?? "";
  const port = opts.env["KUBERNETES_SERVICE_PORT"] ?? "";
  if (host === "" || port === "") {
    throw new KubeconfigError(
      "Not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must both be set; " +
        "outside a Pod pass --kubeconfig.",
    );
  }
  const dir = opts.dir ?? serviceAccountDir;
  const readFile = opts.readFile ?? readUtf8;
  const read = (name: string, required: boolean): string | undefined => {
    try {
      return readFile(join(dir, name));
    } catch (err) {
      if (!required) return undefined;
      const why = readFailure(err);
      throw new KubeconfigError(
        `in-cluster service account: ${join(dir, name)} cannot be read (${why}); ` +
          "is the ServiceAccount token mounted (automountServiceAccountToken)?",
      );
    }
  };
  // Read once now so a missing token fails at start-up, by name; the client re-reads it.
  read("token", true);
  const ca = read("ca.crt", false);
  const namespace = read("namespace", false)?.trim();
  const hostPart = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    server: `https://${hostPart}:${port}`,
    tls: ca !== undefined ? { ca } : {},
    auth: { type: "tokenFile", path: join(dir, "token") },
    ...(namespace ? { namespace } : {}),
    source: `in-cluster service account (${dir})`,
  };
}
