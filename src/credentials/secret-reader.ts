// How a static identity's keys are read: a narrow interface (the controller backs it with its
// Secret informer; tests and tools with a direct API read), and a Kubernetes implementation.
import { isNotFound, type KubeClient } from "../runtime/kube-client.ts";

/** A Secret's data, decoded to UTF-8 strings. */
export type SecretData = Readonly<Record<string, string>>;

export interface SecretReader {
  /** The Secret's data, or null when the Secret does not exist. */
  read(namespace: string, name: string): Promise<SecretData | null>;
}

interface SecretObject {
  readonly data?: Readonly<Record<string, string>>;
  readonly stringData?: Readonly<Record<string, string>>;
}

/** Reads Secrets straight from the API server (one GET per call; prefer an informer in the controller). */
export function kubeSecretReader(client: KubeClient): SecretReader {
  return {
    async read(namespace, name) {
      try {
        const secret = await client.request<SecretObject>({
          method: "GET",
          path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
        });
        const data: Record<string, string> = {};
        for (const [k, v] of Object.entries(secret?.data ?? {}))
          data[k] = Buffer.from(v, "base64").toString("utf8");
        for (const [k, v] of Object.entries(secret?.stringData ?? {})) data[k] = v;
        return data;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
  };
}
